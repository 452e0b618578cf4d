import DeviceBridge
import YAMLSource

/// The keys of `pushcheck serve`'s config file: what `ServeConfiguration.load` checks it against and what
/// `pushcheck schema` describes (a file with `listen:`, `tls:`, `apns:` or `fcm:` at its top is a serve config). The
/// world's keys are a suite world's (`SuiteKeys.world`): `include:`, `apps:`, `devices:`; the gateway's sections are
/// `WorldDeclaration.gatewayTable`'s, at the top level instead of under `gateway:`.
package enum ServeKeys {
    package static let listen = KeyTable(
        "serveListen", "Where serve listens: the address, and a port per listener (0 = an ephemeral port).",
        [
            .init("host", .text, "The address every listener binds (default 127.0.0.1, loopback only)."),
            .init("sandbox", .integer, "The APNs sandbox listener (TLS, HTTP/2)."),
            .init("production", .integer, "The APNs production listener (TLS, HTTP/2)."),
            .init("control", .integer, "The control endpoint and web console (cleartext HTTP/1.1 and h2c)."),
            .init("h2c", .boolean, "Also serve both APNs environments as cleartext HTTP/2 (prior knowledge)."),
            .init("h2c_sandbox", .integer, "The sandbox's cleartext listener (with h2c: true)."),
            .init("h2c_production", .integer, "The production's cleartext listener (with h2c: true)."),
            .init("idle_timeout", .duration, "Connections with no traffic this long are closed with GOAWAY (5m)."),
            .init("proxy", .integer, "An HTTP CONNECT proxy for api.*.push.apple.com (absent: no proxy)."),
            .init(
                "handshake_timeout", .duration,
                "TLS handshake and HTTP/2 preface deadline (10s, never beyond idle_timeout)."),
            .init("fcm", .integer, "The FCM listener (TLS; HTTP/2 and HTTP/1.1), with fcm: declared."),
            .init("h2c_fcm", .integer, "The FCM listener's cleartext twin (with h2c: true)."),
            .init(
                "broadcast_sandbox", .integer,
                "Channel management, sandbox (Apple: api-manage-broadcast.sandbox.push.apple.com:2195)."),
            .init(
                "broadcast_production", .integer,
                "Channel management, production (Apple: api-manage-broadcast.push.apple.com:2196)."),
        ])

    package static let tls = KeyTable(
        "serveTLS", "The listeners' TLS identity (absent: a local CA and a certificate it signs, written by --ca-out).",
        [
            .init("certificate", .file, "The certificate chain (PEM), leaf first.", required: true),
            .init("private_key", .file, "The leaf's private key (PEM).", required: true),
        ])

    /// The config file's top level.
    package static let config = KeyTable(
        "serve", "A pushcheck serve config: listeners, TLS, the mock gateways, and the apps and devices it hosts.",
        [
            .init("listen", .object(listen), "Where serve listens."),
            .init("tls", .object(tls), "The listeners' certificate and key."),
        ]
            + SuiteKeys.world.keys.filter { $0.name == "include" }
            + WorldDeclaration.gatewayTable.keys
            + SuiteKeys.world.keys.filter { ["apps", "devices"].contains($0.name) }
            + [SuiteKeys.schemaKey])

    /// Keys only a serve config has at its top (a file with one of them is read as one).
    package static let distinctive = ["listen", "tls", "apns", "fcm"]
}
