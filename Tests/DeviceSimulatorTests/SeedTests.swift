import Foundation
@testable import Provisioning
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// The cases of the seed documents (seeds/README.md), reproduced on the simulated device.
@Suite struct SeedTests {
    // MARK: 000 — custom data in Firebase pushes, three app states, misconfigurations

    static let fcmPayload = Fixture.json(
        """
        {"aps":{"alert":{"title":"タイトル","body":"本文"}},"gcm.message_id":"1583301460178432","test":"aaa"}
        """)
    static let route000 = NavigationDeclaration(
        tabs: ["Home"], screens: [ScreenDeclaration(id: "custom")],
        routes: [
            RouteDeclaration(
                name: "custom-screen", triggers: [.tap], requiredKeys: [RouteKey("test", .string)],
                push: [ScreenPush("custom", title: .fromKey("test"))])
        ])

    @Test func seed000PayloadReachesTheRightCallbackInEachState() throws {
        let app = Fixture.app(navigation: Self.route000)
        // A. background
        let (a, _) = Fixture.ready(app, state: .background)
        let ea = a.deliver(Fixture.push(Self.fcmPayload)).events
        #expect(Fixture.callbacks(ea) == [])  // alert only: shown, no app code until tap
        let bg = Fixture.json(
            #"{"aps":{"alert":{"title":"t"},"content-available":1},"gcm.message_id":"1","test":"aaa"}"#)
        #expect(Fixture.callbacks(a.deliver(Fixture.push(bg, id: "p2")).events) == ["didReceiveRemoteNotification"])
        // B. not running, user taps: launchOptions[.remoteNotification] then the response, then routing
        let (b, _) = Fixture.ready(app, state: .notRunning)
        b.deliver(Fixture.push(Self.fcmPayload))
        let eb = try b.tap("n1")
        #expect(Fixture.callbacks(eb) == ["didFinishLaunching", "didReceiveResponse"])
        #expect(eb.contains { $0.kind == .callback(.didFinishLaunching(remoteNotification: Self.fcmPayload)) })
        #expect(Fixture.navigation(eb).contains(.pushed(screen: "custom", title: "aaa")))
        // C. foreground: willPresent; shown only with options; the tap delivers the payload again
        let silent = Fixture.app(delegate: DelegateBehaviour(willPresentOptions: []), navigation: Self.route000)
        let (c, _) = Fixture.ready(silent, state: .foreground)
        let ec = c.deliver(Fixture.push(Self.fcmPayload)).events
        #expect(Fixture.callbacks(ec) == ["willPresent"])
        #expect(c.snapshot.notificationCenter.isEmpty)
        let (c2, _) = Fixture.ready(app, state: .foreground)
        c2.deliver(Fixture.push(Self.fcmPayload))
        let tap = try c2.tap("n1")
        #expect(
            tap.contains {
                $0.kind
                    == .callback(.didReceiveResponse(actionID: AppCallback.defaultActionID, userInfo: Self.fcmPayload))
            })
    }

