import Foundation
import Provisioning
import PushCrypto
import PushModel

/// One input file as `doctor` read it: its path and either the parsed value or the finding that says
/// why it could not be read (a bad file is a finding, never a crash).
package struct DoctorFile<Value: Sendable>: Sendable {
    package var path: String
    package var content: Result<Value, DoctorFinding>

    package init(path: String, content: Result<Value, DoctorFinding>) {
        self.path = path
        self.content = content
    }

    /// The parsed value, nil when the file could not be read.
    package var value: Value? { try? content.get() }
}

/// A `.mobileprovision` as read by doctor: the profile plus whether its CMS signature verifies.
package struct ProfileFile: Sendable {
    package var profile: ProvisioningProfile
    /// The CMS signature over the embedded plist verifies with the embedded signer certificate
    /// (the chain to Apple's root is not checked: doctor has no Apple root, and needs none).
    var signatureVerifies: Bool
    /// The file is a CMS SignedData (as downloaded), not a bare plist: a signature that is there and does not
    /// verify is an edited or damaged profile, which a device refuses.
    var isCMS: Bool
    /// The verified signers' subjects (`/CN=Apple iPhone OS Provisioning Profile Signing/…`).
    package var signers: [String]
    /// `DeveloperCertificates`: the certificates a build may be signed with under this profile.
    var developerCertificates: [CertificateInfo]

    package init(
        profile: ProvisioningProfile, signatureVerifies: Bool, signers: [String],
        developerCertificates: [CertificateInfo] = [], isCMS: Bool = true
    ) {
        self.profile = profile
        self.signatureVerifies = signatureVerifies
        self.isCMS = isCMS
        self.signers = signers
        self.developerCertificates = developerCertificates
    }
}

/// An APNs auth key file (`AuthKey_<KEYID>.p8`): the key when it is P-256, else what it is instead.
package struct APNsKeyFile: Sendable {
    /// The key, when it is an EC P-256 key (the only kind APNs accepts).
    package var key: P256PrivateKey?
    /// What the file holds instead when it is not P-256 (e.g. "RSA 2048-bit").
    package var wrongType: String?

    package init(key: P256PrivateKey?, wrongType: String?) {
        self.key = key
        self.wrongType = wrongType
    }
}

/// An app extension's `Info.plist`: parsed, plus its bytes for `NotificationExtensionInfo`.
package struct ExtensionFile: Sendable {
    package var info: [String: PlistValue]
    package var bytes: Data
    /// The extension's own `embedded.mobileprovision`, when the bundle has one.
    package var profile: DoctorFile<ProfileFile>?

    package init(info: [String: PlistValue], bytes: Data, profile: DoctorFile<ProfileFile>? = nil) {
        self.info = info
        self.bytes = bytes
        self.profile = profile
    }
}

/// Everything `doctor` was given, read and parsed (see `DoctorInputLoader`).
package struct DoctorInputs: Sendable {
    package var profile: DoctorFile<ProfileFile>?
    package var entitlements: DoctorFile<[String: PlistValue]>?
    /// The entitlements are the ones a build was signed with (an `.xcent`, or `--app`'s), not the project's source
    /// `.entitlements`, whose `aps-environment` Xcode replaces with the profile's at signing (device.md §3.2).
    package var entitlementsAreSigned = false
    package var infoPlist: DoctorFile<[String: PlistValue]>?
    /// The `Info.plist` of each app extension (`PlugIns/*.appex/Info.plist`).
    package var extensions: [DoctorFile<ExtensionFile>] = []
    package var apnsKey: DoctorFile<APNsKeyFile>?
    package var apnsCertificate: DoctorFile<CertificateInfo>?
    package var googleServiceInfo: DoctorFile<[String: PlistValue]>?
    package var serviceAccount: DoctorFile<JSONValue>?
    package var googleServices: DoctorFile<JSONValue>?
    package var androidManifest: DoctorFile<AndroidManifestFile>?

    package init() {}
}

/// The context doctor checks the files against: where the backend sends and what it expects.
package struct DoctorContext: Sendable, Equatable {
    /// The test device's UDID (`--udid`).
    package var udid: String?
    /// The app's bundle id (`--bundle-id`), for when no Info.plist says it.
    package var bundleID: String?
    /// The `apns-topic` the backend sends with (`--topic`); without it, an Info.plist given, `bundleID` is taken as
    /// the topic (what `--bundle-id` meant before `--topic` existed).
    package var topic: String?
    /// The gateway the backend sends to (`--environment sandbox|production`).
    package var environment: APNsEnvironment?
    /// The backend sends silent (content-available) pushes (`--expects-silent-push`).
    package var expectsSilentPush = false
    /// The app has Live Activities: the backend sends liveactivity pushes (`--expects-live-activities`, or
    /// `live_activities:` in the config).
    package var expectsLiveActivities = false
    /// The APNs key id the backend puts in the JWT `kid` (`--key-id`).
    package var keyID: String?
    /// The team id the backend puts in the JWT `iss` (`--team-id`).
    package var teamID: String?
    /// The FCM sender id / project the backend uses (config `firebase:`), when known.
    package var firebaseSenderID: String?
    package var firebaseProjectID: String?
    /// The app sets `Messaging.messaging().apnsToken` itself (config `firebase.forwards_apns_token`).
    package var forwardsAPNsTokenToFirebase = false
    /// The Android app's applicationId (`--package-name`): what google-services.json must list; else the
    /// manifest's `package`.
    package var packageName: String?
    /// The Android app's targetSdkVersion (`--target-sdk`), when the manifest does not say it.
    package var targetSdk: Int?
    /// The channel ids the Android app creates at start (`--channels`): a default channel not among them is never
    /// created; nil = unknown (then that check is not made).
    package var androidChannels: [String]?
    /// The `click_action` values the backend sends (`--click-action`).
    package var clickActions: [String] = []

    package init() {}
}
