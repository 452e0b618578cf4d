import Foundation
@testable import Provisioning
@testable import PushModel
import Synchronization
import Testing

@testable import DeviceSimulator

/// device.md §3.4, the rows that concern the device: what breaks and what the developer sees.
@Suite struct MisconfigurationTests {
    @Test func udidNotProvisionedRefusesInstall() {
        let (d, _) = Fixture.device()
        let findings = d.install(Fixture.app(profile: Fixture.profile(devices: ["SOME-OTHER-UDID"])))
        #expect(findings.map(\.code) == ["udid-not-provisioned"])
        #expect(d.snapshot.apps.isEmpty)
        #expect(d.events.map(\.kind) == [.installFailed(findings)])
        #expect(d.deliver(Fixture.push(Fixture.alertPayload)).disposition == .rejected(.appNotInstalled))
    }

    @Test(
        arguments: [
            ("app lacks entitlement", Fixture.app(aps: nil), ["missing-aps-entitlement"]),
            // Signed with aps-environment against such a profile the app is not even installed
            // (IOSDifferenceTests); without it on either side it installs and registration fails.
            (
                "profile lacks push", Fixture.app(aps: nil, profile: Fixture.profile(aps: nil)),
                ["profile-lacks-push", "missing-aps-entitlement"]
            ),
            ("wildcard app id", Fixture.app(profile: Fixture.profile(appID: "ABCDE12345.*")), ["wildcard-app-id"]),
        ] as [(String, AppDeclaration, [String])])
    func registrationFailsWithCode3000(name: String, app: AppDeclaration, code: [String]) {
        let (d, _) = Fixture.device()
        #expect(d.install(app).isEmpty)
        guard case .denied(let findings) = d.registerForRemoteNotifications(Fixture.bundleID) else {
            Issue.record("\(name): registration should fail")
            return
        }
        #expect(findings.map(\.code) == code)
        #expect(d.registration(of: Fixture.bundleID).token == nil)
        let failed = d.events.contains {
            if case .callback(.didFailToRegisterForRemoteNotifications(let error)) = $0.kind {
                let message = "no valid \u{201C}aps-environment\u{201D} entitlement string found for application"
                return error
                    == "Error Domain=NSCocoaErrorDomain Code=3000 \"\(message)\" UserInfo={NSLocalizedDescription=\(message)}"
            }
            return false
        }
        #expect(failed)
    }

    @Test func tokenBoundToEnvironmentFromEntitlement() {
        let prod = Fixture.app(aps: .production, profile: Fixture.profile(aps: .production))
        let (d, _) = Fixture.device()
        d.install(prod)
        #expect(d.registerForRemoteNotifications(Fixture.bundleID) == .allowed(.production))
        #expect(d.registration(of: Fixture.bundleID).environment?.apnsEnvironment == .production)
    }

    @Test func expiredProfileRefusesInstallAndStopsInstalledAppLaunching() {
        let (d, clock) = Fixture.device()
        #expect(d.install(Fixture.app(profile: Fixture.profile(expiresIn: -1))).map(\.code) == ["profile-expired"])
        #expect(d.install(Fixture.app(profile: Fixture.profile(expiresIn: 3600))).isEmpty)
        clock.advance(by: 7200)
        let e = d.launch(Fixture.bundleID)
        #expect(e.count == 1)
        if case .launchRefused(let f) = e.first?.kind {
            #expect(f.map(\.code) == ["profile-expired"])
        } else {
            Issue.record("expected launchRefused")
        }
        #expect(Fixture.state(d) == .notRunning)
    }

