import Foundation
@testable import Provisioning
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Where the simulated iPhone used to differ from iOS (issue 11), each pinned to the iOS behaviour and its source.
@Suite struct IOSDifferenceTests {
    // MARK: cold start runs the launch path first (device.md §1.1 (d), [A-DEL][A-SCENE]; seed 003)

    static let splash = NavigationDeclaration(
        tabs: ["Root"], screens: [ScreenDeclaration(id: "login"), ScreenDeclaration(id: "main")],
        routes: [
            RouteDeclaration(name: "splash-main", triggers: [.launch], whenLoggedIn: true, push: [ScreenPush("main")]),
            RouteDeclaration(
                name: "splash-login", triggers: [.launch], whenLoggedIn: false, push: [ScreenPush("login")]),
        ], quickActions: ["other"], startsLoggedIn: true)

    struct ColdRow: Sendable, CustomTestStringConvertible {
        var name: String
        var state: AppState
        /// Navigation events after the entry point, in order.
        var expected: [NavigationEvent]
        var testDescription: String { name }
    }

    /// A tap that starts the app: `didFinishLaunching` builds the root (the splash picks main), then the
    /// response is routed; no route handles the push here, so the splash's choice stays. A warm app only routes.
    @Test(
        arguments: [
            ColdRow(
                name: "cold tap", state: .notRunning,
                expected: [
                    .routed(route: "splash-main", trigger: .launch), .pushed(screen: "main", title: "main"),
                    .noRoute(trigger: .tap),
                ]),
            ColdRow(
                name: "cold tap after force quit", state: .forceQuit,
                expected: [
                    .routed(route: "splash-main", trigger: .launch), .pushed(screen: "main", title: "main"),
                    .noRoute(trigger: .tap),
                ]),
            ColdRow(name: "warm tap (background)", state: .background, expected: []),
        ])
    func coldTapRunsLaunchRoutesFirst(row: ColdRow) throws {
        var nav = Self.splash
        nav.routes.append(RouteDeclaration(name: "never", triggers: [.tap], category: "NOPE"))
        let (d, _) = Fixture.ready(Fixture.app(navigation: nav), state: row.state)
        let before = d.snapshot.apps[Fixture.bundleID]!.router.stack.map(\.id)
        d.deliver(Fixture.push(Fixture.alertPayload))
        let events = try d.tap("n1")
        let navigation = Fixture.navigation(events)
        if row.state.isRunning {
            // Already running: the root the launch built stays, and only the tap is routed.
            #expect(navigation == [.noRoute(trigger: .tap)])
            #expect(d.snapshot.apps[Fixture.bundleID]!.router.stack.map(\.id) == before)
        } else {
            #expect(navigation == row.expected)
            #expect(d.snapshot.apps[Fixture.bundleID]!.router.stack.map(\.id) == ["main"])
            // didFinishLaunching comes before the response, with the payload in launchOptions.
            #expect(Fixture.callbacks(events) == ["didFinishLaunching", "didReceiveResponse"])
        }
    }

    @Test func coldQuickActionRunsLaunchRoutesFirst() {
        var nav = Self.splash
        nav.routes.append(
            RouteDeclaration(
                name: "shortcut", triggers: [.quickAction], quickActionType: "other", resetStack: false,
                push: [ScreenPush("main")]))
        let (d, _) = Fixture.ready(Fixture.app(navigation: nav), state: .notRunning)
        let events = d.performQuickAction(Fixture.bundleID, type: "other")
        #expect(Fixture.navigation(events).first == .routed(route: "splash-main", trigger: .launch))
        #expect(d.snapshot.apps[Fixture.bundleID]!.router.stack.map(\.id) == ["main", "main"])
    }

    @Test func coldStartRebuildsTheStackButKeepsTheLogin() {
        let (d, _) = Fixture.ready(Fixture.app(navigation: Self.splash), state: .foreground)
        d.perform { (s: inout DeviceState, _: Date) in s.logOut(Fixture.bundleID) }
        d.terminate(Fixture.bundleID)
        d.launch(Fixture.bundleID)
        #expect(d.snapshot.apps[Fixture.bundleID]!.router.stack.map(\.id) == ["login"])
        // A background launch for a push is a new process too: the next user launch shows a fresh root.
        d.logIn(Fixture.bundleID)
        d.terminate(Fixture.bundleID)
        d.deliver(Fixture.push(Fixture.backgroundPayload))
        #expect(Fixture.state(d) == .suspended)
        #expect(d.snapshot.apps[Fixture.bundleID]!.router.stack.isEmpty)
        d.launch(Fixture.bundleID)
        #expect(d.snapshot.apps[Fixture.bundleID]!.router.stack.map(\.id) == ["main"])
    }

    // MARK: an app signed with aps-environment whose profile lacks it is not installed (device.md §3.1 [A-TN3125], §3.4)

