import Foundation
import PushModel

/// What an iOS app's Firebase SDK tells Firebase when it registers (reference/fcm.md "APNs token to FCM
/// token"): the sender (project number), the app, its installation and, once it reached Firebase, the APNs
/// token. The simulated device's bridge sends it; the gateway records the instance under the project.
package struct FCMInstanceRegistration: Sendable, Equatable {
    /// The registration token the instance holds.
    package var token: String
    /// The sender ID the SDK registered with (the `GCM_SENDER_ID` of the app's plist: the project number).
    package var senderID: String
    /// The Firebase project id the app was configured with (used when no project has that number).
    package var projectID: String
    package var bundleID: String
    /// The installation ID (`google.c.fid`, a `fid` target); nil when the token has no `<fid>:` prefix.
    package var fid: String?
    /// The APNs token Firebase maps the instance to; nil when it never reached Firebase (swizzling off and
    /// not forwarded): sends are then accepted and nothing reaches the device, as with real Firebase.
    package var apnsToken: DeviceToken?
    /// Set for an Android instance (its SDK registered with its package and app id; `bundleID` is then the package).
    package var android: FCMAndroidInstance?

    package init(
        token: String, senderID: String, projectID: String, bundleID: String, fid: String?, apnsToken: DeviceToken?,
        android: FCMAndroidInstance? = nil
    ) {
        self.android = android
        self.token = token
        self.senderID = senderID
        self.projectID = projectID
        self.bundleID = bundleID
        self.fid = fid
        self.apnsToken = apnsToken
    }
}

extension FCMGateway {
    /// Records an app instance's registration: the project whose number is the sender ID (else the one with
    /// the app's project id). Returns the project id, nil when the mock knows neither (the token then stays
    /// unknown, and a well-formed unknown token is UNREGISTERED, as for an instance Firebase never saw).
    @discardableResult
    package func registerInstance(_ r: FCMInstanceRegistration) -> String? {
        guard let p = configuration.projects.first(where: { $0.number == r.senderID }) ?? project(r.projectID) else {
            return nil
        }
        let entry = FCMRegisteredToken(
            token: r.token, apnsToken: r.apnsToken, bundleID: r.android == nil ? r.bundleID : nil, fid: r.fid,
            android: r.android)
        return registerToken(entry, project: p.id) ? p.id : nil
    }

    /// Firebase's token registration for an app instance: issues its registration token and records the instance
    /// (as `registerInstance`). The token is `<installation id>:APA91b<134 characters>`, derived from the
    /// installation and sender IDs only, so the same install gets the same token (Firebase keeps a token until the
    /// app is reinstalled or its data cleared). Nil when no project has that sender ID or project id.
    package func issueInstanceToken(
        installationID: String, senderID: String, projectID: String, bundleID: String, apnsToken: DeviceToken?
    ) -> String? {
        issueToken(installationID: installationID, senderID: senderID, projectID: projectID, bundleID: bundleID) {
            $0.apnsToken = apnsToken
        }
    }

    /// The same for an Android app's SDK (`FirebaseMessaging.getToken` on first start): the instance is recorded with
    /// its package and app id, so sends to it go to the Android delivery consumer.
    package func issueAndroidInstanceToken(
        installationID: String, senderID: String, projectID: String, packageName: String, appID: String?
    ) -> String? {
        issueToken(installationID: installationID, senderID: senderID, projectID: projectID, bundleID: packageName) {
            $0.android = FCMAndroidInstance(packageName: packageName, appID: appID)
        }
    }

    private func issueToken(
        installationID: String, senderID: String, projectID: String, bundleID: String,
        platform: (inout FCMInstanceRegistration) -> Void
    ) -> String? {
        let token = Self.registrationToken(installationID: installationID, senderID: senderID)
        var r = FCMInstanceRegistration(
            token: token, senderID: senderID, projectID: projectID, bundleID: bundleID, fid: installationID,
            apnsToken: nil)
        platform(&r)
        return registerInstance(r) == nil ? nil : token
    }

    /// The registration token the mock issues for an installation of a sender's app.
    static func registrationToken(installationID: String, senderID: String) -> String {
        var rng = SplitMix64(seed: StableHash.fnv1a64("fcm-token|\(installationID)|\(senderID)".utf8))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return installationID + ":APA91b" + String((0..<134).map { _ in alphabet[Int(rng.next() % 64)] })
    }

    /// The instances mapped to `apnsToken`, for "which FCM token does this device have" (tests, control).
    func instances(mappedTo apnsToken: DeviceToken) -> [FCMRegisteredToken] {
        registeredTokens.map(\.token).filter { $0.apnsToken == apnsToken }
    }

    /// Whether `token` is known and still registered.
    func isRegistered(_ token: String) -> Bool {
        state.withLock { $0.tokens[token].map { !$0.entry.unregistered } ?? false }
    }
}
