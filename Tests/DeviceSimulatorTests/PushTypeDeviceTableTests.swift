import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Every iOS push type on the simulated iPhone, as Tests/reference/ios-push-types.md describes it: the push type ×
/// token kind table (§1), what each type reaches at its own token (§3, §5) and the background budget (§5.2).
@Suite struct PushTypeDeviceTableTests {
    /// §1: the whole table, written out. A new type or kind fails here until it has its row.
    @Test func pushTypeByTokenKindTable() {
        func expected(_ type: APNsPushType, _ kind: PushTokenKind) -> TokenKindOutcome {
            switch (type, kind) {
            case (.complication, _), (.mdm, _): return .notModelled  // §5.3, §5.7
            case (.voip, .apns): return .refuse(.deviceTokenNotForTopic)  // §1.2
            case (.alert, .voip), (.background, .voip): return .refuse(.topicDisallowed)  // §1.3
            case (.alert, .apns), (.background, .apns), (.voip, .voip), (.pushtotalk, .pushToTalk),
                (.location, .location), (.widgets, .widgets), (.controls, .controls), (.fileprovider, .fileProvider),
                (.liveactivity, .activity), (.liveactivity, .pushToStart):
                return .deliver
            default: return .mismatch  // §1.4
            }
        }
        for type in APNsPushType.allCases {
            for kind in PushTokenKind.allCases {
                #expect(PushTokenKind.outcome(of: type, at: kind) == expected(type, kind), "\(type) at \(kind)")
            }
        }
    }

    /// The UIBackgroundModes an app needs for VoIP and Push to Talk pushes (§4.5).
    static let callModes = ["remote-notification", "voip", "push-to-talk"]

    /// §4.5: without the `voip` / `push-to-talk` background mode the push reaches nothing: dropped with the missing
    /// mode named, no `pushReceived` (so `delivered:` is false), the app not launched.
    @Test func voipAndPushToTalkNeedTheirBackgroundMode() throws {
        var app = Fixture.app()
        app.pushTypes = [.voip, .pushToTalk]
        let d = SimulatedDevice(
            name: "Test iPhone", udid: Fixture.udid, iosVersion: "17.5", seed: 42,
            clock: ManualClock(start: Fixture.start))
        d.setUp(app)
        Fixture.put(d, app.bundleID, in: .notRunning)
        let tokens = try #require(d.snapshot.apps[Fixture.bundleID]?.pushTokens)
        let voip = d.deliver(Self.push(.voip, to: tokens[.voip], id: "v1"))
        #expect(Fixture.drops(voip.events).map(\.text) == ["no-voip-background-mode"])
        #expect(!Self.received(voip.events))
        let ptt = d.deliver(Self.push(.pushtotalk, to: tokens[.pushToTalk], id: "t1"))
        #expect(Fixture.drops(ptt.events).map(\.text) == ["no-push-to-talk-background-mode"])
        #expect(!Self.received(ptt.events))
        #expect(d.snapshot.apps[Fixture.bundleID]?.state == .notRunning)
    }

    /// An app with every token it can ask for, registered, in `state`, on an iOS 26 device (widget push tokens).
    static func ready(
        state: AppState, reportsCall: Bool = true, rules: DeviceRules = DeviceRules(), ios: String = "26.0"
    ) -> (SimulatedDevice, InstalledApp) {
        var app = Fixture.app(backgroundModes: Self.callModes)
        app.pushTypes = AppDeclaration.declarableTokenKinds
        app.voip = VoIPBehaviour(reportsCall: reportsCall)
        let d = SimulatedDevice(
            name: "Test iPhone", udid: Fixture.udid, iosVersion: ios, seed: 42,
            clock: ManualClock(start: Fixture.start),
            rules: rules)
        d.setUp(app)
        Fixture.put(d, app.bundleID, in: state)
        return (d, d.snapshot.apps[Fixture.bundleID]!)
    }

