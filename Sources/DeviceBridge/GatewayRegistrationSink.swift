import APNsGateway
import DeviceSimulator
import Foundation
import PushModel

/// Makes the world follow one simulated device's tokens: what the device registers becomes a registered token at
/// the APNs gateway (topic = bundle id, environment from `aps-environment`) and an entry of the fleet's
/// `TokenIndex` (which device and app hold it); an uninstall marks the token unregistered from that moment
/// (410 Unregistered) and drops it from the index. The device's reachability stays the device's: the gateway is
/// told to ask it at each hand-off (`followRecipientReachability`), and to hand over what it kept when the device
/// comes back online.
///
/// The device calls it outside its own lock, after the change, so reading the device from here is safe.
package struct GatewayRegistrationSink: DeviceRegistrationSink {
    /// The gateway whose token registry follows the device.
    package let apns: APNsGateway
    /// Where the fleet looks up who holds a token.
    package let index: TokenIndex
    /// The device's declared name (the holder the index records).
    package let device: String
    /// Whether the device is online now (pushes kept for a token registered while online are handed over).
    let isDeviceOnline: @Sendable () -> Bool

    /// - Parameter isDeviceOnline: asked when a token is registered; the device's current online state.
    package init(
        apns: APNsGateway, index: TokenIndex, device: String, isDeviceOnline: @escaping @Sendable () -> Bool
    ) {
        self.apns = apns
        self.index = index
        self.device = device
        self.isDeviceOnline = isDeviceOnline
    }

    package func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment) {
        apns.registerToken(
            RegisteredDeviceToken(token: token, topic: bundleID, environment: environment, kind: .apns))
        index.register(.apns(token), holder: TokenHolder(device: device, bundleID: bundleID, kind: .apns))
        apns.followRecipientReachability(of: token)
        if isDeviceOnline() { apns.recipientCameOnline(token) }
    }

    package func tokenInvalidated(_ token: DeviceToken, at date: Date) {
        apns.unregisterToken(token, at: date)
        index.remove(.apns(token))
    }

    package func pushTokenRegistered(
        _ token: DeviceToken, kind: PushTokenKind, bundleID: String, environment: APNsEnvironment
    ) {
        apns.registerToken(RegisteredDeviceToken(token: token, topic: bundleID, environment: environment, kind: kind))
        index.register(.token(token, kind: kind), holder: TokenHolder(device: device, bundleID: bundleID, kind: kind))
        apns.followRecipientReachability(of: token)
        if isDeviceOnline() { apns.recipientCameOnline(token) }
    }

    package func pushTokenInvalidated(_ token: DeviceToken, kind: PushTokenKind, at date: Date) {
        apns.unregisterToken(token, at: date)
        index.remove(.token(token, kind: kind))
    }

    package func deviceOnlineChanged(tokens: [DeviceToken], online: Bool) {
        // Offline: nothing to tell; the device answers each hand-off itself.
        guard online else { return }
        for token in tokens { apns.recipientCameOnline(token) }
    }
}
