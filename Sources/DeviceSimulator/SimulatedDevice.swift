import Foundation
import Provisioning
import PushModel
import Synchronization

/// Told when the device's tokens change, so the APNs gateway's token registry follows: the lead's
/// wiring adapts `APNsGateway` to it. Called outside the device's lock, after the change.
package protocol DeviceRegistrationSink: Sendable {
    /// A token was issued (or re-issued) for `bundleID` in `environment`.
    func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment)
    /// The app was uninstalled: the token is no longer valid from `date`.
    func tokenInvalidated(_ token: DeviceToken, at date: Date)
    /// A token of another kind than the APNs device token was issued for `bundleID` (PushKit VoIP, …).
    func pushTokenRegistered(_ token: DeviceToken, kind: PushTokenKind, bundleID: String, environment: APNsEnvironment)
    /// The app holding that token was uninstalled: it is no longer valid from `date`.
    func pushTokenInvalidated(_ token: DeviceToken, kind: PushTokenKind, at date: Date)
    /// The device went on- or offline; `tokens` are all its current tokens.
    func deviceOnlineChanged(tokens: [DeviceToken], online: Bool)
    /// The app's Firebase SDK registered and got `registration.fcmToken`; `registration.apnsToken` is nil when
    /// the APNs token did not reach Firebase (swizzling off and not forwarded).
    func fcmTokenIssued(_ registration: FCMRegistration)
    /// The app holding `fcmToken` was uninstalled: the instance is gone from `date`.
    func fcmTokenInvalidated(_ fcmToken: String, at date: Date)
    /// ActivityKit reported a token or a channel subscription, or an activity went away (SimulatedDevice+LiveActivity).
    func liveActivityAddressChanged(_ change: LiveActivityAddressChange)
}

extension DeviceRegistrationSink {
    /// Sinks that only follow APNs tokens (an APNs gateway) ignore Firebase.
    package func fcmTokenIssued(_ registration: FCMRegistration) {}
    package func fcmTokenInvalidated(_ fcmToken: String, at date: Date) {}
    /// Sinks that only follow the APNs device token ignore the other kinds.
    package func pushTokenRegistered(
        _ token: DeviceToken, kind: PushTokenKind, bundleID: String, environment: APNsEnvironment
    ) {}
    package func pushTokenInvalidated(_ token: DeviceToken, kind: PushTokenKind, at date: Date) {}
}

