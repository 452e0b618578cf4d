import APNsGateway
import DeviceBridge
import DeviceSimulator
import Foundation
import HTTPServer
import SuiteFormat
import YAMLSource

/// Everything `pushcheck serve` needs: the world to host (`apns:`, `fcm:`, `apps:`, `devices:`, read as a suite's
/// `world:` is, with the same decoders), where to listen (`listen:`) and
/// the TLS identity (`tls:`). Every field has a default, so no config file is needed. `include:` reads world files
/// first, as a suite's `world:` does (`SuiteLoader.worldParts`): their apps and devices come before the config's own.
///
/// ```yaml
/// include: [apps/news-app.yaml]  # world files a suite includes: apps:, devices:, gateway:, include:
/// listen:
///   host: 127.0.0.1          # loopback unless you say otherwise
///   sandbox: 0               # 0 = an ephemeral port (printed in the ready line)
///   production: 0
///   control: 0
///   h2c: false               # also serve both environments as cleartext HTTP/2 (prior knowledge)
///   broadcast_sandbox: 0     # channel management (Apple: api-manage-broadcast.sandbox.push.apple.com:2195)
///   broadcast_production: 0  # channel management (Apple: api-manage-broadcast.push.apple.com:2196)
///   proxy: 0                 # an HTTP CONNECT proxy for api.*.push.apple.com (absent: no proxy)
///   idle_timeout: 5m
/// tls:
///   certificate: server.pem  # chain, leaf first; omit both to get a local CA + certificate
///   private_key: server.key
/// apns: { … see APNsGatewayConfiguration.decode … }
/// fcm: { … see FCMGatewayConfiguration.decode … }  # mock FCM; ports: listen: { fcm: 0, h2c_fcm: 0 }
/// apps: [ … see AppDeclaration.decode … ]        # simulated apps, exactly as in a suite's world
/// devices: [ … see DeviceDeclaration.decode … ]  # simulated iPhones hosted behind the gateway
/// ```
struct ServeConfiguration {
    /// The gateways (`apns:`, `fcm:`), apps and devices.
    var world = WorldDeclaration()
    var host = "127.0.0.1"
    var sandboxPort = 0
    var productionPort = 0
    var controlPort = 0
    var h2c = false
    var h2cSandboxPort = 0
    var h2cProductionPort = 0
    /// The CONNECT proxy's port (0 = ephemeral); nil: no proxy (`ConnectProxy`).
    var proxyPort: Int?
    var idleTimeout: Duration = .seconds(300)
    /// TLS handshake + HTTP/2 preface (or first HTTP/1.1 request head) deadline; never beyond `idleTimeout`.
    var handshakeTimeout: Duration = .seconds(10)
    var tlsCertificatePEM: String?
    var tlsPrivateKeyPEM: String?
    /// The FCM listeners' ports (`listen: { fcm:, h2c_fcm: }`; used when `fcm:` is declared).
    var fcmPort = 0
    var h2cFCMPort = 0
    /// The channel-management listeners' ports (`listen: { broadcast_sandbox:, broadcast_production: }`).
    var broadcastSandboxPort = 0
    var broadcastProductionPort = 0

    /// Loads `path`; a mistake anywhere is a `SourceError` at its line and column.
    static func load(path: String) throws(SourceError) -> ServeConfiguration {
        let root = try YAMLLoader.load(path: path)
        var config = ServeConfiguration()
        if root.isNull { return config }
        let m = try root.mapping(keys: ServeKeys.config)  // the tables `pushcheck schema` describes
        if let listen = try m.optionalMapping("listen", keys: ServeKeys.listen) {
            config.host = try listen.optional("host", as: String.self) ?? config.host
            config.sandboxPort = try port(listen, "sandbox")
            config.productionPort = try port(listen, "production")
            config.controlPort = try port(listen, "control")
            config.h2c = try listen.optional("h2c", as: Bool.self) ?? false
            config.h2cSandboxPort = try port(listen, "h2c_sandbox")
            config.h2cProductionPort = try port(listen, "h2c_production")
            config.idleTimeout = try listen.optional("idle_timeout", as: Duration.self) ?? config.idleTimeout
            if listen["proxy"] != nil { config.proxyPort = try port(listen, "proxy") }
            config.handshakeTimeout =
                try listen.optional("handshake_timeout", as: Duration.self) ?? config.handshakeTimeout
            config.fcmPort = try port(listen, "fcm")
            config.h2cFCMPort = try port(listen, "h2c_fcm")
            config.broadcastSandboxPort = try port(listen, "broadcast_sandbox")
            config.broadcastProductionPort = try port(listen, "broadcast_production")
        }
        if let tls = try m.optionalMapping("tls", keys: ServeKeys.tls) {
            let certificate = try pem(tls, "certificate", from: path)
            let key = try pem(tls, "private_key", from: path)
            // Built once here as the listeners will build it, so that a refused identity is an error at its line
            // (and `serve --check` finds it) rather than "cannot start" once the world is up.
            if let reason = TLSConfiguration(certificateChainPEM: certificate, privateKeyPEM: key).refusal() {
                throw SourceError(
                    .invalidValue, "OpenSSL refuses this certificate and key: \(reason)",
                    at: tls.keyNode("certificate")?.range ?? tls.range,
                    expected: "a PEM certificate chain, leaf first, and the leaf's PEM private key",
                    suggestion:
                        "look at them with `openssl x509 -in CERT -noout -subject -pubkey` and `openssl pkey -in KEY -pubout`"
                )
            }
            config.tlsCertificatePEM = certificate
            config.tlsPrivateKeyPEM = key
        }
        config.world = try world(m, file: path)
        return config
    }

