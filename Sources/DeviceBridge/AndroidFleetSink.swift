import DeviceSimulator
import FCMGateway
import Foundation
import PushModel

/// Makes the world follow one simulated Android phone's FCM tokens, as Firebase's registration service does: a
/// token the app's SDK got is an entry of the fleet's `TokenIndex` (kind `.fcm`: which device and package hold
/// it); uninstall or clear data makes it UNREGISTERED at the mock FCM from then on and drops it from the index.
/// The device keeps FCM's offline store itself (`AndroidMessageStore`), so going offline needs no gateway call.
/// Called by the device outside its lock.
package struct AndroidFleetSink: AndroidRegistrationSink {
    /// The world's mock FCM (nil: a world without `fcm:`, whose Android apps hold seeded tokens nobody can send to).
    package let fcm: FCMGateway?
    package let index: TokenIndex
    /// The device's declared name (the holder the index records).
    package let device: String

    package func androidTokenIssued(_ token: String, request: AndroidTokenRequest) {
        index.register(.fcm(token), holder: TokenHolder(device: device, bundleID: request.packageName, kind: .fcm))
    }

    package func androidTokenInvalidated(_ token: String, at date: Date) {
        fcm?.unregisterToken(token)
        index.remove(.fcm(token))
    }

    package func androidDeviceOnlineChanged(tokens: [String], online: Bool) {}

    /// Registers the tokens `state` holds again, with the index and (after `FCMGateway.reset()`) the mock FCM.
    func sync(_ state: AndroidDeviceState) {
        for pkg in state.apps.keys.sorted() {
            guard let app = state.apps[pkg], let token = app.fcmToken else { continue }
            index.register(.fcm(token), holder: TokenHolder(device: device, bundleID: pkg, kind: .fcm))
            guard let fcm, let fb = app.declaration.firebase else { continue }
            fcm.registerInstance(
                FCMInstanceRegistration(
                    token: token, senderID: fb.senderID, projectID: fb.projectID, bundleID: pkg,
                    fid: state.installationID(of: pkg), apnsToken: nil,
                    android: FCMAndroidInstance(packageName: pkg, appID: fb.appID)))
        }
    }
}

/// The same registration server for an Android app: the SDK registers its installation with its sender, project,
/// package and app id (`FCMGateway.issueAndroidInstanceToken`).
extension FCMTokenService: AndroidTokenService {
    package func fcmToken(for r: AndroidTokenRequest) -> Result<String, FirebaseTokenRefusal> {
        fcm.issueAndroidInstanceToken(
            installationID: r.installationID, senderID: r.senderID, projectID: r.projectID,
            packageName: r.packageName, appID: r.appID
        ).map(Result.success) ?? .failure(Self.noProject(senderID: r.senderID, projectID: r.projectID))
    }
}
