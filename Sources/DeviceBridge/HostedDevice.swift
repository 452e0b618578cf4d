import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import Synchronization

/// A simulated iPhone living behind an APNs gateway, one of a `DeviceFleet`: it receives what the fleet hands it
/// for its tokens and keeps the gateway's registry and the fleet's `TokenIndex` in step with its apps (see
/// `GatewayRegistrationSink`).
///
/// Thread-safety: deliveries arrive on the gateway's event-loop threads while scripts or a runner act
/// on the device from elsewhere; every device operation goes through `SimulatedDevice`, whose state
/// sits behind a `Mutex`, and this class keeps only immutable references plus a `Mutex`-guarded count.
package final class HostedDevice: Sendable {
    /// The name it was declared with (the key of the ready line's `devices` and of `/devices/{name}`).
    package let name: String
    /// The simulated device itself: act on it (`apply(_:)`, `launch`, …) and read its `events`.
    package let device: SimulatedDevice
    /// The APNs gateway its tokens are registered with.
    package let apns: APNsGateway
    /// The world's mock Firebase, when it has one: the apps' Firebase instances are registered there.
    package let fcm: FCMGateway?
    /// What it was built from (always set; optional in the type for readers that predate the index).
    package let declaration: DeviceDeclaration?
    /// Keeps the gateway and the fleet's index following the device's tokens.
    let registrations: GatewayRegistrationSink
    private let delivered = Mutex<Int>(0)
    /// The device as it was once set up (`resetToLaunchState()` goes back to it).
    private let launchState: Mutex<DeviceState?> = Mutex(nil)

    /// Builds the device a declaration describes and sets up its apps (install, permission answer,
    /// registration) with the sinks attached first, so every token it gets is registered with `apns` and `index`
    /// (and every Firebase instance with `fcm`).
    /// - Parameter seedSalt: XORed into the declared seed (e.g. a per-run seed); 0 keeps it.
    init(
        _ declaration: DeviceDeclaration, apps: [AppDeclaration], apns: APNsGateway, fcm: FCMGateway?,
        index: TokenIndex, clock: any PushClock, seedSalt: UInt64
    ) {
        let device = declaration.makeBareDevice(clock: clock, seedSalt: seedSalt)
        name = declaration.name
        self.device = device
        self.apns = apns
        self.fcm = fcm
        self.declaration = declaration
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
        declaration.setUp(device, apps: apps)
        launchState.withLock { $0 = device.snapshot }
    }

    /// Puts the device back as it was when it was set up (apps, tokens, notification center, event log) and
    /// registers its tokens with the gateway and the index again.
    package func resetToLaunchState() {
        if let saved = launchState.withLock({ $0 }) { device.restore(saved) }
        delivered.withLock { $0 = 0 }
        syncRegistrations()
    }

    /// Hands a push for the token the fleet's index says `bundleID` of this device holds. `.deviceOffline`: the
    /// device did not receive it (the gateway keeps it).
    func receive(_ push: DeliveredPush) -> DeviceDeliveryResult {
        let (result, _) = device.deliver(
            IncomingPush(
                topic: push.topic, token: push.token, json: push.json, pushType: push.pushType,
                priority: push.priority, collapseID: push.collapseID, apnsID: push.apnsID))
        if result != .deviceOffline { delivered.withLock { $0 += 1 } }
        return result
    }

    /// The device's events after `since` (a `DeviceEvent.sequence`; 0 = all), oldest first.
    package func events(since: Int) -> [DeviceEvent] { device.events.filter { $0.sequence > since } }

    /// How many gateway pushes were handed to this device.
    package var deliveredCount: Int { delivered.withLock { $0 } }

    /// The apps' current APNs tokens by bundle id (apps that are not registered are absent).
    package var tokens: [String: DeviceToken] {
        var out: [String: DeviceToken] = [:]
        for (id, app) in device.snapshot.apps { if let t = app.token { out[id] = t } }
        return out
    }

    /// The apps' FCM registration tokens by bundle id (apps using Firebase that registered).
    package var fcmTokens: [String: String] {
        var out: [String: String] = [:]
        for r in device.fcmRegistrations { out[r.bundleID] = r.fcmToken }
        return out
    }

    /// Registers every token the device holds with the gateway and the index again (and every Firebase instance
    /// with the FCM gateway): after `APNsGateway.reset()` / `FCMGateway.reset()` (which return the registries to
    /// the configuration) or after the device was restored to its launch state.
    package func syncRegistrations() {
        if let fcm {
            for r in device.fcmRegistrations { fcm.registerInstance(FCMRegistrationSink.instance(r)) }
        }
        registrations.index.removeAll(device: name)
        let state = device.snapshot
        for id in state.apps.keys.sorted() {
            guard let app = state.apps[id], let token = app.token else { continue }
            registrations.tokenRegistered(
                token, bundleID: id, environment: app.environment?.apnsEnvironment ?? .sandbox)
        }
        LiveActivitySink(apns: apns, index: registrations.index, name: name, device: device).sync(state)
    }
}