    /// The world of the config `m` (read from `path`), read as a suite's `world:` is (`SuiteLoader.worldParts`): what
    /// its `include:` files declare, then its own `apps:` and `devices:`; the gateways from its own `apns:`/`fcm:` or
    /// else from an included file's `gateway:`. An included `gateway:` beside the config's own `apns:` or `fcm:` is
    /// refused rather than merged: which one a listener would follow is not something to guess. Apps and no
    /// `devices:` get a suite world's default devices (`SuiteLoader.defaultDevices`: `iphone` with every iOS app,
    /// `pixel` with every Android app), so that the apps are installed somewhere; no apps, no device.
    private static func world(_ m: YAMLMapping, file path: String) throws(SourceError) -> WorldDeclaration {
        let parts = try SuiteLoader.worldParts(of: m, file: path)
        var world = WorldDeclaration()
        if let (gateway, gatewayFile) = parts.gateway {
            if let own = m.keyNode("apns") ?? m.keyNode("fcm") {
                throw SourceError(
                    .invalidValue, "the gateway is declared twice: here and in \(gatewayFile)'s gateway:",
                    at: own.range, expected: "the apns:/fcm: sections in one place",
                    suggestion: "move them into the included file's gateway:, or drop its gateway: for serve's own")
            }
            try world.decodeGateways(gateway, file: gatewayFile)
        } else {
            try world.decodeGateways(m, file: path)
        }
        try world.decodeDevices(apps: parts.apps, devices: parts.devices)
        if world.devices.isEmpty { world.devices = SuiteLoader.defaultDevices(world) }
        return world
    }

    private static func port(_ m: YAMLMapping, _ key: String) throws(SourceError) -> Int {
        guard let p = try m.optional(key, as: Int.self) else { return 0 }
        guard (0...65535).contains(p) else {
            throw m[key]!.invalidValue(expected: "expected a port number 0–65535 (0 = ephemeral)")
        }
        return p
    }

    private static func pem(_ m: YAMLMapping, _ key: String, from path: String) throws(SourceError) -> String {
        let node = try m.required(key, as: YAMLNode.self)
        return String(
            decoding: try node.referencedFile(from: path, expected: "expected a readable PEM file").bytes, as: UTF8.self
        )
    }
}

extension ServeConfiguration {
    /// What `serve --check` prints of a config that loaded: one line, what it declares.
    func checkSummary(path: String?) -> String {
        func counted(_ n: Int, _ one: String, _ names: [String]) -> String {
            let noun = n == 1 ? one : one + "s"
            return names.isEmpty ? "\(n) \(noun)" : "\(n) \(noun) (\(names.joined(separator: ", ")))"
        }
        let apps = world.apps.map(\.bundleID) + world.androidApps.map(\.packageName)
        var parts = [
            counted(apps.count, "app", apps), counted(world.devices.count, "device", world.devices.map(\.name)),
            "apns: " + counted(world.apns.providerKeys.count, "provider key", world.apns.providerKeys.map(\.keyID)),
        ]
        if let fcm = world.fcm {
            parts.append("fcm: " + counted(fcm.projects.count, "project", fcm.projects.map(\.id)))
        }
        if tlsCertificatePEM != nil { parts.append("tls: the config's certificate") }
        return "\(path ?? "no --config, the defaults"): ok: " + parts.joined(separator: "; ")
    }

    /// What `serve --check` warns of beside its summary: an app declared (or included) but installed on no device
    /// has no token and no phone to push to, which `devices:` from one included file can leave unnoticed.
    func checkWarnings() -> [String] {
        let hosted = Set(world.devices.flatMap(\.apps))
        let apps = world.apps.map(\.bundleID) + world.androidApps.map(\.packageName)
        return apps.filter { !hosted.contains($0) }.map { app in
            "warning: app '\(app)' is on no device (devices: "
                + (world.devices.isEmpty ? "none" : world.devices.map(\.name).joined(separator: ", "))
                + "): it gets no token and nothing pushed to it reaches a phone; list it in a device's apps:"
        }
    }
}
