import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import Synchronization

/// The phone a hosted device is: the iPhone engine or the Android engine. Everything both share is on
/// `HostedDevice` (actions, events, snapshot JSON, addresses, reset); code that needs one platform's own state
/// (an `expect:` reading the iPhone's Notification Center or the Android tray) switches here, once.
package enum DeviceEngine: Sendable {
    case iphone(SimulatedDevice)
    case android(AndroidDevice)
}

/// A simulated phone living behind the world's gateways, one of a `DeviceFleet`: it receives what the fleet hands
/// it for its tokens (APNs pushes for an iPhone, FCM messages for an Android phone) and keeps the gateways'
/// registries and the fleet's `TokenIndex` in step with its apps (`GatewayRegistrationSink`,
/// `AndroidFleetSink`).
///
/// Thread-safety: deliveries arrive on the gateway's event-loop threads while scripts or a runner act
/// on the device from elsewhere; every device operation goes through the engine, whose state
/// sits behind a `Mutex`, and this class keeps only immutable references plus `Mutex`-guarded values.
package final class HostedDevice: Sendable {
    /// The name it was declared with (the key of the ready line's `devices` and of `/devices/{name}`).
    package let name: String
    /// The phone itself.
    package let engine: DeviceEngine
    /// The APNs gateway its tokens are registered with.
    package let apns: APNsGateway
    /// The world's mock Firebase, when it has one: the apps' Firebase instances are registered there.
    package let fcm: FCMGateway?
    /// What it was built from (always set; optional in the type for readers that predate the index).
    package let declaration: DeviceDeclaration?
    /// Keeps the APNs gateway and the fleet's index following an iPhone's tokens (an Android phone registers
    /// nothing with APNs: it is kept for its `index`).
    let registrations: GatewayRegistrationSink
    /// Keeps the FCM gateway and the fleet's index following an Android phone's FCM tokens.
    let androidSink: AndroidFleetSink?
    private let delivered = Mutex<Int>(0)
    /// The device as it was once set up (`resetToLaunchState()` goes back to it).
    private let launchState: Mutex<DeviceState?> = Mutex(nil)
    private let androidLaunchState: Mutex<AndroidDeviceState?> = Mutex(nil)

    /// The iPhone engine (nil for an Android phone).
    package var iphone: SimulatedDevice? { if case .iphone(let d) = engine { d } else { nil } }
    /// The Android engine (nil for an iPhone).
    package var android: AndroidDevice? { if case .android(let d) = engine { d } else { nil } }
    package var platform: DevicePlatform { android == nil ? .ios : .android }

    /// Builds the device a declaration describes and sets up its apps (install, permission answer,
    /// registration) with the sinks attached first, so every token it gets is registered with `apns` and `index`
    /// (and every Firebase instance with `fcm`). An Android device's apps are `androidApps`; its tokens come from
    /// `fcm` (`FCMGateway.issueAndroidInstanceToken`).
    /// - Parameter seedSalt: XORed into the declared seed (e.g. a per-run seed); 0 keeps it.
    init(
        _ declaration: DeviceDeclaration, apps: [AppDeclaration], androidApps: [AndroidAppDeclaration] = [],
        apns: APNsGateway, fcm: FCMGateway?, index: TokenIndex, clock: any PushClock, seedSalt: UInt64
    ) {
        name = declaration.name
        self.apns = apns
        self.fcm = fcm
        self.declaration = declaration
        if declaration.platform == .android {
            var rules = AndroidRules()
            rules.eventLogLimit = declaration.rules.eventLogLimit  // `event_log_limit:`, read for either platform
            let device = AndroidDevice(
                name: declaration.name, serial: declaration.udid, apiLevel: declaration.apiLevel,
                seed: declaration.seed ^ seedSalt, clock: clock, rules: rules)
            engine = .android(device)
            registrations = GatewayRegistrationSink(apns: apns, index: index, device: name, isDeviceOnline: { false })
            let sink = AndroidFleetSink(fcm: fcm, index: index, device: declaration.name)
            androidSink = sink
            if let fcm { device.useTokenService(FCMTokenService(fcm: fcm)) }
            device.addRegistrationSink(sink)
            for id in declaration.apps {
                if let app = androidApps.first(where: { $0.packageName == id }) { device.setUp(app) }
            }
            if !declaration.online { device.setOnline(false) }
            androidLaunchState.withLock { $0 = device.snapshot }
            return
        }
        androidSink = nil
        let device = declaration.makeBareDevice(clock: clock, seedSalt: seedSalt)
        engine = .iphone(device)
        if let fcm {
            device.useFirebaseService(FCMTokenService(fcm: fcm))
            device.addRegistrationSink(FCMRegistrationSink(fcm: fcm))
        }
        // Weak: the device holds the sink, so a strong capture would keep the device alive forever.
        registrations = GatewayRegistrationSink(
            apns: apns, index: index, device: declaration.name,
            isDeviceOnline: { [weak device] in device?.snapshot.online ?? false })
        device.addRegistrationSink(registrations)
        device.addRegistrationSink(LiveActivitySink(apns: apns, index: index, name: declaration.name, device: device))
        device.useBroadcastChannels(LiveActivitySink.channelLookup(apns))
        declaration.setUp(device, apps: apps)
        launchState.withLock { $0 = device.snapshot }
    }

    /// Puts the device back as it was when it was set up (apps, tokens, notification center, event log) and
    /// registers its tokens with the gateway and the index again.
    func resetToLaunchState() {
        if let saved = launchState.withLock({ $0 }) { iphone?.restore(saved) }
        if let saved = androidLaunchState.withLock({ $0 }) { android?.restore(saved) }
        delivered.withLock { $0 = 0 }
        syncRegistrations()
    }

    /// Hands a push for the token the fleet's index says `bundleID` of this device holds. `.deviceOffline`: the
    /// device did not receive it (the gateway keeps it).
    func receive(_ push: DeliveredPush) -> DeviceDeliveryResult {
        guard let device = iphone else { return .deviceOffline }
        let (result, _) = device.deliver(
            IncomingPush(
                topic: push.topic, token: push.token, json: push.json, pushType: push.pushType,
                priority: push.priority, collapseID: push.collapseID, apnsID: push.apnsID))
        if result != .deviceOffline { delivered.withLock { $0 += 1 } }
        return result
    }

    /// The device's events after `since` (a `DeviceEvent.sequence`; 0 = all), oldest first.
    package func events(since: Int) -> [DeviceEvent] {
        (iphone?.events ?? []).filter { $0.sequence > since }
    }

    /// Hands an FCM message for an Android instance this device holds; counts it when the SDK got it.
    func receive(_ message: AndroidMessage) -> AndroidDeliveryResult {
        guard let device = android else { return .rejected(.appNotInstalled) }
        let result = device.deliver(message).result
        if result == .delivered { delivered.withLock { $0 += 1 } }
        return result
    }

    /// How many gateway pushes were handed to this device.
    var deliveredCount: Int { delivered.withLock { $0 } }

    /// The apps' current APNs tokens by bundle id (apps that are not registered are absent).
    package var tokens: [String: DeviceToken] {
        var out: [String: DeviceToken] = [:]
        for (id, app) in iphone?.snapshot.apps ?? [:] { if let t = app.token { out[id] = t } }
        return out
    }

    /// The apps' tokens of other kinds than the APNs device token (PushKit VoIP, …) by bundle id and kind.
    package var pushTokens: [String: [PushTokenKind: DeviceToken]] {
        (iphone?.snapshot.apps ?? [:]).compactMapValues { $0.pushTokens.isEmpty ? nil : $0.pushTokens }
    }

    /// `pushTokens` as JSON (`{"<bundle id>": {"voip": "<hex>", …}}`); nil when no app has one.
    var pushTokensJSON: JSONValue? {
        let all = pushTokens
        guard !all.isEmpty else { return nil }
        return .object(
            all.mapValues { kinds in
                .object(
                    Dictionary(uniqueKeysWithValues: kinds.map { ($0.key.rawValue, JSONValue.string($0.value.hex)) }))
            })
    }

    /// The apps' FCM registration tokens by bundle id (apps using Firebase that registered).
    var fcmTokens: [String: String] {
        var out: [String: String] = [:]
        if let android {
            for (pkg, app) in android.snapshot.apps { if let t = app.fcmToken { out[pkg] = t } }
            return out
        }
        for r in iphone?.fcmRegistrations ?? [] { out[r.bundleID] = r.fcmToken }
        return out
    }

    /// Registers every token the device holds with the gateway and the index again (and every Firebase instance
    /// with the FCM gateway): after `APNsGateway.reset()` / `FCMGateway.reset()` (which return the registries to
    /// the configuration) or after the device was restored to its launch state.
    func syncRegistrations() {
        registrations.index.removeAll(device: name)
        if let android {
            androidSink?.sync(android.snapshot)
            return
        }
        guard let device = iphone else { return }
        if let fcm {
            for r in device.fcmRegistrations { fcm.registerInstance(FCMRegistrationSink.instance(r)) }
        }
        let state = device.snapshot
        for id in state.apps.keys.sorted() {
            guard let app = state.apps[id], let token = app.token else { continue }
            let environment = app.environment?.apnsEnvironment ?? .sandbox
            registrations.tokenRegistered(token, bundleID: id, environment: environment)
            for kind in PushTokenKind.allCases {
                guard let t = app.pushTokens[kind] else { continue }
                registrations.pushTokenRegistered(t, kind: kind, bundleID: id, environment: environment)
            }
        }
        LiveActivitySink(apns: apns, index: registrations.index, name: name, device: device).sync(state)
    }
}