    @Test func entitlementMissingFromProfileRefusesInstallWithTheRealTexts() {
        let (d, _) = Fixture.device()
        let app = Fixture.app(aps: .development, profile: Fixture.profile(aps: nil))
        let findings = d.install(app)
        #expect(findings.map(\.code) == ["entitlement-not-in-profile"])
        #expect(d.snapshot.apps.isEmpty)
        let symptom = findings.first?.symptom ?? ""
        #expect(
            symptom.contains(
                "Provisioning profile \u{201C}Example Dev\u{201D} doesn't include the aps-environment entitlement."))
        #expect(symptom.contains("(0xE8008016)"))
        #expect(symptom.contains("The executable was signed with invalid entitlements."))
        // Without the entitlement on either side the app installs and registration fails with Code=3000.
        let (d2, _) = Fixture.device()
        #expect(d2.install(Fixture.app(aps: nil, profile: Fixture.profile(aps: nil))).isEmpty)
    }

    /// The NSError as `didFailToRegisterForRemoteNotificationsWithError` prints it, whole ([A-FAIL], [ISS-APS]).
    @Test func registrationErrorIsTheWholeNSErrorDescription() {
        let (d, _) = Fixture.device()
        #expect(d.install(Fixture.app(aps: nil)).isEmpty)
        let events = d.perform { (s: inout DeviceState, now: Date) in
            s.registerForRemoteNotifications(Fixture.bundleID, now: now)
        }
        .events
        let message = "no valid \u{201C}aps-environment\u{201D} entitlement string found for application"
        let whole =
            "Error Domain=NSCocoaErrorDomain Code=3000 \"\(message)\" UserInfo={NSLocalizedDescription=\(message)}"
        #expect(events.contains { $0.kind == .callback(.didFailToRegisterForRemoteNotifications(error: whole)) })
        #expect(ProvisioningFinding.missingAPSEntitlement(bundleID: "x").symptom.contains(whole))
    }

    // MARK: swipe back (seed 002)

    struct SwipeRow: Sendable, CustomTestStringConvertible {
        var name: String
        var swipeEnabled: Bool
        var confirm: Bool
        var stack: [String]
        var alert: String?
        var testDescription: String { name }
    }

    /// The interactive pop gesture bypasses a custom Back button action (seed 002: the 確認 alert is bound
    /// to the button), so it pops unless the screen disables the gesture.
    @Test(
        arguments: [
            SwipeRow(
                name: "confirming screen, gesture on: pops without the alert", swipeEnabled: true, confirm: true,
                stack: ["list"], alert: nil),
            SwipeRow(
                name: "confirming screen, gesture off: nothing", swipeEnabled: false, confirm: true,
                stack: ["list", "edit"], alert: nil),
            SwipeRow(name: "plain screen: pops", swipeEnabled: true, confirm: false, stack: ["list"], alert: nil),
        ])
    func swipeBack(row: SwipeRow) {
        let confirm = AlertDeclaration(title: "確認", message: "入力内容が保存されていません。編集を終了しますか？")
        let nav = NavigationDeclaration(
            screens: [
                ScreenDeclaration(id: "list"),
                ScreenDeclaration(
                    id: "edit", confirmBack: row.confirm ? confirm : nil, swipeBackEnabled: row.swipeEnabled),
            ],
            routes: [RouteDeclaration(name: "edit", triggers: [.tap], push: [ScreenPush("list"), ScreenPush("edit")])])
        let (d, _) = Fixture.ready(Fixture.app(navigation: nav), state: .foreground)
        d.deliver(Fixture.push(Fixture.alertPayload))
        _ = try? d.tap("n1")
        _ = try? d.apply(.swipeBack(app: nil))
        let router = d.snapshot.apps[Fixture.bundleID]!.router
        #expect(router.stack.map(\.id) == row.stack)
        #expect(router.alert?.alert.title == row.alert)
        // The Back button still asks on the confirming screen.
        if row.confirm, !row.swipeEnabled {
            d.pressBack(Fixture.bundleID)
            #expect(d.snapshot.apps[Fixture.bundleID]!.router.alert?.alert.title == "確認")
        }
    }

    // MARK: tokens

    /// After uninstall the provider still holds the old token; APNs answers it with 410 (device.md §3.4).
    @Test func previousTokenSurvivesUninstallAndReinstall() {
        let (d, _) = Fixture.ready(Fixture.app(), state: .foreground)
        let first = d.snapshot.apps[Fixture.bundleID]!.token!
        #expect(d.snapshot.previousToken(of: Fixture.bundleID) == nil)
        d.uninstall(Fixture.bundleID)
        #expect(d.snapshot.previousToken(of: Fixture.bundleID) == first)
        #expect(d.install(Fixture.app()).isEmpty)
        d.registerForRemoteNotifications(Fixture.bundleID)
        let second = d.snapshot.apps[Fixture.bundleID]!.token!
        #expect(second != first)
        #expect(d.snapshot.previousToken(of: Fixture.bundleID) == first)
    }

    // MARK: response policy (seed 001 has no decidePolicyFor navigationResponse)

    @Test(
        arguments: [
            (nil, 404, nil), (nil, 500, nil), (200...299, 200, nil),
            (200...299, 404, "the app's response policy cancels HTTP 404 (allows 200-299)"),
        ] as [(ClosedRange<Int>?, Int, String?)])
    func responsePolicy(allowed: ClosedRange<Int>?, status: Int, cancelled: String?) {
        #expect(WebViewPolicy(allowedResponseStatuses: allowed).decideResponse(status: status) == cancelled)
    }
}