    @Test(arguments: [
        (#"{"aps":{"alert":"x"}}"#, "missing"),
        (#"{"aps":{"alert":"x"},"test":42}"#, "number"),
    ])
    func seed000MissingOrIllTypedKeyIsARoutingFailure(payload: String, found: String) throws {
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.route000), state: .suspended)
        d.deliver(Fixture.push(Fixture.json(payload)))
        let nav = Fixture.navigation(try d.tap("n1"))
        #expect(nav == [.routingFailed(route: "custom-screen", key: "test", expected: .string, found: found)])
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.isEmpty == true)
    }

    @Test func seed000MisconfigurationsAreDiagnosedWithSymptoms() {
        // (1) profile without the test device's UDID
        let (d1, _) = Fixture.device()
        let f1 = d1.install(Fixture.app(profile: Fixture.profile(devices: ["00008030-0000000000000000"])))
        #expect(f1.first?.symptom.contains("A valid provisioning profile for this executable was not found") == true)
        // (2) Push Notifications and Background Modes capabilities missing
        let (d2, _) = Fixture.device()
        #expect(d2.install(Fixture.app(backgroundModes: [], aps: nil)).isEmpty)
        guard case .denied(let f2) = d2.registerForRemoteNotifications(Fixture.bundleID) else {
            Issue.record("registration should fail")
            return
        }
        #expect(f2.first?.symptom.contains("Code=3000") == true)
        let warnings = d2.events.compactMap {
            if case .capabilityWarning(let f) = $0.kind { return f.code } else { return nil }
        }
        #expect(warnings == ["background-mode-missing"])
    }

    // MARK: 001 — tap → tab 1 + detail titled from aps.alert.title, web view at `url`

    static let nav001 = NavigationDeclaration(
        tabs: ["Top", "Home"], screens: [ScreenDeclaration(id: "detail")],
        routes: [
            RouteDeclaration(
                name: "detail", triggers: [.tap], requiredKeys: [RouteKey("url", .url)], tab: 1,
                push: [ScreenPush("detail", title: .fromKey("aps.alert.title"))], openURLFromKey: "url")
        ])

    @Test func seed001TapSelectsHomeTabAndPushesDetail() throws {
        let app = Fixture.app(
            delegate: DelegateBehaviour(willPresentOptions: [.banner, .sound]), navigation: Self.nav001)
        let (d, _) = Fixture.ready(app, state: .foreground)
        let payload = Fixture.json(
            #"{"aps":{"alert":{"title":"Swift Evolution","body":"new"}},"url":"https://example.com/page"}"#)
        let shown = Fixture.presented(d.deliver(Fixture.push(payload)).events)
        // [.banner, .sound]: a banner, nothing kept in Notification Center (iOS 14+, device.md §1.3).
        #expect(shown == [Presentation(banner: true, list: false, sound: nil, quiet: false)])
        let nav = Fixture.navigation(try d.tap("n1"))
        #expect(
            nav == [
                .routed(route: "detail", trigger: .tap), .tabSelected(index: 1, title: "Home"),
                .pushed(screen: "detail", title: "Swift Evolution"), .webViewRequested(url: "https://example.com/page"),
            ])
        let router = try #require(d.snapshot.apps[Fixture.bundleID]?.router)
        #expect(router.selectedTab == 1)
        #expect(
            router.stack == [ScreenInstance(id: "detail", title: "Swift Evolution", url: "https://example.com/page")])
        // Leaving the detail view resets the navigation.
        d.pressBack(Fixture.bundleID)
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.isEmpty == true)
    }

    @Test func seed001URLMustBeAURL() throws {
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.nav001), state: .background)
        d.deliver(Fixture.push(Fixture.json(#"{"aps":{"alert":{"title":"T"}},"url":"not a url"}"#)))
        #expect(
            Fixture.navigation(try d.tap("n1"))
                == [.routingFailed(route: "detail", key: "url", expected: .url, found: "string \"not a url\"")])
    }

    // MARK: 002 — Back with a confirmation alert

    static let confirm = AlertDeclaration(title: "確認", message: "入力内容が保存されていません。編集を終了しますか？")
    static let nav002 = NavigationDeclaration(
        tabs: ["List"], screens: [ScreenDeclaration(id: "edit", title: "編集", confirmBack: confirm)],
        routes: [RouteDeclaration(name: "edit", triggers: [.tap], push: [ScreenPush("edit")])])

    @Test func seed002BackAsksThenCancelStaysAndOKPops() throws {
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.nav002), state: .foreground)
        d.deliver(Fixture.push(Fixture.alertPayload))
        try d.tap("n1")
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.currentScreen == "edit")
        #expect(
            Fixture.navigation(d.pressBack(Fixture.bundleID)) == [
                .alertShown(title: "確認", message: Self.confirm.message)
            ])
        #expect(Fixture.navigation(d.pressBack(Fixture.bundleID)) == [.backIgnored(reason: "an alert is showing")])
        #expect(
            Fixture.navigation(d.answerAlert(Fixture.bundleID, button: "Cancel")) == [.alertAnswered(button: "Cancel")])
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.currentScreen == "edit")
        d.pressBack(Fixture.bundleID)
        #expect(
            Fixture.navigation(d.answerAlert(Fixture.bundleID, button: "OK")) == [
                .alertAnswered(button: "OK"), .popped(screen: "edit"),
            ])
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.currentScreen == nil)
        #expect(d.answerAlert(Fixture.bundleID, button: "OK").isEmpty)
    }

    // MARK: 003 — RootViewController router: login-dependent start, quick actions, screen-dependent routes

    static let nav003 = NavigationDeclaration(
        tabs: ["Root"],
        screens: [
            ScreenDeclaration(id: "login"), ScreenDeclaration(id: "main"), ScreenDeclaration(id: "camera"),
            ScreenDeclaration(id: "setting"), ScreenDeclaration(id: "chat"),
        ],
        routes: [
            RouteDeclaration(name: "splash-main", triggers: [.launch], whenLoggedIn: true, push: [ScreenPush("main")]),
            RouteDeclaration(
                name: "splash-login", triggers: [.launch], whenLoggedIn: false, push: [ScreenPush("login")]),
            RouteDeclaration(
                name: "shortcut-setting", triggers: [.quickAction], quickActionType: "setting", requiresLogin: true,
                push: [ScreenPush("main"), ScreenPush("setting")]),
            RouteDeclaration(
                name: "shortcut-camera", triggers: [.quickAction], quickActionType: "camera",
                push: [ScreenPush("main"), ScreenPush("camera")]),
            RouteDeclaration(
                name: "shortcut-main", triggers: [.quickAction], quickActionType: "main", push: [ScreenPush("main")]),
            // "before" code: what a push does depends on the visible screen
            RouteDeclaration(
                name: "chat-over-camera", triggers: [.tap], whenCurrentScreen: "camera", resetStack: false,
                push: [ScreenPush("chat")]),
            RouteDeclaration(
                name: "chat", triggers: [.tap], requiresLogin: true, push: [ScreenPush("main"), ScreenPush("chat")]),
            // LoginViewController on success: router.route(to: .main)
            RouteDeclaration(name: "login-main", triggers: [.login], push: [ScreenPush("main")]),
        ],
        quickActions: ["main", "camera", "setting"], loginScreen: "login", startsLoggedIn: false)

    @Test func seed003SplashRoutesByLoginState() {
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.nav003), state: .notRunning)
        let nav = Fixture.navigation(d.launch(Fixture.bundleID))
        #expect(nav == [.routed(route: "splash-login", trigger: .launch), .pushed(screen: "login", title: "login")])
        var loggedIn = Self.nav003
        loggedIn.startsLoggedIn = true
        let (d2, _) = Fixture.ready(Fixture.app(navigation: loggedIn), state: .notRunning)
        #expect(
            Fixture.navigation(d2.launch(Fixture.bundleID)).first == .routed(route: "splash-main", trigger: .launch))
    }

    @Test func seed003QuickActionsGoThroughTheSameRouterAndLoginGate() {
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.nav003), state: .notRunning)
        let e = d.performQuickAction(Fixture.bundleID, type: "setting")
        #expect(Fixture.callbacks(e) == ["didFinishLaunching", "performQuickAction"])
        // The cold start runs didFinishLaunching's splash first (device.md §1.1 (d)), then the shortcut's route.
        #expect(
            Fixture.navigation(e) == [
                .routed(route: "splash-login", trigger: .launch), .pushed(screen: "login", title: "login"),
                .loginRequired(route: "shortcut-setting"), .pushed(screen: "login", title: "login"),
            ])
        let after = Fixture.navigation(d.logIn(Fixture.bundleID))
        #expect(
            after == [
                .loggedIn, .popped(screen: "login"), .routed(route: "shortcut-setting", trigger: .quickAction),
                .pushed(screen: "main", title: "main"), .pushed(screen: "setting", title: "setting"),
            ])
        let cam = Fixture.navigation(d.performQuickAction(Fixture.bundleID, type: "camera"))
        #expect(cam.first == .routed(route: "shortcut-camera", trigger: .quickAction))
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.map(\.id) == ["main", "camera"])
    }

    @Test func seed003LoginScreenGoesToItsSuccessRouteWhenNoRouteWaits() {
        // A plain launch shows login; logging in there takes the login screen's own route to main.
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.nav003), state: .notRunning)
        d.launch(Fixture.bundleID)
        #expect(
            Fixture.navigation(d.logIn(Fixture.bundleID)) == [
                .loggedIn, .popped(screen: "login"), .routed(route: "login-main", trigger: .login),
                .pushed(screen: "main", title: "main"),
            ])
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.map(\.id) == ["main"])
        // A route waiting for the login runs instead (the shortcut's), not the login screen's.
        let (w, _) = Fixture.ready(Fixture.app(navigation: Self.nav003), state: .notRunning)
        w.performQuickAction(Fixture.bundleID, type: "setting")
        let waiting = Fixture.navigation(w.logIn(Fixture.bundleID))
        #expect(waiting.contains(.routed(route: "shortcut-setting", trigger: .quickAction)))
        #expect(!waiting.contains(.routed(route: "login-main", trigger: .login)))
        #expect(w.snapshot.apps[Fixture.bundleID]?.router.stack.map(\.id) == ["main", "setting"])
        // Logging in with no login screen showing (credentials already stored) routes nowhere.
        let (s, _) = Fixture.ready(Fixture.app(navigation: Self.nav003), state: .notRunning)
        #expect(Fixture.navigation(s.logIn(Fixture.bundleID)) == [.loggedIn])
        // Without an `on: [login]` route the stack is left as the login screen leaves it (empty here).
        var plain = Self.nav003
        plain.routes.removeAll { $0.triggers == [.login] }
        let (p, _) = Fixture.ready(Fixture.app(navigation: plain), state: .notRunning)
        p.launch(Fixture.bundleID)
        #expect(Fixture.navigation(p.logIn(Fixture.bundleID)) == [.loggedIn, .popped(screen: "login")])
    }

    @Test func seed003PushRouteDependsOnCurrentScreen() throws {
        var nav = Self.nav003
        nav.startsLoggedIn = true
        let (d, _) = Fixture.ready(Fixture.app(navigation: nav), state: .notRunning)
        d.performQuickAction(Fixture.bundleID, type: "camera")
        d.deliver(Fixture.push(Fixture.alertPayload))
        #expect(Fixture.navigation(try d.tap("n1")).first == .routed(route: "chat-over-camera", trigger: .tap))
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.map(\.id) == ["main", "camera", "chat"])
        d.performQuickAction(Fixture.bundleID, type: "main")
        d.deliver(Fixture.push(Fixture.alertPayload, id: "p2"))
        #expect(Fixture.navigation(try d.tap("n2")).first == .routed(route: "chat", trigger: .tap))
        #expect(d.snapshot.apps[Fixture.bundleID]?.router.stack.map(\.id) == ["main", "chat"])
    }

    // MARK: 004 — content extension action `open`

    @Test func seed004OpenActionHandledByExtensionOthersForwarded() throws {
        let app = Fixture.app(categories: [ExtensionTests.category], contentExtensions: [ExtensionTests.kanmoba])
        let (d, _) = Fixture.ready(app, state: .suspended)
        d.deliver(Fixture.push(ExtensionTests.payload004))
        #expect(d.snapshot.actions(forNotification: "n1").map(\.id) == ["open", "keep", "later"])
        let open = try d.chooseAction("open", on: "n1")
        #expect(
            open.contains {
                $0.kind
                    == .urlOpened(url: "https://kanmoba.connpass.com/event/1/", by: "content extension KanmobaContent")
            })
        #expect(Fixture.callbacks(open).isEmpty)
        d.deliver(Fixture.push(ExtensionTests.payload004, id: "p2"))
        #expect(Fixture.callbacks(try d.chooseAction("later", on: "n2")) == ["didReceiveResponse"])
    }
}

@Suite struct RoutingNoiseTests {
    @Test func noRouteIsLoggedOnlyWhenTheAppRoutesThatEntryPoint() throws {
        let (plain, _) = Fixture.ready(state: .foreground)
        plain.deliver(Fixture.push(Fixture.alertPayload))
        #expect(Fixture.navigation(plain.events).isEmpty)
        #expect(Fixture.navigation(try plain.tap("n1")).isEmpty)
        let (routed, _) = Fixture.ready(Fixture.app(navigation: SeedTests.nav001), state: .foreground)
        routed.deliver(Fixture.push(Fixture.json(#"{"aps":{"alert":"x","category":"OTHER"}}"#)))
        #expect(Fixture.navigation(routed.events).isEmpty)  // no foreground routes
        #expect(
            Fixture.navigation(try routed.tap("n1")) == [
                .routingFailed(route: "detail", key: "url", expected: .url, found: "missing")
            ])
    }
}
