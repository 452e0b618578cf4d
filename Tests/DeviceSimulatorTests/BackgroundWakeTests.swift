import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// device.md §1.2: conditions for a background push to wake the app.
@Suite struct BackgroundWakeTests {
    @Test func capabilityRequiredForWakeButNotForForeground() {
        let app = Fixture.app(backgroundModes: [])
        for state in [AppState.background, .suspended, .notRunning] {
            let (d, _) = Fixture.ready(app, state: state)
            let e = d.deliver(Fixture.push(Fixture.backgroundPayload)).events
            #expect(Fixture.callbacks(e).isEmpty)
            #expect(Fixture.drops(e) == [.noRemoteNotificationBackgroundMode])
        }
        let (fg, _) = Fixture.ready(app, state: .foreground)
        #expect(
            Fixture.callbacks(fg.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [
                "didReceiveRemoteNotification"
            ])
        // The UIKit console warning is part of the log from install on.
        let warned = fg.events.contains {
            if case .capabilityWarning(let f) = $0.kind {
                return f.code == "background-mode-missing"
            } else {
                return false
            }
        }
        #expect(warned)
    }

    /// ios-push-types.md §5.9 (choice): `apns-push-type: background` with an alert payload is a background push:
    /// the alert is not shown (a partial drop names why), and it wakes the app only as a background push would.
    static let alertNotShown =
        "alert-not-shown: apns-push-type is background (the alert, sound and badge are not presented)"

    @Test func backgroundTypeWithAnAlertIsNotShown() {
        let (d, _) = Fixture.ready(state: .background)
        var p = Fixture.push(Fixture.json(#"{"aps":{"alert":{"title":"Hi"},"badge":3}}"#))
        p.pushType = .background
        let e = d.deliver(p).events
        #expect(Fixture.drops(e).map(\.text) == [Self.alertNotShown])
        #expect(d.snapshot.notificationCenter.isEmpty)
        #expect(Fixture.callbacks(e).isEmpty)
        var woken = Fixture.push(Fixture.json(#"{"aps":{"alert":{"title":"Hi"},"content-available":1}}"#), id: "p2")
        woken.pushType = .background
        let w = d.deliver(woken).events
        #expect(Fixture.drops(w).map(\.text) == [Self.alertNotShown])
        #expect(Fixture.callbacks(w) == ["didReceiveRemoteNotification"])
        #expect(d.snapshot.notificationCenter.isEmpty)
    }

    @Test func contentAvailableZeroIsNotAWake() {
        let (d, _) = Fixture.ready(state: .suspended)
        let e = d.deliver(Fixture.push(Fixture.json(#"{"aps":{"content-available":0}}"#))).events
        #expect(Fixture.callbacks(e).isEmpty)
        #expect(e.first?.kind == .pushReceived(apnsID: "p1", kind: .empty))
    }

    @Test func budgetHoldsNewestAndDeliversItOnUserLaunch() {
        let (d, clock) = Fixture.ready(state: .suspended, rules: DeviceRules(backgroundWakesPerDay: 2))
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b1")).events) == [
                "didReceiveRemoteNotification"
            ])
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b2")).events) == [
                "didReceiveRemoteNotification"
            ])
        let third = d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b3")).events
        #expect(Fixture.callbacks(third).isEmpty)
        #expect(third.contains { $0.kind == .backgroundPushHeld(apnsID: "b3") })
        let fourth = d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b4")).events
        #expect(fourth.contains { $0.kind == .pushDropped(apnsID: "b3", reason: .heldPushReplaced) })
        #expect(fourth.contains { $0.kind == .backgroundPushHeld(apnsID: "b4") })
        let launch = d.launch(Fixture.bundleID)
        #expect(Fixture.callbacks(launch) == ["didReceiveRemoteNotification"])
        // A day later the budget has reset.
        d.moveToBackground(Fixture.bundleID)
        d.suspend(Fixture.bundleID)
        clock.advance(by: 86_400)
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload, id: "b5")).events) == [
                "didReceiveRemoteNotification"
            ])
    }

    @Test func heldPushDiscardedOnForceQuitAndTerminate() {
        for quit in [true, false] {
            let (d, _) = Fixture.ready(state: .suspended, rules: DeviceRules(backgroundWakesPerDay: 0))
            d.deliver(Fixture.push(Fixture.backgroundPayload, id: "h"))
            let e = quit ? d.forceQuit(Fixture.bundleID) : d.terminate(Fixture.bundleID)
            #expect(Fixture.drops(e) == [.heldPushDiscarded])
            #expect(Fixture.callbacks(d.launch(Fixture.bundleID)) == ["didFinishLaunching"])
        }
    }

    @Test(arguments: [31.0, nil] as [TimeInterval?])
    func fetchOverrunTerminatesTheApp(duration: TimeInterval?) {
        let (d, _) = Fixture.ready(Fixture.app(delegate: DelegateBehaviour(fetchDuration: duration)), state: .suspended)
        let e = d.deliver(Fixture.push(Fixture.backgroundPayload)).events
        #expect(e.contains { if case .appTerminated = $0.kind { return true } else { return false } })
        #expect(Fixture.state(d) == .notRunning)
    }

    @Test func fetchWithinBudgetCompletesWithItsResult() {
        let (d, _) = Fixture.ready(
            Fixture.app(delegate: DelegateBehaviour(fetchResult: .noData, fetchDuration: 30)), state: .suspended)
        let e = d.deliver(Fixture.push(Fixture.backgroundPayload)).events
        #expect(e.contains { $0.kind == .fetchCompleted(result: .noData, duration: 30) })
        #expect(Fixture.state(d) == .suspended)
    }

    @Test func forceQuitBlocksWakesUntilRelaunchOrReboot() {
        let (d, _) = Fixture.ready(state: .forceQuit)
        #expect(Fixture.drops(d.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [.appForceQuit])
        d.reboot()
        #expect(Fixture.state(d) == .notRunning)
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload)).events)
                == ["didFinishLaunching", "didReceiveRemoteNotification"])
        d.forceQuit(Fixture.bundleID)
        d.launch(Fixture.bundleID)
        d.moveToBackground(Fixture.bundleID)
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [
                "didReceiveRemoteNotification"
            ])
    }

    @Test func offlineDeviceRefusesSoTheGatewayCanStore() {
        let (d, _) = Fixture.ready(state: .suspended)
        d.setOnline(false)
        #expect(d.deliver(Fixture.push(Fixture.alertPayload)).disposition == .deviceOffline)
        d.setOnline(true)
        #expect(d.deliver(Fixture.push(Fixture.alertPayload)).disposition == .accepted)
    }

    @Test func wrongTokenAndMissingAppAreRejected() {
        let (d, _) = Fixture.ready(state: .suspended)
        var p = Fixture.push(Fixture.alertPayload)
        p.token = DeviceToken(hex: String(repeating: "ab", count: 32))
        #expect(d.deliver(p).disposition == .rejected(.tokenNotRegistered))
        p.token = d.registration(of: Fixture.bundleID).token
        #expect(d.deliver(p).disposition == .accepted)
        p.bundleID = "com.example.other"
        #expect(d.deliver(p).disposition == .rejected(.appNotInstalled))
    }
}

