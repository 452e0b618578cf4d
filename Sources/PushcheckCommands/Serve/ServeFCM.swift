import APNsGateway
import FCMGateway
import Foundation
import HTTPServer
import PushCrypto
import PushModel
import YAMLSource

/// `serve`'s FCM part (config `fcm:`): one more listener (TLS with h2 via ALPN and HTTP/1.1; cleartext h2c too with
/// `--h2c`) for OAuth, v1 send, IID and registrations; credentials files for Google's libraries; control routes.
/// Kept apart from `ServeCommand` on purpose: the world host (issue 7) will move it.
struct ServeFCM {
    /// The decoded `fcm:` section and its ports (`listen: { fcm: …, h2c_fcm: … }`).
    struct Settings {
        var configuration: FCMGatewayConfiguration
        var port = 0
        var h2cPort = 0
    }

    static let listenKeys = ["fcm", "h2c_fcm"]

    /// Decodes `fcm:` (with the `.p8` keys of `apns.keys` for the projects' APNs credentials).
    static func decode(_ root: YAMLMapping, file: String) throws(SourceError) -> Settings? {
        guard let m = try root.optionalMapping("fcm") else { return nil }
        let apnsKeys = try FCMGatewayConfiguration.apnsSigningKeys(apnsSection: try root.optionalMapping("apns"), file: file)
        var settings = Settings(configuration: try FCMGatewayConfiguration.decode(m, file: file, apnsKeys: apnsKeys))
        if let listen = try root.optionalMapping("listen") {
            for (key, slot) in [("fcm", \Settings.port), ("h2c_fcm", \Settings.h2cPort)] {
                guard let p = try listen.optional(key, as: Int.self) else { continue }
                guard (0...65535).contains(p) else { throw listen[key]!.invalidValue(expected: "expected a port number 0–65535 (0 = ephemeral)") }
                settings[keyPath: slot] = p
            }
        }
        return settings
    }

    let gateway: FCMGateway
    let settings: Settings

    init(_ settings: Settings, apns: APNsGateway) {
        self.settings = settings
        gateway = FCMGateway(configuration: settings.configuration, apns: apns)
    }

    /// The listeners to add: `fcm` (TLS), and `fcm_h2c` when cleartext is on.
    func listeners(h2c: Bool, _ make: (String, Int, Bool) -> ListenerConfiguration) -> [ListenerConfiguration] {
        var out = [make("fcm", settings.port, true)]
        if h2c { out.append(make("fcm_h2c", settings.h2cPort, false)) }
        return out
    }

    /// Writes one Google service-account JSON per account with a private key, `token_uri` at the mock; returns
    /// project id → file (what `GOOGLE_APPLICATION_CREDENTIALS` should name).
    func writeCredentials(baseURL: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for (i, account) in settings.configuration.serviceAccounts.enumerated() {
            guard let key = account.privateKey else { continue }
            let projects = settings.configuration.projects.filter {
                account.projects.isEmpty || account.projects.contains($0.id) || account.projects.contains($0.number)
            }
            let json: JSONValue = [
                "type": "service_account", "project_id": .string(projects.first?.id ?? ""),
                "private_key_id": .string(account.privateKeyID ?? "pushcheck-\(i)"), "private_key": .string(key.pkcs8PEM),
                "client_email": .string(account.clientEmail), "client_id": "100000000000000000000",
                "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": .string(baseURL + "/token"),
                "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs", "universe_domain": "googleapis.com",
            ]
            let path = NSTemporaryDirectory() + "pushcheck-\(getpid())-fcm-\(i).json"
            try json.serialized().write(toFile: path, atomically: true, encoding: .utf8)
            for p in projects where out[p.id] == nil { out[p.id] = path }
        }
        return out
    }
}