    @Test(arguments: [(true, false, true), (false, false, false), (false, true, true)])
    func firebaseTokenMapping(proxy: Bool, forwards: Bool, mapped: Bool) {
        let app = Fixture.app(
            firebase: FirebaseDeclaration(senderID: "123456789", projectID: "demo", forwardsAPNsToken: forwards),
            proxyEnabled: proxy)
        let (d, _) = Fixture.ready(app, state: .notRunning)
        let reg = d.registration(of: Fixture.bundleID)
        #expect(reg.fcmToken?.contains(":APA91b") == true)
        #expect(reg.fcmMapped == mapped)
        let warnings = d.events.compactMap {
            if case .capabilityWarning(let f) = $0.kind { return f } else { return nil }
        }
        #expect(warnings.map(\.code) == (mapped ? [] : ["apns-token-not-forwarded"]))
        if !mapped { #expect(warnings.first?.symptom.hasPrefix("[I-FCM002022] APNS device token not set") == true) }
    }

    @Test func delegateSetAfterLaunchMissesColdStartTap() throws {
        let late = DelegateBehaviour(delegateSetBeforeLaunchFinishes: false)
        let (d, _) = Fixture.ready(Fixture.app(delegate: late), state: .notRunning)
        d.deliver(Fixture.push(Fixture.alertPayload))
        let e = try d.tap("n1")
        #expect(Fixture.callbacks(e) == ["didFinishLaunching"])
        #expect(Fixture.drops(e) == [.responseMissedDelegateSetLate])
        // When already running the response arrives.
        d.deliver(Fixture.push(Fixture.alertPayload, id: "p2"))
        #expect(Fixture.callbacks(try d.tap("n2")) == ["didReceiveResponse"])
    }
}

/// Same seed and inputs → same tokens and same event log.
@Suite struct DeterminismTests {
    static func script(seed: UInt64) -> (SimulatedDevice, [DeviceEvent]) {
        let clock = ManualClock(start: Fixture.start)
        let d = SimulatedDevice(name: "A", udid: Fixture.udid, seed: seed, clock: clock)
        d.install(Fixture.app(firebase: FirebaseDeclaration(senderID: "1", projectID: "p")))
        d.setNotificationSettings(.authorized, for: Fixture.bundleID)
        d.registerForRemoteNotifications(Fixture.bundleID)
        clock.advance(by: 5)
        d.deliver(Fixture.push(Fixture.alertAndBackgroundPayload))
        clock.advance(by: 5)
        _ = try? d.tap("n1")
        return (d, d.events)
    }

    @Test func sameSeedSameLog() {
        let (a, ea) = Self.script(seed: 7)
        let (b, eb) = Self.script(seed: 7)
        #expect(ea == eb)
        #expect(a.registration(of: Fixture.bundleID).token == b.registration(of: Fixture.bundleID).token)
        #expect(a.registration(of: Fixture.bundleID).fcmToken == b.registration(of: Fixture.bundleID).fcmToken)
        #expect(ea.map(\.sequence) == Array(1...ea.count))
        #expect(ea.last?.at == Fixture.start.addingTimeInterval(10))
    }

    @Test func otherSeedOtherTokens() {
        let (a, _) = Self.script(seed: 7)
        let (b, _) = Self.script(seed: 8)
        #expect(a.registration(of: Fixture.bundleID).token != b.registration(of: Fixture.bundleID).token)
        #expect(a.registration(of: Fixture.bundleID).token?.bytes.count == 32)
    }

    @Test func reinstallGivesANewToken() {
        let (d, _) = Fixture.ready(state: .notRunning)
        let first = d.registration(of: Fixture.bundleID).token
        d.uninstall(Fixture.bundleID)
        d.install(Fixture.app())
        d.registerForRemoteNotifications(Fixture.bundleID)
        #expect(d.registration(of: Fixture.bundleID).token != first)
        #expect(d.registration(of: Fixture.bundleID).token != nil)
    }
}

/// Records what a gateway's token registry would be told.
final class RecordingSink: DeviceRegistrationSink {
    let calls = Mutex<[String]>([])
    func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment) {
        calls.withLock { $0.append("registered \(bundleID) \(environment.rawValue) \(token.hex.prefix(8))") }
    }
    func tokenInvalidated(_ token: DeviceToken, at date: Date) {
        calls.withLock { $0.append("invalidated \(token.hex.prefix(8))") }
    }
    func deviceOnlineChanged(tokens: [DeviceToken], online: Bool) {
        calls.withLock { $0.append("online=\(online) tokens=\(tokens.count)") }
    }
}

@Suite struct RegistrationSinkTests {
    @Test func gatewayHearsRegistrationUninstallAndOnlineChanges() throws {
        let (d, _) = Fixture.device()
        let sink = RecordingSink()
        d.addRegistrationSink(sink)
        d.setUp(Fixture.app())
        let token = try #require(d.registration(of: Fixture.bundleID).token)
        d.setOnline(false)
        d.setOnline(true)
        d.uninstall(Fixture.bundleID)
        d.setUp(Fixture.app(aps: nil))  // registration fails: nothing to tell
        let prefix = token.hex.prefix(8)
        #expect(
            sink.calls.withLock { $0 } == [
                "registered \(Fixture.bundleID) sandbox \(prefix)", "online=false tokens=1", "online=true tokens=1",
                "invalidated \(prefix)",
            ])
    }
}
