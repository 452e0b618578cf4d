import DeviceSimulator
import Doctor
import Foundation
import Provisioning
import PushModel
import YAMLSource

/// What `doctor` was asked: the files and the context, from `--config` and/or the command line.
struct DoctorRequest {
    var paths = DoctorFilePaths()
    var context = DoctorContext()

    /// The `--config` keys: a suite world's app keys for the app's files (same names, checked against
    /// `AppDeclaration.yamlKeys` here so the two cannot drift apart), plus doctor's own.
    static let appKeys = AppDeclaration.yamlKeys.filter {
        ["bundle_id", "team_id", "entitlements_file", "info_plist_file", "provisioning_profile_file", "firebase"]
            .contains($0)
    }
    static let doctorKeys = [
        "app", "apns_key_file", "key_id", "apns_cert_file", "password", "google_service_info_file",
        "service_account_file", "udid", "topic", "environment", "expects_silent_push", "expects_live_activities",
        "live_activities",
        // Android: the app's files, its applicationId, targetSdk, the channels it creates, the backend's click_actions.
        "google_services_file", "android_manifest_file", "package_name", "target_sdk", "android_channels",
        "click_actions",
    ]

    /// A text setting doctor takes from both `--config` (`configKey`) and the command line (`--option`): the one
    /// list of them, in the order the config is read. A file setting's path resolves against the config's directory.
    private struct Setting {
        let configKey: String
        let option: String
        let isFile: Bool
        let field: WritableKeyPath<DoctorRequest, String?>
    }

    // Computed: a key path is not Sendable, so a static table of them cannot be a stored `let`.
    private static var settings: [Setting] {
        [
            Setting(configKey: "provisioning_profile_file", option: "profile", isFile: true, field: \.paths.profile),
            Setting(configKey: "entitlements_file", option: "entitlements", isFile: true, field: \.paths.entitlements),
            Setting(configKey: "info_plist_file", option: "info-plist", isFile: true, field: \.paths.infoPlist),
            Setting(configKey: "app", option: "app", isFile: true, field: \.paths.app),
            Setting(configKey: "apns_key_file", option: "apns-key", isFile: true, field: \.paths.apnsKey),
            Setting(configKey: "apns_cert_file", option: "apns-cert", isFile: true, field: \.paths.apnsCertificate),
            Setting(configKey: "password", option: "password", isFile: false, field: \.password),
            Setting(
                configKey: "google_service_info_file", option: "google-service-info", isFile: true,
                field: \.paths.googleServiceInfo),
            Setting(
                configKey: "service_account_file", option: "service-account", isFile: true,
                field: \.paths.serviceAccount),
            Setting(
                configKey: "google_services_file", option: "google-services", isFile: true,
                field: \.paths.googleServices),
            Setting(
                configKey: "android_manifest_file", option: "android-manifest", isFile: true,
                field: \.paths.androidManifest),
            Setting(configKey: "package_name", option: "package-name", isFile: false, field: \.context.packageName),
            Setting(configKey: "bundle_id", option: "bundle-id", isFile: false, field: \.context.bundleID),
            Setting(configKey: "topic", option: "topic", isFile: false, field: \.context.topic),
            Setting(configKey: "team_id", option: "team-id", isFile: false, field: \.context.teamID),
            Setting(configKey: "key_id", option: "key-id", isFile: false, field: \.context.keyID),
            Setting(configKey: "udid", option: "udid", isFile: false, field: \.context.udid),
        ]
    }

    /// The `.p12` password as a setting: unset is "" (no password).
    private var password: String? {
        get { paths.certificatePassword }
        set { paths.certificatePassword = newValue ?? "" }
    }

    /// Reads a YAML config. Paths resolve against the file's directory; unknown keys are errors with a
    /// did-you-mean, reported as `file:line:col`.
    static func load(path: String) throws(SourceError) -> DoctorRequest {
        let root = try YAMLLoader.load(path: path)
        let m = try YAMLMapping(root)
        try m.checkKeys(allowed: appKeys + doctorKeys)
        var r = DoctorRequest()
        for setting in settings {
            if setting.isFile {
                guard let node = m[setting.configKey], !node.isNull else { continue }
                r[keyPath: setting.field] = YAMLLoader.resolve(include: try String.decode(from: node), from: path)
            } else {
                r[keyPath: setting.field] = try m.optional(setting.configKey, as: String.self)
            }
        }
        r.context.environment = try m.optional("environment", oneOf: APNsEnvironment.allCases.map(\.rawValue))
            .flatMap(APNsEnvironment.init(rawValue:))
        r.context.expectsSilentPush = try m.optional("expects_silent_push", as: Bool.self) ?? false
        let declared = try m.optionalSequence("live_activities") ?? []
        r.context.expectsLiveActivities =
            try m.optional("expects_live_activities", as: Bool.self) ?? !declared.isEmpty
        if let sdk = try m.optional("target_sdk", as: Int.self) {
            guard sdk >= 1 else { throw m["target_sdk"]!.invalidValue(expected: "an Android API level, e.g. 34") }
            r.context.targetSdk = sdk
        }
        r.context.androidChannels = try m.optional("android_channels", as: [String].self)
        r.context.clickActions = try m.optional("click_actions", as: [String].self) ?? []
        if let f = try m.optionalMapping("firebase", keys: AppDeclaration.firebaseTable) {
            r.context.firebaseSenderID = try f.optional("sender_id", as: String.self)
            r.context.firebaseProjectID = try f.optional("project_id", as: String.self)
            r.context.forwardsAPNsTokenToFirebase = try f.optional("forwards_apns_token", default: false)
        }
        return r
    }

    /// Command-line options override the config.
    mutating func apply(_ a: ParsedArguments) throws(UsageError) {
        for setting in Self.settings {
            self[keyPath: setting.field] = a.value(setting.option) ?? self[keyPath: setting.field]
        }
        if let raw = a.value("environment") {
            guard let env = APNsEnvironment(rawValue: raw) ?? (raw == "development" ? .sandbox : nil) else {
                throw UsageError("option '--environment' expects sandbox or production, got '\(raw)'")
            }
            context.environment = env
        }
        if a.has("expects-silent-push") { context.expectsSilentPush = true }
        if a.has("expects-live-activities") { context.expectsLiveActivities = true }
        if let raw = a.value("target-sdk") {
            guard let sdk = Int(raw), sdk >= 1 else {
                throw UsageError("option '--target-sdk' expects an Android API level such as 34, got '\(raw)'")
            }
            context.targetSdk = sdk
        }
        func list(_ raw: String) -> [String] {
            raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let raw = a.value("channels") { context.androidChannels = list(raw).filter { !$0.isEmpty } }
        if let raw = a.value("click-action") { context.clickActions = list(raw).filter { !$0.isEmpty } }
    }
}
