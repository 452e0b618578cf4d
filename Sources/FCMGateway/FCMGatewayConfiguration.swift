import Foundation
import PushCrypto
import PushModel

/// A Google service account the mock knows: its key verifies `/token` assertions.
package struct FCMServiceAccount: Sendable, Equatable {
    package var clientEmail: String
    package var publicKey: RSAPublicKey
    /// Present when the account came from a credentials file (or a private key): `serve` then writes a
    /// credentials JSON whose `token_uri` points at the mock.
    package var privateKey: RSAPrivateKey?
    package var privateKeyID: String?
    /// Project ids (or numbers) the account may send for; empty = every configured project.
    package var projects: Set<String>

    package init(
        clientEmail: String, publicKey: RSAPublicKey, privateKey: RSAPrivateKey? = nil, privateKeyID: String? = nil,
        projects: Set<String> = []
    ) {
        self.clientEmail = clientEmail
        self.publicKey = publicKey
        self.privateKey = privateKey
        self.privateKeyID = privateKeyID
        self.projects = projects
    }
}

/// The APNs credentials uploaded to a Firebase project: an auth key (.p8; Firebase signs provider tokens with it)
/// or a push certificate (Firebase presents it to APNs).
package struct FCMAPNsCredentials: Sendable, Equatable {
    package enum Auth: Sendable, Equatable {
        case token(teamID: String, keyID: String, privateKey: P256PrivateKey)
        /// The certificate's DER (its private key is not needed in-process: the APNs gateway reads the certificate).
        case certificate(der: [UInt8])
    }
    package var auth: Auth
    /// Which APNs endpoint the project pushes to.
    package var environment: APNsEnvironment

    package init(teamID: String, keyID: String, privateKey: P256PrivateKey, environment: APNsEnvironment) {
        auth = .token(teamID: teamID, keyID: keyID, privateKey: privateKey)
        self.environment = environment
    }

    package init(certificateDER: [UInt8], environment: APNsEnvironment) {
        auth = .certificate(der: certificateDER)
        self.environment = environment
    }

    /// The certificate, for certificate credentials.
    var certificateDER: [UInt8]? {
        if case .certificate(let der) = auth { return der }
        return nil
    }
}

/// What Firebase knows of an Android app instance: its package (google-services.json's `package_name`, which
/// `android.restricted_package_name` must match) and its app id.
package struct FCMAndroidInstance: Sendable, Equatable {
    package var packageName: String
    /// `mobilesdk_app_id` (`1:<number>:android:<hex>`), when known.
    package var appID: String?

    package init(packageName: String, appID: String? = nil) {
        self.packageName = packageName
        self.appID = appID
    }
}

/// An FCM registration token known to the mock (what a device got from Firebase).
package struct FCMRegisteredToken: Sendable, Equatable {
    package var token: String
    /// The APNs device token FCM maps it to; `nil`: an instance without one (an Android or web instance):
    /// sends are accepted and nothing goes to APNs.
    package var apnsToken: DeviceToken?
    /// Set for an Android instance: sends to it go to the gateway's Android delivery consumer.
    package var android: FCMAndroidInstance?
    /// The iOS app's bundle ID (the `apns-topic` FCM sends with).
    package var bundleID: String?
    /// The Firebase installation ID (a `fid` target, and `google.c.fid` in the payload).
    package var fid: String?
    /// An uninstalled / expired instance: UNREGISTERED.
    package var unregistered: Bool

    package init(
        token: String, apnsToken: DeviceToken? = nil, bundleID: String? = nil, fid: String? = nil,
        unregistered: Bool = false, android: FCMAndroidInstance? = nil
    ) {
        self.token = token
        self.apnsToken = apnsToken
        self.android = android
        self.bundleID = bundleID
        self.fid = fid
        self.unregistered = unregistered
    }
}

/// Sending limits (reference/fcm.md §5): over them, QUOTA_EXCEEDED with `Retry-After`.
package struct FCMQuota: Sendable, Equatable {
    /// Messages per registration token per minute (Android's documented 240 is a good value).
    var perDevicePerMinute: Int?
    /// Messages per project per minute (Google's default 600 000).
    var perProjectPerMinute: Int?
    package init(perDevicePerMinute: Int? = nil, perProjectPerMinute: Int? = nil) {
        self.perDevicePerMinute = perDevicePerMinute
        self.perProjectPerMinute = perProjectPerMinute
    }
}

/// A Firebase project.
package struct FCMProject: Sendable, Equatable {
    package var id: String
    /// The project number (sender ID), `google.c.sender.id` in payloads; also accepted in send paths.
    package var number: String
    /// `nil`: no APNs credentials uploaded, so iOS sends fail with THIRD_PARTY_AUTH_ERROR.
    package var apns: FCMAPNsCredentials?
    package var tokens: [FCMRegisteredToken]
    package var quota: FCMQuota

    package init(
        id: String, number: String, apns: FCMAPNsCredentials? = nil, tokens: [FCMRegisteredToken] = [],
        quota: FCMQuota = FCMQuota()
    ) {
        self.id = id
        self.number = number
        self.apns = apns
        self.tokens = tokens
        self.quota = quota
    }
}

/// A forced FCM answer for sends (UNAVAILABLE, INTERNAL, QUOTA_EXCEEDED …), optionally for one token, `count` times.
package struct FCMFault: Sendable, Equatable {
    package var id = 0
    package var errorCode: FCMErrorCode
    package var token: String?
    package var remaining: Int?
    package var retryAfter: Int?
    package init(_ errorCode: FCMErrorCode, token: String? = nil, count: Int? = nil, retryAfter: Int? = nil) {
        self.errorCode = errorCode
        self.token = token
        self.remaining = count
        self.retryAfter = retryAfter
    }
}

/// Everything that shapes the FCM mock's answers.
package struct FCMGatewayConfiguration: Sendable {
    package var serviceAccounts: [FCMServiceAccount] = []
    package var projects: [FCMProject] = []
    /// Lifetime of issued access tokens (Google: 3599 s).
    var accessTokenLifetime: Int = 3599
    package var faults: [FCMFault] = []
    /// Log entries kept in memory.
    package var logCapacity = 10_000
    package init() {}
}
