import Foundation
@testable import Provisioning
@testable import PushModel

@testable import DeviceSimulator

/// Declared (not file-based) apps and devices for the delivery tests.
enum Fixture {
    static let udid = "00008110-000A1C2E0E12801E"
    static let bundleID = "com.example.app"
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    static func profile(
        devices: [String]? = [udid], aps: APSEnvironment? = .development,
        appID: String = "ABCDE12345.com.example.app", expiresIn: TimeInterval = 365 * 86_400
    ) -> ProvisioningProfile {
        ProvisioningProfile(
            name: "Example Dev", uuid: "U-1", teamID: "ABCDE12345", appID: AppID(applicationIdentifier: appID),
            apsEnvironment: aps, getTaskAllow: aps == .development, provisionedDevices: devices,
            provisionsAllDevices: false, creationDate: start.addingTimeInterval(-86_400),
            expirationDate: start.addingTimeInterval(expiresIn))
    }

    static func app(
        delegate: DelegateBehaviour = DelegateBehaviour(), backgroundModes: [String] = ["remote-notification"],
        aps: APSEnvironment? = .development, profile: ProvisioningProfile = profile(),
        categories: [NotificationCategory] = [], serviceExtension: ServiceExtensionBehaviour? = nil,
        contentExtensions: [ContentExtensionDeclaration] = [], firebase: FirebaseDeclaration? = nil,
        proxyEnabled: Bool = true, navigation: NavigationDeclaration = NavigationDeclaration()
    ) -> AppDeclaration {
        AppDeclaration(
            signing: AppSigningConfiguration(
                bundleID: bundleID, teamID: "ABCDE12345", apsEnvironment: aps,
                backgroundModes: backgroundModes, firebaseAppDelegateProxyEnabled: proxyEnabled),
            profile: profile, delegate: delegate, categories: categories, serviceExtension: serviceExtension,
            contentExtensions: contentExtensions, firebase: firebase, navigation: navigation)
    }

    static func device(seed: UInt64 = 42, rules: DeviceRules = DeviceRules()) -> (SimulatedDevice, ManualClock) {
        let clock = ManualClock(start: start)
        return (SimulatedDevice(name: "Test iPhone", udid: udid, seed: seed, clock: clock, rules: rules), clock)
    }

    /// A device with `app` installed, registered, authorized as given, and put in `state`.
    static func ready(
        _ app: AppDeclaration = app(), state: AppState, settings: NotificationSettings = .authorized,
        rules: DeviceRules = DeviceRules()
    ) -> (SimulatedDevice, ManualClock) {
        let (d, clock) = device(rules: rules)
        precondition(d.install(app).isEmpty)
        d.setNotificationSettings(settings, for: app.bundleID)
        d.registerForRemoteNotifications(app.bundleID)
        put(d, app.bundleID, in: state)
        return (d, clock)
    }

    static func put(_ d: SimulatedDevice, _ bundleID: String, in state: AppState) {
        switch state {
        case .foreground: d.launch(bundleID)
        case .background:
            d.launch(bundleID)
            d.moveToBackground(bundleID)
        case .suspended:
            d.launch(bundleID)
            d.moveToBackground(bundleID)
            d.suspend(bundleID)
        case .notRunning: break
        case .forceQuit:
            d.launch(bundleID)
            d.forceQuit(bundleID)
        }
    }

    static func json(_ s: String) -> JSONValue { try! JSONValue.parse(s) }

    static let alertPayload = json(
        #"{"aps":{"alert":{"title":"Hello","body":"World"},"sound":"default"},"gcm.message_id":"1600000000000001","test":"aaa"}"#
    )
    static let backgroundPayload = json(#"{"aps":{"content-available":1},"sync":"42"}"#)
    static let alertAndBackgroundPayload = json(
        #"{"aps":{"alert":{"title":"Both","body":"B"},"content-available":1},"k":"v"}"#)

    static func push(_ payload: JSONValue, id: String = "p1", collapseID: String? = nil) -> IncomingPush {
        IncomingPush(bundleID: bundleID, payload: payload, collapseID: collapseID, apnsID: id)
    }

    static func callbacks(_ events: [DeviceEvent]) -> [String] {
        events.compactMap { if case .callback(let c) = $0.kind { return c.name } else { return nil } }
    }

    static func drops(_ events: [DeviceEvent]) -> [DropReason] {
        events.compactMap { if case .pushDropped(_, let r) = $0.kind { return r } else { return nil } }
    }

    static func presented(_ events: [DeviceEvent]) -> [Presentation] {
        events.compactMap { if case .notificationPresented(_, _, let p) = $0.kind { return p } else { return nil } }
    }

    static func navigation(_ events: [DeviceEvent]) -> [NavigationEvent] {
        events.compactMap { if case .navigation(let n) = $0.kind { return n } else { return nil } }
    }

    static func state(_ d: SimulatedDevice) -> AppState? { d.snapshot.apps[bundleID]?.state }
}
