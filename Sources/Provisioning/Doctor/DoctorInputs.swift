import Foundation
import PushCrypto
import PushModel

/// One input file as `doctor` read it: its path and either the parsed value or the finding that says
/// why it could not be read (a bad file is a finding, never a crash).
public struct DoctorFile<Value: Sendable>: Sendable {
    public var path: String
    public var content: Result<Value, DoctorFinding>

    public init(path: String, content: Result<Value, DoctorFinding>) {
        self.path = path
        self.content = content
    }

    /// The parsed value, nil when the file could not be read.
    public var value: Value? { try? content.get() }
}

/// A `.mobileprovision` as read by doctor: the profile plus whether its CMS signature verifies.
public struct ProfileFile: Sendable {
    public var profile: ProvisioningProfile
    /// The CMS signature over the embedded plist verifies with the embedded signer certificate
    /// (the chain to Apple's root is not checked: doctor has no Apple root, and needs none).
    public var signatureVerifies: Bool
    /// The verified signers' subjects (`/CN=Apple iPhone OS Provisioning Profile Signing/…`).
    public var signers: [String]

    public init(profile: ProvisioningProfile, signatureVerifies: Bool, signers: [String]) {
        self.profile = profile
        self.signatureVerifies = signatureVerifies
        self.signers = signers
    }
}

/// An APNs auth key file (`AuthKey_<KEYID>.p8`): the key when it is P-256, else what it is instead.
public struct APNsKeyFile: Sendable {
    /// The key, when it is an EC P-256 key (the only kind APNs accepts).
    public var key: P256PrivateKey?
    /// What the file holds instead when it is not P-256 (e.g. "RSA 2048-bit").
    public var wrongType: String?

    public init(key: P256PrivateKey?, wrongType: String?) {
        self.key = key
        self.wrongType = wrongType
    }
}

/// An app extension's `Info.plist`: parsed, plus its bytes for `NotificationExtensionInfo`.
public struct ExtensionFile: Sendable {
    public var info: [String: PlistValue]
    public var bytes: Data
    /// The extension's own `embedded.mobileprovision`, when the bundle has one.
    public var profile: DoctorFile<ProfileFile>?

    public init(info: [String: PlistValue], bytes: Data, profile: DoctorFile<ProfileFile>? = nil) {
        self.info = info
        self.bytes = bytes
        self.profile = profile
    }
}

/// Everything `doctor` was given, read and parsed (see `DoctorInputLoader`).
public struct DoctorInputs: Sendable {
    public var profile: DoctorFile<ProfileFile>?
    public var entitlements: DoctorFile<[String: PlistValue]>?
    public var infoPlist: DoctorFile<[String: PlistValue]>?
    /// The `Info.plist` of each app extension (`PlugIns/*.appex/Info.plist`).
    public var extensions: [DoctorFile<ExtensionFile>] = []
    public var apnsKey: DoctorFile<APNsKeyFile>?
    public var apnsCertificate: DoctorFile<CertificateInfo>?
    public var googleServiceInfo: DoctorFile<[String: PlistValue]>?
    public var serviceAccount: DoctorFile<JSONValue>?

    public init() {}
}

/// The context doctor checks the files against: where the backend sends and what it expects.
public struct DoctorContext: Sendable, Equatable {
    /// The test device's UDID (`--udid`).
    public var udid: String?
    /// The bundle id / APNs topic the backend sends with (`--bundle-id`).
    public var bundleID: String?
    /// The gateway the backend sends to (`--environment sandbox|production`).
    public var environment: APNsEnvironment?
    /// The backend sends silent (content-available) pushes (`--expects-silent-push`).
    public var expectsSilentPush = false
    /// The APNs key id the backend puts in the JWT `kid` (`--key-id`).
    public var keyID: String?
    /// The team id the backend puts in the JWT `iss` (`--team-id`).
    public var teamID: String?
    /// The FCM sender id / project the backend uses (config `firebase:`), when known.
    public var firebaseSenderID: String?
    public var firebaseProjectID: String?
    /// The app sets `Messaging.messaging().apnsToken` itself (config `firebase.forwards_apns_token`).
    public var forwardsAPNsTokenToFirebase = false

    public init() {}
}
