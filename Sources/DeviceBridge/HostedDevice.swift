import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import Synchronization

/// A simulated iPhone living behind an APNs gateway: it receives what the gateway delivers to its own
/// tokens and keeps the gateway's registry in step with its apps (see `GatewayRegistrationSink`).
///
/// Thread-safety: deliveries arrive on the gateway's event-loop threads while scripts or a runner act
/// on the device from elsewhere; every device operation goes through `SimulatedDevice`, whose state
/// sits behind a `Mutex`, and this class keeps only immutable references plus a `Mutex`-guarded count.
package final class HostedDevice: PushDeliveryConsumer, Sendable {
    /// The name it was declared with (the key of the ready line's `devices` and of `/devices/{name}`).
    package let name: String
    /// The simulated device itself: act on it (`apply(_:)`, `launch`, …) and read its `events`.
    package let device: SimulatedDevice
    /// The gateway it is attached to.
    package let gateway: APNsGateway
    /// The world's mock Firebase, when it has one: the apps' Firebase instances are registered there.
    package let fcm: FCMGateway?
    /// What it was built from (nil for a device built in code and attached with `init(name:device:gateway:)`).
    package let declaration: DeviceDeclaration?
    private let delivered = Mutex<Int>(0)
    /// The device as it was once set up (`resetToLaunchState()` goes back to it).
    private let launchState: Mutex<DeviceState?> = Mutex(nil)

    /// Wraps `device` and attaches it to `gateway`: adds itself as a delivery consumer and a
    /// `GatewayRegistrationSink` to the device (and an `FCMRegistrationSink` when `fcm` is given). Tokens the
    /// device already holds are registered now.
    package convenience init(name: String, device: SimulatedDevice, gateway: APNsGateway, fcm: FCMGateway? = nil) {
        self.init(name: name, device: device, gateway: gateway, fcm: fcm, declaration: nil)
    }

    private init(
        name: String, device: SimulatedDevice, gateway: APNsGateway, fcm: FCMGateway?, declaration: DeviceDeclaration?
    ) {
        self.name = name
        self.device = device
        self.gateway = gateway
        self.fcm = fcm
        self.declaration = declaration
        if let fcm {
            device.useFirebaseService(FCMTokenService(gateway: fcm))
            device.addRegistrationSink(FCMRegistrationSink(gateway: fcm))
        }
        // Weak: the device holds the sink, so a strong capture would keep the device alive forever.
        let sink = GatewayRegistrationSink(
            gateway: gateway, isDeviceOnline: { [weak device] in device?.snapshot.online ?? false })
        device.addRegistrationSink(sink)
        gateway.addConsumer(self)
        syncRegistrations()
    }

    /// Builds the device a declaration describes and sets up its apps (install, permission answer,
    /// registration) with the gateway attached first, so every token it gets is registered there.
    /// - Parameter seedSalt: XORed into the declared seed (e.g. a per-run seed); 0 keeps it.
    package convenience init(
        _ declaration: DeviceDeclaration, apps: [AppDeclaration], gateway: APNsGateway, fcm: FCMGateway? = nil,
        clock: any PushClock, seedSalt: UInt64 = 0
    ) {
        let device = declaration.makeBareDevice(clock: clock, seedSalt: seedSalt)
        self.init(name: declaration.name, device: device, gateway: gateway, fcm: fcm, declaration: declaration)
        declaration.setUp(device, apps: apps)
        launchState.withLock { $0 = device.snapshot }
    }

    /// Puts the device back as it was when it was set up (apps, tokens, notification center, event log) and
    /// registers its tokens with the gateway again; a device built without a declaration only re-registers.
    package func resetToLaunchState() {
        if let saved = launchState.withLock({ $0 }) { device.restore(saved) }
        delivered.withLock { $0 = 0 }
        syncRegistrations()
    }

    /// Hands a push the gateway accepted to the app holding `push.token`; pushes for other devices'
    /// tokens (or for a token this device no longer holds) are ignored.
    package func deliver(_ push: DeliveredPush) {
        let bundleID = APNsPushType.bundleID(ofTopic: push.topic)
        guard device.registration(of: bundleID).token == push.token else { return }
        delivered.withLock { $0 += 1 }
        device.deliver(
            IncomingPush(
                topic: push.topic, token: push.token, json: push.json, pushType: push.pushType,
                priority: push.priority, collapseID: push.collapseID, apnsID: push.apnsID))
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

    /// Registers every token the device holds with the gateway again, with its online state (and every
    /// Firebase instance with the FCM gateway): after `APNsGateway.reset()` / `FCMGateway.reset()` (which
    /// return the registries to the configuration) or when attaching a device that registered before it was hosted.
    package func syncRegistrations() {
        if let fcm {
            for r in device.fcmRegistrations { fcm.registerInstance(FCMRegistrationSink.instance(r)) }
        }
        let state = device.snapshot
        for id in state.apps.keys.sorted() {
            guard let app = state.apps[id], let token = app.token else { continue }
            gateway.registerToken(
                RegisteredDeviceToken(
                    token: token, topic: id, environment: app.environment?.apnsEnvironment ?? .sandbox))
            gateway.setDeviceOnline(token, state.online)
        }
    }
}
