import PushModel
import YAMLSource

/// The keys of the `apns:` section and of each mapping inside it: what `decode` checks a file against and what
/// `pushcheck schema` describes (APNsGatewayConfiguration+YAML.swift shows them in use).
extension APNsGatewayConfiguration {
    static let environments = ValueShape.oneOf(APNsEnvironment.allCases.map(\.rawValue))
    static let reasons = ValueShape.oneOf(APNsReason.allCases.map(\.rawValue))
    /// What a fault may answer: Apple's device-token reasons and its broadcast ones.
    static let faultReasonShape = ValueShape.oneOf(faultReasons)

    package static let keyTable = KeyTable(
        "apns", "The mock APNs gateway: provider keys, known tokens, faults, limits (serve's apns: section).",
        [
            .init("keys", .list(.object(providerKeyTable)), "Provider keys (.p8) whose tokens the gateway accepts."),
            .init(
                "teams", .dictionary(keys: "team id", .list(.text)),
                "The bundle ids each team may push to (else any topic)."),
            .init("tokens", .list(.object(tokenTable)), "Device tokens the gateway knows, with their app and fate."),
            .init("accept_unknown_tokens", .boolean, "Deliver to tokens no device registered (default false)."),
            .init("rate_limit", .object(rateLimitTable), "Per device token: past it, 429 TooManyRequests."),
            .init("faults", .list(.object(faultTable)), "Injected failures: a status, a delay, GOAWAY or a drop."),
            .init("log", .object(logTable), "The delivery log: how much it keeps, and a JSON-lines file."),
            .init(
                "max_concurrent_streams", .integer, "SETTINGS_MAX_CONCURRENT_STREAMS once authenticated (default 1500)."
            ),
            .init(
                "one_stream_until_valid_token", .boolean,
                "Token connections get one stream until a request carries a valid token (default true)."),
            .init("devices_online", .boolean, "Whether devices start online (default true)."),
            .init(
                "allow_http1", .boolean,
                "Also answer HTTP/1.1 pushes, which APNs never does (default false: 505 HTTP2Required)."),
            .init(
                "client_certificate_cas", .list(.file),
                "PEM files of the issuers accepted for certificate authentication."),
            .init(
                "certificate_topics", .list(.text),
                "The apps certificate authentication is accepted for (else TopicDisallowed)."),
            .init(
                "broadcast", .object(APNsBroadcastConfiguration.keyTable),
                "iOS 18 broadcast channels: apps with the capability, channels from the start, limits."),
        ])

    static let providerKeyTable = KeyTable(
        "apnsProviderKey", "A provider key: its id, team and PEM (private .p8 or public).",
        [
            .init("key_id", .text, "The 10-character key id (AuthKey_<key_id>.p8).", required: true),
            .init("team_id", .text, "The team the key belongs to.", required: true),
            .init("private_key", .file, "The .p8 file (pushcheck can then sign with it too)."),
            .init("public_key", .file, "The key's public half in PEM, instead of private_key."),
            .init("environment", environments, "Scope the key to one environment."),
            .init("topics", .list(.text), "Scope the key to these topics."),
            .init(
                "related_key_id", .text,
                "A topic-specific key's one related key: the two may alternate on a connection."),
        ])

    static let tokenTable = KeyTable(
        "apnsToken", "A device token the gateway knows.",
        [
            .init("token", .text, "The token, hex.", required: true),
            .init("topic", .text, "The bundle id it belongs to.", required: true),
            .init("environment", environments, "The environment it was issued for (default sandbox)."),
            .init(
                "unregistered_at", .date(orMilliseconds: true),
                "From then on: 410 Unregistered with this timestamp."),
            .init("expires_at", .date(orMilliseconds: true), "From then on: 410 ExpiredToken."),
        ])

    static let rateLimitTable = KeyTable(
        "apnsRateLimit", "A token bucket per device token; past it, 429 TooManyRequests.",
        [
            .init("burst", .integer, "Requests allowed at once (at least 1).", required: true),
            .init("per_second", .number, "Requests added back per second (above 0).", required: true),
        ])

    static let faultTable = KeyTable(
        "apnsFault", "One injected failure: exactly one of respond, delay, goaway, drop; optionally scoped.",
        [
            .init(
                "respond", .integer,
                "Answer with this error status of APNs (400, 403, 404, 405, 410, 413, 429, 500 or 503)."),
            .init(
                "reason", faultReasonShape,
                "The reason with respond, one Apple pairs with that status (needed with 400, 403 and 410)."),
            .init("delay", .duration, "Answer after this long."),
            .init("goaway", reasons, "Send GOAWAY with this reason."),
            .init("after_requests", .integer, "With goaway: after this many requests on the connection."),
            .init("drop", .boolean, "Close the connection without answering (drop: true)."),
            .init("endpoint", environments, "Only requests to this environment."),
            .init("token", .text, "Only requests to this device token (hex)."),
            .init(
                "route", .oneOf(APNsFaultRoute.allCases.map(\.rawValue)),
                "Only this route: device-token pushes, broadcast sends or channel management."),
            .init("count", .integer, "Only this many times (at least 1; default: every time)."),
        ])

    static let logTable = KeyTable(
        "apnsLog", "The delivery log.",
        [
            .init("capacity", .integer, "Entries kept in memory (at least 1)."),
            .init("file", .file, "Also append every entry to this JSON-lines file."),
            .init("max_bytes", .byteSize, "Rotate the file past this size (at least 1MiB)."),
            .init("max_payload_bytes", .byteSize, "Store at most this much of each payload."),
        ])
}
