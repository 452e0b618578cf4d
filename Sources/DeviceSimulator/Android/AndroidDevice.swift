import Foundation
import PushModel
import Synchronization

/// What an Android app's Firebase SDK sends when it registers: its sender, app id and installation. The world's
/// mock FCM answers with the registration token it issues (`FCMGateway.issueAndroidInstanceToken` in Part B's
/// fleet), as Firebase's registration server does.
package struct AndroidTokenRequest: Sendable, Equatable {
    package var packageName: String
    package var senderID: String
    package var projectID: String
    /// `mobilesdk_app_id`.
    package var appID: String
    /// The Firebase installation ID (22 characters, seeded per device, app and install).
    package var installationID: String
}

/// Firebase's token registration as an Android app's SDK sees it.
package protocol AndroidTokenService: Sendable {
    /// Called outside the device's lock, after the app's process started for the first time since install.
    func fcmToken(for request: AndroidTokenRequest) -> Result<String, FirebaseTokenRefusal>
}

/// Told when the Android device's tokens or connectivity change (the fleet keeps FCM's registry and its token
/// index in step). Called outside the device's lock, after the change.
package protocol AndroidRegistrationSink: Sendable {
    func androidTokenIssued(_ token: String, request: AndroidTokenRequest)
    /// Uninstall or clear data: the token is UNREGISTERED from `date`.
    func androidTokenInvalidated(_ token: String, at date: Date)
    func androidDeviceOnlineChanged(tokens: [String], online: Bool)
}

/// A simulated Android phone, safe to share between the gateway's loop and a scenario runner: the behaviour is in
/// `AndroidDeviceState` (a value, no I/O); this class holds it behind a `Mutex`, stamps every operation with the
/// injected clock (first releasing what the clock's advance made due: Doze windows), returns the events each
/// operation added, and talks to the token service and the sinks outside the lock.
package final class AndroidDevice: Sendable {
    private let core: PhoneCore<AndroidDeviceState>
    private let sinks = Mutex<[any AndroidRegistrationSink]>([])
    package var clock: any PushClock { core.clock }

    package init(
        name: String, serial: String, apiLevel: Int = 34, seed: UInt64, clock: any PushClock,
        rules: AndroidRules = AndroidRules()
    ) {
        core = PhoneCore(
            AndroidDeviceState(
                name: name, serial: serial, apiLevel: apiLevel, seed: seed, bootedAt: clock.now(), rules: rules),
            clock: clock)
    }

    package func addRegistrationSink(_ sink: any AndroidRegistrationSink) { sinks.withLock { $0.append(sink) } }

    /// Tokens come from `service` from now on (without one the device issues seeded tokens itself).
    package func useTokenService(_ service: any AndroidTokenService) { core.useTokenService(service) }

    /// Runs `body` on the state at the current time; returns its result and the events it added (token answers
    /// included, each applied as a step of its own; the sinks hear of each token issued after it is applied).
    @discardableResult
    package func perform<T, E: Error>(_ body: (inout AndroidDeviceState, Date) throws(E) -> T) throws(E)
        -> (result: T, events: [AndroidDeviceEvent])
    {
        try core.perform(body, notify: notify) { request, answer in
            guard case .success(let token) = answer else { return }
            for s in sinks.withLock({ $0 }) { s.androidTokenIssued(token, request: request.request) }
        }
    }

    private func notify(_ events: [AndroidDeviceEvent], tokens: [String]) {
        let targets = sinks.withLock { $0 }
        guard !targets.isEmpty else { return }
        for e in events {
            switch e.kind {
            case .uninstalled(let token?), .dataCleared(let token?):
                for t in targets { t.androidTokenInvalidated(token, at: e.at) }
            case .offlineChanged(let online):
                for t in targets { t.androidDeviceOnlineChanged(tokens: tokens, online: online) }
            default: break
            }
        }
    }

    private func run(_ body: (inout AndroidDeviceState, Date) -> Void) -> [AndroidDeviceEvent] { perform(body).events }

    /// A copy of the whole state.
    package var snapshot: AndroidDeviceState { core.snapshot }
    package func restore(_ saved: AndroidDeviceState) { core.restore(saved) }
    package var events: [AndroidDeviceEvent] { core.read(\.events) }

    /// Installs the app, launches it once (its process starts: channels, token) and goes Home: what a user does
    /// after installing from the store. The app ends in the background with its token (when Firebase answered).
    @discardableResult
    package func setUp(_ app: AndroidAppDeclaration) -> [AndroidDeviceEvent] {
        var events = run { $0.install(app, now: $1) }
        events +=
            (try? perform { (s, now) throws(AndroidInteractionError) in try s.launch(app.packageName, now: now) }.events)
            ?? []
        events += run { $0.goHome(app.packageName, now: $1) }
        return events
    }

    @discardableResult package func install(_ app: AndroidAppDeclaration) -> [AndroidDeviceEvent] {
        run { $0.install(app, now: $1) }
    }
    @discardableResult package func uninstall(_ pkg: String) -> [AndroidDeviceEvent] {
        run { $0.uninstall(pkg, now: $1) }
    }
    @discardableResult package func clearData(_ pkg: String) -> [AndroidDeviceEvent] {
        run { $0.clearData(pkg, now: $1) }
    }
    /// Entry point for the fleet (Part B): one message from FCM.
    @discardableResult
    package func deliver(_ m: AndroidMessage) -> (result: AndroidDeliveryResult, events: [AndroidDeviceEvent]) {
        perform { $0.deliver(m, now: $1) }
    }
    @discardableResult package func launch(_ pkg: String) throws(AndroidInteractionError) -> [AndroidDeviceEvent] {
        try perform { (s, now) throws(AndroidInteractionError) in try s.launch(pkg, now: now) }.events
    }
    @discardableResult package func tap(_ id: String) throws(AndroidInteractionError) -> [AndroidDeviceEvent] {
        try perform { (s, now) throws(AndroidInteractionError) in try s.tap(id, now: now) }.events
    }
    @discardableResult package func dismiss(_ id: String) throws(AndroidInteractionError) -> [AndroidDeviceEvent] {
        try perform { (s, now) throws(AndroidInteractionError) in try s.dismiss(id, now: now) }.events
    }
    @discardableResult func goHome(_ pkg: String) -> [AndroidDeviceEvent] { run { $0.goHome(pkg, now: $1) } }
    @discardableResult package func kill(_ pkg: String) -> [AndroidDeviceEvent] { run { $0.kill(pkg, now: $1) } }
    @discardableResult package func forceStop(_ pkg: String) -> [AndroidDeviceEvent] {
        run { $0.forceStop(pkg, now: $1) }
    }
    @discardableResult func pressBack(_ pkg: String) -> [AndroidDeviceEvent] {
        run { $0.pressBack(pkg, now: $1) }
    }
    @discardableResult func setPermission(_ p: PostNotificationsState, for pkg: String) -> [AndroidDeviceEvent] {
        run { $0.setPermission(p, for: pkg, now: $1) }
    }
    @discardableResult package func setOnline(_ online: Bool) -> [AndroidDeviceEvent] {
        run { $0.setOnline(online, now: $1) }
    }
    @discardableResult func setDoze(_ on: Bool) -> [AndroidDeviceEvent] { run { $0.setDoze(on, now: $1) } }
    @discardableResult func setCharging(_ on: Bool) -> [AndroidDeviceEvent] {
        run { $0.setCharging(on, now: $1) }
    }
    @discardableResult package func lock() -> [AndroidDeviceEvent] { run { $0.lock(now: $1) } }
    @discardableResult func unlock() -> [AndroidDeviceEvent] { run { $0.unlock(now: $1) } }
    @discardableResult package func reboot() -> [AndroidDeviceEvent] { run { $0.reboot(now: $1) } }
    @discardableResult func openDeepLink(_ uri: String) -> [AndroidDeviceEvent] {
        run { _ = $0.openDeepLink(uri, now: $1) }
    }
    /// Nothing but the clock: what a suite's `wait:` does (Doze windows that opened deliver).
    @discardableResult package func advanceTime() -> [AndroidDeviceEvent] { run { _, _ in } }
}

