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
/// The token itself comes from the gateway (`FCMTokenService`, the device's Firebase service); this sink keeps the
/// gateway's record in step afterwards (re-registration, uninstall). Called outside the device's lock.
package struct FCMRegistrationSink: DeviceRegistrationSink {
    /// The gateway whose instance registry follows the device.
    package let fcm: FCMGateway

    package init(fcm: FCMGateway) { self.fcm = fcm }

    package func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment) {}
    package func tokenInvalidated(_ token: DeviceToken, at date: Date) {}
    package func deviceOnlineChanged(tokens: [DeviceToken], online: Bool) {}

    package func fcmTokenIssued(_ registration: FCMRegistration) {
        fcm.registerInstance(Self.instance(registration))
    }

    package func fcmTokenInvalidated(_ fcmToken: String, at date: Date) {
        fcm.unregisterToken(fcmToken)
    }

    /// The registration as Firebase records it; the installation id is the token's part before `:`.
    static func instance(_ r: FCMRegistration) -> FCMInstanceRegistration {
        let fid = r.fcmToken.split(separator: ":", maxSplits: 1).first.map(String.init)
        return FCMInstanceRegistration(
            token: r.fcmToken, senderID: r.senderID, projectID: r.projectID, bundleID: r.bundleID,
            fid: fid == r.fcmToken ? nil : fid, apnsToken: r.apnsToken)
    }
}

/// The world's FCM gateway as the device's Firebase registration server: the app's SDK registers its installation
/// (with the APNs token when it reached Firebase) and gets the registration token the gateway issues
/// (`FCMGateway.issueInstanceToken`), or a refusal when no project has the app's sender ID or project id. Android
/// apps register with the same service (`AndroidFleetSink.swift`).
package struct FCMTokenService: FirebaseTokenService {
    package let fcm: FCMGateway

    package init(fcm: FCMGateway) { self.fcm = fcm }

    package func fcmToken(for r: FirebaseTokenRequest) -> Result<String, FirebaseTokenRefusal> {
        fcm.issueInstanceToken(
            installationID: r.installationID, senderID: r.senderID, projectID: r.projectID, bundleID: r.bundleID,
            apnsToken: r.apnsToken
        ).map(Result.success) ?? .failure(Self.noProject(senderID: r.senderID, projectID: r.projectID))
    }

    /// Why no token is issued: no project of the world's FCM service has that sender ID or project id.
    static func noProject(senderID: String, projectID: String) -> FirebaseTokenRefusal {
        FirebaseTokenRefusal(
            "no Firebase project with sender ID \(senderID) or project id '\(projectID)' in the world's FCM service")
    }
}
