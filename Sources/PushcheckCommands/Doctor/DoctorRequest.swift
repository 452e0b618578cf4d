import DeviceSimulator
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
        ["bundle_id", "team_id", "entitlements_file", "info_plist_file", "provisioning_profile_file", "firebase"].contains($0)
    }
    static let doctorKeys = [
        "app", "apns_key_file", "key_id", "apns_cert_file", "password", "google_service_info_file",
        "service_account_file", "udid", "environment", "expects_silent_push",
    ]

    /// Reads a YAML config. Paths resolve against the file's directory; unknown keys are errors with a
    /// did-you-mean, reported as `file:line:col`.
    static func load(path: String) throws(SourceError) -> DoctorRequest {
        let root = try YAMLLoader.load(path: path)
        let m = try YAMLMapping(root)
        try m.checkKeys(allowed: appKeys + doctorKeys)
        func file(_ key: String) throws(SourceError) -> String? {
            guard let node = m[key], !node.isNull else { return nil }
            return YAMLLoader.resolve(include: try String.decode(from: node), from: path)
        }
        var r = DoctorRequest()
        r.paths.profile = try file("provisioning_profile_file")
        r.paths.entitlements = try file("entitlements_file")
        r.paths.infoPlist = try file("info_plist_file")
        r.paths.app = try file("app")
        r.paths.apnsKey = try file("apns_key_file")
        r.paths.apnsCertificate = try file("apns_cert_file")
        r.paths.certificatePassword = try m.optional("password", as: String.self) ?? ""
        r.paths.googleServiceInfo = try file("google_service_info_file")
        r.paths.serviceAccount = try file("service_account_file")
        r.context.bundleID = try m.optional("bundle_id", as: String.self)
        r.context.teamID = try m.optional("team_id", as: String.self)
        r.context.keyID = try m.optional("key_id", as: String.self)
        r.context.udid = try m.optional("udid", as: String.self)
        r.context.environment = try m.optional("environment", oneOf: APNsEnvironment.allCases.map(\.rawValue))
            .flatMap(APNsEnvironment.init(rawValue:))
        r.context.expectsSilentPush = try m.optional("expects_silent_push", as: Bool.self) ?? false
        if let f = try m.optionalMapping("firebase", allowedKeys: ["sender_id", "project_id", "forwards_apns_token"]) {
            r.context.firebaseSenderID = try f.optional("sender_id", as: String.self)
            r.context.firebaseProjectID = try f.optional("project_id", as: String.self)
            r.context.forwardsAPNsTokenToFirebase = try f.optional("forwards_apns_token", default: false)
        }
        return r
    }

    /// Command-line options override the config.
    mutating func apply(_ a: ParsedArguments) throws(UsageError) {
        paths.profile = a.value("profile") ?? paths.profile
        paths.entitlements = a.value("entitlements") ?? paths.entitlements
        paths.infoPlist = a.value("info-plist") ?? paths.infoPlist
        paths.app = a.value("app") ?? paths.app
        paths.apnsKey = a.value("apns-key") ?? paths.apnsKey
        paths.apnsCertificate = a.value("apns-cert") ?? paths.apnsCertificate
        paths.certificatePassword = a.value("password") ?? paths.certificatePassword
        paths.googleServiceInfo = a.value("google-service-info") ?? paths.googleServiceInfo
        paths.serviceAccount = a.value("service-account") ?? paths.serviceAccount
        context.udid = a.value("udid") ?? context.udid
        context.bundleID = a.value("bundle-id") ?? context.bundleID
        context.keyID = a.value("key-id") ?? context.keyID
        context.teamID = a.value("team-id") ?? context.teamID
        if let raw = a.value("environment") {
            guard let env = APNsEnvironment(rawValue: raw) ?? (raw == "development" ? .sandbox : nil) else {
                throw UsageError("option '--environment' expects sandbox or production, got '\(raw)'")
            }
            context.environment = env
        }
        if a.has("expects-silent-push") { context.expectsSilentPush = true }
    }
}