    /// §1.1: a kind whose API the device's iOS predates is not issued, and the log says why.
    @Test func tokensNeedTheIOSVersionOfTheirAPI() throws {
        let (d, app) = Self.ready(state: .notRunning, ios: "17.5")
        #expect(Set(app.pushTokens.keys) == [.voip, .pushToTalk, .location, .fileProvider])
        let missing = d.events.compactMap {
            if case .pushTokenNotIssued(let k, let r) = $0.kind { "\(k.rawValue): \(r)" } else { nil }
        }
        #expect(
            missing == [
                "widgets: needs iOS 26, the device runs 17.5", "controls: needs iOS 18, the device runs 17.5",
            ])
    }

    static func push(_ type: APNsPushType, to token: DeviceToken?, id: String = "p1", payload: String = #"{"aps":{}}"#)
        -> IncomingPush
    {
        IncomingPush(
            bundleID: Fixture.bundleID, token: token, payload: Fixture.json(payload), pushType: type, apnsID: id)
    }

    static func received(_ events: [DeviceEvent]) -> Bool {
        events.contains { if case .pushReceived = $0.kind { true } else { false } }
    }

    /// §1.1: each declared kind is its own seeded token, distinct from the APNs token and from each other, the same
    /// on every run, with the PushKit callback for the VoIP one.
    @Test func eachDeclaredKindIsADistinctSeededToken() throws {
        let (d, app) = Self.ready(state: .notRunning)
        let (_, appAgain) = Self.ready(state: .notRunning)
        let all = [app.token] + AppDeclaration.declarableTokenKinds.map { app.pushTokens[$0] }
        #expect(Set(all.compactMap { $0 }).count == 1 + AppDeclaration.declarableTokenKinds.count)
        #expect(appAgain.pushTokens == app.pushTokens)
        #expect(
            Fixture.callbacks(d.events).suffix(2) == ["didRegisterForRemoteNotifications", "pushRegistryDidUpdate"])
        // An app declaring nothing has only its APNs token.
        let (plain, _) = Fixture.ready(state: .notRunning)
        #expect(plain.snapshot.apps[Fixture.bundleID]?.pushTokens.isEmpty == true)
    }

    /// §1.4, §3, §5: every type at every token the app holds: delivered to its receiver, or dropped naming the
    /// mismatch with no `pushReceived` (so `delivered:` is false).
    @Test func everyTypeAtEveryTokenTheAppHolds() throws {
        for type in APNsPushType.allCases where type != .liveactivity {
            for kind in [PushTokenKind.apns] + AppDeclaration.declarableTokenKinds {
                let (d, app) = Self.ready(state: .foreground)
                let token = kind == .apns ? app.token : app.pushTokens[kind]
                let e = d.deliver(Self.push(type, to: token)).events
                switch PushTokenKind.outcome(of: type, at: kind) {
                case .deliver:
                    #expect(Self.received(e), "\(type) at \(kind)")
                    #expect(Fixture.drops(e).isEmpty, "\(type) at \(kind)")
                case .refuse, .mismatch:
                    #expect(!Self.received(e), "\(type) at \(kind)")
                    #expect(Fixture.drops(e) == [.tokenKindMismatch(type, kind)], "\(type) at \(kind)")
                case .notModelled:
                    #expect(!Self.received(e), "\(type) at \(kind)")
                    #expect(Fixture.drops(e) == [.notModelled(type)], "\(type) at \(kind)")
                }
            }
        }
        #expect(
            DropReason.tokenKindMismatch(.liveactivity, .apns).text
                == "token-kind-mismatch: liveactivity push to apns token")
    }

    /// The issue's opening case on the device: a Live Activity push at the APNs device token reaches nothing.
    @Test func liveActivityPushAtTheDeviceTokenIsDropped() throws {
        let (d, app) = Self.ready(state: .foreground)
        let e = d.deliver(
            Self.push(.liveactivity, to: app.token, payload: #"{"aps":{"event":"update","content-state":{}}}"#)
        ).events
        #expect(!Self.received(e))
        #expect(Fixture.drops(e) == [.tokenKindMismatch(.liveactivity, .apns)])
    }

    /// §5: the receiver each type reaches at its own token.
    @Test func eachTypeReachesItsReceiver() throws {
        let table: [(APNsPushType, PushTokenKind, DeviceEventKind)] = [
            (.location, .location, .pushHandled(.locationPushServiceExtension)),
            (.widgets, .widgets, .pushHandled(.widgetReload)),
            (.controls, .controls, .pushHandled(.controlsReload)),
            (.fileprovider, .fileProvider, .pushHandled(.fileProviderExtension)),
        ]
        for (type, kind, handled) in table {
            let (d, app) = Self.ready(state: .suspended)
            let e = d.deliver(Self.push(type, to: app.pushTokens[kind])).events
            #expect(e.map(\.kind).contains(handled), "\(type)")
            #expect(Fixture.callbacks(e).isEmpty, "\(type): not the app's delegate")
            #expect(Fixture.state(d) == .suspended, "\(type): the app stays as it was")
        }
        // §5.6 Push to Talk: the channel manager's callback, the app launched in the background.
        let (d, app) = Self.ready(state: .notRunning)
        let e = d.deliver(Self.push(.pushtotalk, to: app.pushTokens[.pushToTalk])).events
        #expect(Fixture.callbacks(e) == ["didFinishLaunching", "incomingPushResult"])
        #expect(Fixture.state(d) == .background)
    }

    /// §5.7 [FP-PUSH]: "It also delivers the notification to any PKPushRegistryDelegate objects": a running app's
    /// PushKit delegate gets a File Provider push besides the extension (it reached the extension only); the app
    /// is not launched or woken for it (Apple does not say it is).
    @Test func aFileProviderPushAlsoReachesARunningAppsPushKitDelegate() throws {
        for (state, callbacks) in [
            (AppState.foreground, ["didReceiveIncomingPush"]), (.background, ["didReceiveIncomingPush"]),
            (.suspended, []), (.notRunning, []),
        ] {
            let (d, app) = Self.ready(state: state)
            let e = d.deliver(Self.push(.fileprovider, to: app.pushTokens[.fileProvider])).events
            #expect(e.map(\.kind).contains(.pushHandled(.fileProviderExtension)), "\(state)")
            #expect(Fixture.callbacks(e) == callbacks, "\(state)")
            #expect(Fixture.state(d) == state, "\(state)")
        }
    }

    /// §4.1: a VoIP push wakes the app in every state, force-quit included, and the app reports the call.
    @Test func voipWakesTheAppInEveryState() throws {
        let table: [(AppState, [String])] = [
            (.foreground, ["didReceiveIncomingPush"]),
            (.background, ["didReceiveIncomingPush"]),
            (.suspended, ["didReceiveIncomingPush"]),
            (.notRunning, ["didFinishLaunching", "didReceiveIncomingPush"]),
            (.forceQuit, ["didFinishLaunching", "didReceiveIncomingPush"]),
        ]
        for (state, callbacks) in table {
            let (d, app) = Self.ready(state: state)
            let e = d.deliver(Self.push(.voip, to: app.pushTokens[.voip])).events
            #expect(Fixture.callbacks(e) == callbacks, "\(state)")
            #expect(e.contains { $0.kind == .incomingCallReported }, "\(state)")
            #expect(e.contains { $0.kind == .pushReceived(apnsID: "p1", kind: .voip) }, "\(state)")
            #expect(Fixture.state(d) == (state == .foreground ? .foreground : .background), "\(state)")
        }
    }

    /// §4.2, §4.3: an app that does not report the call is terminated each time; after `voipUnreportedLimit` (3) in
    /// a row VoIP pushes are no longer delivered; a reinstall starts over.
    @Test func unreportedVoIPPushesTerminateAndThenStopDelivery() throws {
        let (d, app) = Self.ready(state: .foreground, reportsCall: false)
        #expect(Fixture.state(d) == .foreground)
        let voip = try #require(app.pushTokens[.voip])
        for n in 1...3 {
            let e = d.deliver(Self.push(.voip, to: voip, id: "v\(n)")).events
            #expect(Fixture.callbacks(e).last == "didReceiveIncomingPush")
            #expect(!e.contains { $0.kind == .incomingCallReported })
            #expect(e.contains { if case .appTerminated = $0.kind { true } else { false } })
            #expect(Fixture.state(d) == .notRunning)
        }
        let fourth = d.deliver(Self.push(.voip, to: voip, id: "v4")).events
        #expect(!Self.received(fourth))
        #expect(Fixture.callbacks(fourth).isEmpty)
        #expect(Fixture.drops(fourth) == [.voipNotReported(count: 3)])
        #expect(Fixture.drops(fourth).first?.text.hasPrefix("voip-not-reported: ") == true)
        // Alert pushes still arrive: only PushKit stopped.
        #expect(Self.received(d.deliver(Self.push(.alert, to: app.token, payload: #"{"aps":{"alert":"x"}}"#)).events))
        // Reinstalled: a new install, a new token, VoIP pushes delivered again.
        var decl = Fixture.app(backgroundModes: Self.callModes)
        decl.pushTypes = [.voip]
        d.uninstall(Fixture.bundleID)
        d.setUp(decl)
        let fresh = try #require(d.snapshot.apps[Fixture.bundleID]?.pushTokens[.voip])
        #expect(fresh != voip)
        #expect(Self.received(d.deliver(Self.push(.voip, to: fresh, id: "v5")).events))
    }

    /// §4.3 (choice): a reported call resets the count of unreported ones in a row.
    @Test func aReportedCallResetsTheCount() throws {
        let rules = DeviceRules(voipUnreportedLimit: 2)
        var decl = Fixture.app(backgroundModes: Self.callModes)
        decl.pushTypes = [.voip]
        decl.voip = VoIPBehaviour(reportsCall: false)
        let (d, _) = Fixture.ready(decl, state: .notRunning, rules: rules)
        let voip = try #require(d.snapshot.apps[Fixture.bundleID]?.pushTokens[.voip])
        d.deliver(Self.push(.voip, to: voip, id: "a"))
        #expect(d.snapshot.apps[Fixture.bundleID]?.voipUnreported == 1)
        d.perform { s, _ in s.apps[Fixture.bundleID]!.declaration.voip.reportsCall = true }
        d.deliver(Self.push(.voip, to: voip, id: "b"))
        #expect(d.snapshot.apps[Fixture.bundleID]?.voipUnreported == 0)
    }

    /// §1.5: uninstalling invalidates every token of the app, each with its kind.
    @Test func uninstallInvalidatesEveryKind() throws {
        let (d, app) = Self.ready(state: .notRunning)
        let e = d.uninstall(Fixture.bundleID)
        let invalidated = e.compactMap {
            if case .pushTokenInvalidated(let k, let t) = $0.kind { (k, t) } else { nil }
        }
        #expect(invalidated.map(\.0) == AppDeclaration.declarableTokenKinds)
        #expect(invalidated.allSatisfy { app.pushTokens[$0.0] == $0.1 })
    }

    /// §5.2: the hourly background budget holds the third push of the hour and gives the budget back an hour later.
    @Test func hourlyBackgroundBudget() throws {
        let (d, clock) = Fixture.ready(state: .suspended, rules: DeviceRules(backgroundWakesPerHour: 2))
        for id in ["b1", "b2"] {
            #expect(Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload, id: id)).events).count == 1)
        }
        let third = d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b3")).events
        #expect(third.contains { $0.kind == .backgroundPushHeld(apnsID: "b3") })
        clock.advance(by: 3_601)
        let later = d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b4")).events
        #expect(Fixture.callbacks(later) == ["didReceiveRemoteNotification"])
    }
}