/// device.md §1.4: authorization decides what is shown; silent pushes arrive regardless.
@Suite struct AuthorizationTests {
    struct Row: Sendable, CustomStringConvertible {
        var settings: NotificationSettings
        var presentation: Presentation?
        var serviceExtensionRuns: Bool
        var description: String { settings.status.rawValue + (settings.alert ? "" : " (alert off)") }
    }

    static let rows: [Row] = [
        Row(settings: .notDetermined, presentation: nil, serviceExtensionRuns: false),
        Row(settings: .denied, presentation: nil, serviceExtensionRuns: false),
        Row(
            settings: .provisional, presentation: Presentation(banner: false, list: true, sound: nil, quiet: true),
            serviceExtensionRuns: true),
        Row(
            settings: .authorized, presentation: Presentation(banner: true, list: true, sound: "default", quiet: false),
            serviceExtensionRuns: true),
        Row(
            settings: NotificationSettings(status: .authorized, alert: false, sound: false),
            presentation: Presentation(banner: false, list: true, sound: nil, quiet: false), serviceExtensionRuns: true),
    ]

    @Test(arguments: rows)
    func presentationByAuthorization(row: Row) {
        let app = Fixture.app(serviceExtension: ServiceExtensionBehaviour(newTitle: "Decrypted"))
        let (d, _) = Fixture.ready(app, state: .suspended, settings: row.settings)
        let payload = Fixture.json(
            #"{"aps":{"alert":{"title":"T","body":"B"},"sound":"default","badge":3,"mutable-content":1}}"#)
        let e = d.deliver(Fixture.push(payload)).events
        #expect(Fixture.presented(e) == (row.presentation.map { [$0] } ?? []))
        let ran = e.contains { if case .serviceExtensionRan = $0.kind { return true } else { return false } }
        #expect(ran == row.serviceExtensionRuns)
        if row.presentation == nil { #expect(Fixture.drops(e) == [.notAuthorized]) }
        // Silent pushes are delivered whatever the authorization.
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [
                "didReceiveRemoteNotification"
            ])
    }

    @Test func registrationDoesNotNeedAuthorization() {
        let (d, _) = Fixture.ready(state: .notRunning, settings: .denied)
        #expect(d.registration(of: Fixture.bundleID).token != nil)
    }
}