extension AndroidDeviceState: PhoneState {
    typealias TokenService = any AndroidTokenService

    /// Every app's FCM token, sorted.
    var currentTokens: [String] { apps.values.compactMap(\.fcmToken).sorted() }

    static func reportsTokens(_ event: AndroidDeviceEvent) -> Bool {
        if case .offlineChanged = event.kind { true } else { false }
    }

    /// The token registrations waiting for the service, with the install generation they are for.
    mutating func takeTokenRequests() -> [(request: AndroidTokenRequest, generation: Int)] {
        guard !pendingTokenRequests.isEmpty else { return [] }
        let pkgs = pendingTokenRequests
        pendingTokenRequests = []
        return pkgs.compactMap { pkg in
            guard let app = apps[pkg], let fb = app.declaration.firebase, let fid = installationID(of: pkg) else {
                return nil
            }
            return (
                AndroidTokenRequest(
                    packageName: pkg, senderID: fb.senderID, projectID: fb.projectID, appID: fb.appID,
                    installationID: fid), app.generation
            )
        }
    }

    static func ask(_ service: any AndroidTokenService, for request: (request: AndroidTokenRequest, generation: Int))
        -> Result<String, FirebaseTokenRefusal>
    { service.fcmToken(for: request.request) }

    mutating func receiveTokenAnswer(
        _ request: (request: AndroidTokenRequest, generation: Int), _ answer: Result<String, FirebaseTokenRefusal>,
        now: Date
    ) { receiveToken(request.request.packageName, generation: request.generation, answer, now) }
}