/// A simulated iPhone, safe to share between the gateway's loop and a scenario runner.
///
/// All behaviour lives in `DeviceState` (a value, no I/O); this class holds it behind a `Mutex`,
/// stamps every operation with the injected clock, returns the events each operation added, and
/// tells registration sinks about token changes once the lock is released.
package final class SimulatedDevice: Sendable {
    private let core: PhoneCore<DeviceState>
    private let sinks = Mutex<[any DeviceRegistrationSink]>([])
    /// Where ActivityKit checks a broadcast channel (`useBroadcastChannels`).
    let broadcastChannels = Mutex<BroadcastChannelLookup>(.unwired)
    /// The clock events are stamped with.
    package var clock: any PushClock { core.clock }

    /// - Parameters:
    ///   - seed: makes tokens reproducible; the same seed and inputs give the same tokens and log.
    package init(
        name: String, udid: String, iosVersion: String = "17.5", seed: UInt64, clock: any PushClock,
        rules: DeviceRules = DeviceRules()
    ) {
        core = PhoneCore(
            DeviceState(name: name, udid: udid, iosVersion: iosVersion, seed: seed, rules: rules), clock: clock)
    }

    /// Adds a sink for token registrations, invalidations and online changes.
    package func addRegistrationSink(_ sink: any DeviceRegistrationSink) { sinks.withLock { $0.append(sink) } }

    /// ActivityKit checks the channels activities subscribe to with `lookup` from now on (the gateway's channel
    /// store); without one, every channel id is taken to exist.
    package func useBroadcastChannels(_ lookup: BroadcastChannelLookup) { broadcastChannels.withLock { $0 = lookup } }

    /// Apps using Firebase get their FCM tokens from `service` from now on (without one, the device issues them
    /// itself, seeded, as an offline stand-in for Firebase).
    package func useFirebaseService(_ service: any FirebaseTokenService) { core.useTokenService(service) }

    /// Runs `body` on the state with the current time; returns its result and the events it added (the SDK's
    /// registrations with Firebase included: each answer is applied as a step of its own, as the SDK's token
    /// callback arrives after the APNs one). Every operation of this class goes through here.
    @discardableResult
    package func perform<T, E: Error>(_ body: (inout DeviceState, Date) throws(E) -> T) throws(E)
        -> (result: T, events: [DeviceEvent])
    {
        try core.perform(body, notify: notify, answered: { _, _ in })
    }

    private func notify(_ events: [DeviceEvent], currentTokens: [DeviceToken]) {
        let targets = sinks.withLock { $0 }
        guard !targets.isEmpty else { return }
        for e in events {
            switch e.kind {
            case .registered(let token, let env):
                for t in targets {
                    t.tokenRegistered(token, bundleID: e.bundleID ?? "", environment: env.apnsEnvironment)
                }
            case .uninstalled(let token):
                if let token { for t in targets { t.tokenInvalidated(token, at: e.at) } }
                // The app is gone from the state; its last FCM token is in the event log.
                if let bundle = e.bundleID, let fcm = core.read({ $0.previousFCMToken(of: bundle) }) {
                    for t in targets { t.fcmTokenInvalidated(fcm, at: e.at) }
                }
            case .pushTokenIssued(let kind, let token, let env):
                for t in targets {
                    t.pushTokenRegistered(
                        token, kind: kind, bundleID: e.bundleID ?? "", environment: env.apnsEnvironment)
                }
            case .pushTokenInvalidated(let kind, let token):
                for t in targets { t.pushTokenInvalidated(token, kind: kind, at: e.at) }
            case .fcmTokenIssued(let fcm, _):
                guard let registration = fcmRegistrations.first(where: { $0.fcmToken == fcm }) else { break }
                for t in targets { t.fcmTokenIssued(registration) }
            case .offlineChanged(let online):
                for t in targets { t.deviceOnlineChanged(tokens: currentTokens, online: online) }
            case .activity(let a):
                guard let change = liveActivityAddressChange(a, bundleID: e.bundleID) else { break }
                for t in targets { t.liveActivityAddressChanged(change) }
            default:
                break
            }
        }
    }

    private func run(_ body: (inout DeviceState, Date) -> Void) -> [DeviceEvent] { perform(body).events }

    /// A copy of the whole state (apps, notification center, event log).
    package var snapshot: DeviceState { core.snapshot }

    /// Replaces the whole state with one taken earlier by `snapshot` (a harness's reset to launch state).
    package func restore(_ saved: DeviceState) { core.restore(saved) }
    /// The ordered event log.
    package var events: [DeviceEvent] { core.read(\.events) }
    package var udid: String { core.read(\.udid) }

    /// Installs an app (provisioning install checks); returns the findings that refused it (empty = installed).
    @discardableResult
    package func install(_ app: AppDeclaration) -> [ProvisioningFinding] { perform { $0.install(app, now: $1) }.result }

    /// Installs the app, answers its permission prompt with `app.authorization` and registers it for
    /// remote notifications: what a freshly installed app does on first launch, minus the launch.
    /// Returns the install findings (then nothing else happens) and the registration outcome.
    @discardableResult
    package func setUp(_ app: AppDeclaration) -> (
        installFindings: [ProvisioningFinding], registration: RegistrationCheck?
    ) {
        perform { (s: inout DeviceState, now: Date) -> ([ProvisioningFinding], RegistrationCheck?) in
            let findings = s.install(app, now: now)
            guard findings.isEmpty else { return (findings, nil) }
            s.setNotificationSettings(app.authorization, for: app.bundleID, now: now)
            return ([], s.registerForRemoteNotifications(app.bundleID, now: now))
        }.result
    }

    /// Removes the app; its token is invalidated.
    @discardableResult package func uninstall(_ bundleID: String) -> [DeviceEvent] {
        run { $0.uninstall(bundleID, now: $1) }
    }

    /// Registers the app for remote notifications; nil when the app is not installed.
    @discardableResult
    func registerForRemoteNotifications(_ bundleID: String) -> RegistrationCheck? {
        perform { $0.registerForRemoteNotifications(bundleID, now: $1) }.result
    }

    /// The app's current APNs token, its environment and the FCM registration, if any.
    package func registration(of bundleID: String) -> (
        token: DeviceToken?, environment: APSEnvironment?, fcmToken: String?, fcmMapped: Bool
    ) {
        core.read { s in
            let a = s.apps[bundleID]
            return (a?.token, a?.environment, a?.fcmToken, a?.fcmMappedToAPNs ?? false)
        }
    }

    /// Every FCM registration token issued on this device. `apnsToken` is nil when the APNs token never
    /// reached Firebase (swizzling off and not forwarded): the FCM gateway must not deliver to it.
    package var fcmRegistrations: [FCMRegistration] {
        core.read { s in
            s.apps.keys.sorted().compactMap { id -> FCMRegistration? in
                guard let a = s.apps[id], let fcm = a.fcmToken, let fb = a.declaration.firebase else { return nil }
                return FCMRegistration(
                    bundleID: id, fcmToken: fcm, senderID: fb.senderID, projectID: fb.projectID,
                    apnsToken: a.fcmMappedToAPNs ? a.token : nil, environment: a.environment)
            }
        }
    }

    /// For the FCM gateway: a message addressed to `fcmToken` could not go on to APNs because the APNs
    /// token never reached Firebase. Logs it on the owning app (so the suite sees why nothing arrived);
    /// returns false when no app on this device holds that FCM token.
    @discardableResult
    package func fcmMessageNotDelivered(fcmToken: String, messageID: String) -> Bool {
        perform { (s: inout DeviceState, now: Date) -> Bool in
            guard let id = s.apps.keys.sorted().first(where: { s.apps[$0]?.fcmToken == fcmToken }) else { return false }
            s.log(.pushDropped(apnsID: messageID, reason: .fcmTokenNotMapped), id, now)
            return true
        }.result
    }

    /// Entry point for the APNs gateway.
    @discardableResult
    package func deliver(_ push: IncomingPush) -> (disposition: DeviceDeliveryResult, events: [DeviceEvent]) {
        let r = perform { $0.deliver(push, now: $1) }
        return (r.result, r.events)
    }

    @discardableResult func setNotificationSettings(_ settings: NotificationSettings, for bundleID: String)
        -> [DeviceEvent]
    {
        run { $0.setNotificationSettings(settings, for: bundleID, now: $1) }
    }
    @discardableResult package func launch(_ bundleID: String) -> [DeviceEvent] {
        run { _ = $0.launch(bundleID, now: $1) }
    }
    @discardableResult func moveToBackground(_ bundleID: String) -> [DeviceEvent] {
        run { $0.moveToBackground(bundleID, now: $1) }
    }
    @discardableResult package func suspend(_ bundleID: String) -> [DeviceEvent] {
        run { $0.suspend(bundleID, now: $1) }
    }
    @discardableResult package func terminate(_ bundleID: String) -> [DeviceEvent] {
        run { $0.terminate(bundleID, now: $1) }
    }
    @discardableResult package func forceQuit(_ bundleID: String) -> [DeviceEvent] {
        run { $0.forceQuit(bundleID, now: $1) }
    }
    @discardableResult package func reboot() -> [DeviceEvent] { run { $0.reboot(now: $1) } }
    @discardableResult package func setOnline(_ online: Bool) -> [DeviceEvent] { run { $0.setOnline(online, now: $1) } }
    @discardableResult package func performQuickAction(_ bundleID: String, type: String) -> [DeviceEvent] {
        run { $0.performQuickAction(bundleID, type: type, now: $1) }
    }
    @discardableResult func pressBack(_ bundleID: String) -> [DeviceEvent] {
        run { $0.pressBack(bundleID, now: $1) }
    }
    @discardableResult package func answerAlert(_ bundleID: String, button: String) -> [DeviceEvent] {
        run { _ = $0.answerAlert(bundleID, button: button, now: $1) }
    }
    @discardableResult package func logIn(_ bundleID: String) -> [DeviceEvent] { run { $0.logIn(bundleID, now: $1) } }

    @discardableResult package func tap(_ notificationID: String) throws(InteractionError) -> [DeviceEvent] {
        try perform { (s, now) throws(InteractionError) in try s.tap(notificationID, now: now) }.events
    }
    @discardableResult package func chooseAction(_ actionID: String, on notificationID: String) throws(InteractionError)
        -> [DeviceEvent]
    {
        try perform { (s, now) throws(InteractionError) in try s.chooseAction(actionID, on: notificationID, now: now) }
            .events
    }
    @discardableResult package func dismiss(_ notificationID: String) throws(InteractionError) -> [DeviceEvent] {
        try perform { (s, now) throws(InteractionError) in try s.dismiss(notificationID, now: now) }.events
    }
}
