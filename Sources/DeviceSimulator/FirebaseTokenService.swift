import Foundation
import Provisioning
import PushModel

/// Firebase's token registration as an app's Firebase SDK sees it (the iOS SDK's request to Firebase's
/// registration server, reference/fcm.md "APNs token to FCM token"): the device asks, the service answers with the
/// FCM registration token it issued, or refuses. The world's mock FCM service implements it (DeviceBridge).
package protocol FirebaseTokenService: Sendable {
    /// Called outside the device's lock, once the app's APNs registration is done.
    func fcmToken(for request: FirebaseTokenRequest) -> Result<String, FirebaseTokenRefusal>
}

/// What the SDK sends: the app's sender ID and project, its installation and, when it reached Firebase (swizzling
/// on, or forwarded by the app), the APNs token and its environment.
package struct FirebaseTokenRequest: Sendable, Equatable {
    package var bundleID: String
    package var senderID: String
    package var projectID: String
    /// The Firebase installation ID (22 characters, seeded per device, app and install).
    package var installationID: String
    package var apnsToken: DeviceToken?
    package var environment: APSEnvironment?
}

/// Why Firebase issued no token (the SDK logs it; the app has no FCM token).
package struct FirebaseTokenRefusal: Error, Sendable, Equatable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

extension DeviceState: PhoneState {
    typealias TokenService = any FirebaseTokenService

    /// Every token of every app, apps in bundle ID order.
    var currentTokens: [DeviceToken] { apps.keys.sorted().flatMap { apps[$0]?.allTokens ?? [] } }

    static func reportsTokens(_ event: DeviceEvent) -> Bool {
        if case .offlineChanged = event.kind { true } else { false }
    }

    /// The Firebase registrations waiting for the service (taken by `PhoneCore` outside its lock).
    mutating func takeTokenRequests() -> [FirebaseTokenRequest] {
        guard !pendingFirebase.isEmpty else { return [] }
        let bundles = pendingFirebase
        pendingFirebase = []
        return bundles.compactMap { id -> FirebaseTokenRequest? in
            guard let app = apps[id], let fb = app.declaration.firebase else { return nil }
            return FirebaseTokenRequest(
                bundleID: id, senderID: fb.senderID, projectID: fb.projectID,
                installationID: tokens.firebaseInstallationID(
                    udid: udid, bundleID: id, senderID: fb.senderID, generation: app.generation),
                apnsToken: app.fcmMappedToAPNs ? app.token : nil, environment: app.environment)
        }
    }

    /// Firebase's answer to a registration: the token (logged as issued) or the refusal.
    static func ask(_ service: any FirebaseTokenService, for request: FirebaseTokenRequest) -> Result<
        String, FirebaseTokenRefusal
    > { service.fcmToken(for: request) }

    mutating func receiveTokenAnswer(
        _ request: FirebaseTokenRequest, _ answer: Result<String, FirebaseTokenRefusal>, now: Date
    ) {
        // The app may have been uninstalled (or re-registered) in between: the answer is for an install gone.
        guard let app = apps[request.bundleID],
            tokens.firebaseInstallationID(
                udid: udid, bundleID: request.bundleID, senderID: request.senderID, generation: app.generation)
                == request.installationID
        else { return }
        switch answer {
        case .success(let token):
            apps[request.bundleID]!.fcmToken = token
            log(.fcmTokenIssued(fcmToken: token, mappedToAPNs: app.fcmMappedToAPNs), request.bundleID, now)
        case .failure(let refusal):
            log(.fcmTokenFailed(reason: refusal.reason), request.bundleID, now)
        }
    }
}
