import DeviceSimulator
import FCMGateway
import Foundation
import PushModel

/// Makes an `FCMGateway` follow one simulated device's Firebase instances, as Firebase's registration
/// service does for a real iPhone: when an app's Firebase SDK registers (its APNs token handed over by the
/// swizzled delegate, or forwarded by the app), the instance and its FCM token are recorded under the
/// project whose number is the app's sender ID, mapped to that APNs token; an instance whose APNs token
/// never reached Firebase is recorded without one (sends succeed, nothing arrives); an uninstall makes the
/// FCM token UNREGISTERED from then on.
///
/// The token's value is the device's own: its seeded derivation (`TokenGenerator.fcmToken`: `<installation
/// id>:APA91b…`, the same for the same seed, device, app and install) stands for the token Firebase issues for
/// that installation, so a suite's tokens stay reproducible; the gateway is the authority on whether it is
/// valid. Called outside the device's lock.
public struct FCMRegistrationSink: DeviceRegistrationSink {
    /// The gateway whose instance registry follows the device.
    public let gateway: FCMGateway

    public init(gateway: FCMGateway) { self.gateway = gateway }

    public func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment) {}
    public func tokenInvalidated(_ token: DeviceToken, at date: Date) {}
    public func deviceOnlineChanged(tokens: [DeviceToken], online: Bool) {}

    public func fcmTokenIssued(_ registration: FCMRegistration) {
        gateway.registerInstance(Self.instance(registration))
    }

    public func fcmTokenInvalidated(_ fcmToken: String, at date: Date) {
        gateway.unregisterToken(fcmToken)
    }

    /// The registration as Firebase records it; the installation id is the token's part before `:`.
    static func instance(_ r: FCMRegistration) -> FCMInstanceRegistration {
        let fid = r.fcmToken.split(separator: ":", maxSplits: 1).first.map(String.init)
        return FCMInstanceRegistration(
            token: r.fcmToken, senderID: r.senderID, projectID: r.projectID, bundleID: r.bundleID,
            fid: fid == r.fcmToken ? nil : fid, apnsToken: r.apnsToken)
    }
}
