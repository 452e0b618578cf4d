import APNsGateway
import DeviceSimulator
import Foundation
import PushModel

/// Makes an `APNsGateway` follow one simulated device's tokens: what the device registers becomes a
/// registered token (topic = bundle id, environment from `aps-environment`), an uninstall marks the
/// token unregistered from that moment (410 Unregistered), and the device going on- or offline
/// switches store-and-forward for its tokens, so pushes kept while offline are handed over on return.
///
/// The device calls it outside its own lock, after the change, so reading the device from here is safe.
package struct GatewayRegistrationSink: DeviceRegistrationSink {
    /// The gateway whose token registry and store-and-forward follow the device.
    package let gateway: APNsGateway
    /// Whether the device is online now (new tokens start in that state at the gateway).
    let isDeviceOnline: @Sendable () -> Bool

    /// - Parameter isDeviceOnline: asked when a token is registered; the device's current online state.
    package init(gateway: APNsGateway, isDeviceOnline: @escaping @Sendable () -> Bool) {
        self.gateway = gateway
        self.isDeviceOnline = isDeviceOnline
    }

    package func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment) {
        gateway.registerToken(RegisteredDeviceToken(token: token, topic: bundleID, environment: environment))
        gateway.setDeviceOnline(token, isDeviceOnline())
    }

    package func tokenInvalidated(_ token: DeviceToken, at date: Date) {
        gateway.unregisterToken(token, at: date)
    }

    package func deviceOnlineChanged(tokens: [DeviceToken], online: Bool) {
        for token in tokens { gateway.setDeviceOnline(token, online) }
    }
}
