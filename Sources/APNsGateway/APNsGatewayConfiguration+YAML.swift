import Foundation
import PushCrypto
import PushModel
import YAMLSource

/// The `apns:` section of `pushcheck serve`'s config (and, later, of a suite's world), decoded with
/// every mistake reported at its `file:line:col`.
///
/// ```yaml
/// apns:
///   keys:
///     - key_id: KEY1234567          # 10 characters, as in AuthKey_KEY1234567.p8
///       team_id: TEAM123456
///       private_key: AuthKey_KEY1234567.p8   # or public_key: key.pub.pem (paths relative to this file)
///       environment: sandbox        # optional: key scoped to one environment
///       topics: [com.example.app]   # optional: topic-specific key
///   teams: { TEAM123456: [com.example.app] }   # optional: bundle IDs each team may push to
///   tokens:
///     - token: 7c1f…                # hex
///       topic: com.example.app
///       environment: sandbox
///       unregistered_at: 2026-01-01T00:00:00Z   # optional → 410 Unregistered with this timestamp
///       expires_at: 2026-06-01T00:00:00Z        # optional → 410 ExpiredToken from then on
///   accept_unknown_tokens: false
///   rate_limit: { burst: 10, per_second: 1 }    # per device token → 429 TooManyRequests
///   faults:
///     - { respond: 503, reason: ServiceUnavailable, endpoint: production, count: 3 }
///     - { delay: 250ms, token: 7c1f… }
///     - { goaway: Shutdown, after_requests: 100 }
///     - { drop: true, count: 1 }
///   log: { capacity: 10000, max_bytes: 64MiB, max_payload_bytes: 8KiB, file: apns-log.jsonl }
///   max_concurrent_streams: 1500
///   one_stream_until_valid_token: true
///   allow_http1: false               # true: HTTP/1.1 pushes are answered too (APNs answers none)
///   devices_online: true
///   client_certificate_cas: [ca.pem]            # issuers accepted for certificate auth
///   certificate_topics: [com.example.app]       # apps certificate auth is accepted for (else TopicDisallowed)
///   broadcast: { … see APNsBroadcastConfiguration.decode … }   # iOS 18 broadcast channels
/// ```
/// The keys of each mapping are the tables in APNsGatewayConfiguration+Keys.swift.
extension APNsGatewayConfiguration {
    /// Decodes an `apns:` mapping. Relative paths resolve against `file`'s directory.
    /// `clientCertificateCAs` receives the PEM text of the `client_certificate_cas` files (the TLS
    /// listener must request certificates from those issuers).
    package static func decode(
        _ m: YAMLMapping, file: String, clientCertificateCAs: inout [String]
    ) throws(SourceError) -> APNsGatewayConfiguration {
        try m.checkKeys(keyTable)
        var config = APNsGatewayConfiguration()
        var keyLines: [String: Int] = [:]
        for node in try m.optionalSequence("keys") ?? [] {
            let key = try decodeKey(node, file: file)
            let idNode = node["key_id"] ?? node
            // Apple's key IDs are unique: with two keys under one ID the gateway verified tokens with the last one
            // only, and a token signed with the first got InvalidProviderToken with no hint why.
            if let first = keyLines[key.keyID] {
                throw SourceError(
                    .invalidValue, "two keys have the key ID '\(key.keyID)'", at: idNode.range,
                    expected: "expected one key per key ID (the first is at line \(first))",
                    suggestion: "remove one, or give it the key ID of its AuthKey_<key id>.p8 file")
            }
            keyLines[key.keyID] = idNode.range.start.line
            config.providerKeys.append(key)
        }
        if let teams = try m.optionalMapping("teams") {
            for pair in teams.pairs {
                config.teamTopics[pair.keyString] = Set(try [String].decode(from: pair.value))
            }
        }
        for node in try m.optionalSequence("tokens") ?? [] {
            config.deviceTokens.append(try decodeToken(node))
        }
        config.acceptUnknownTokens = try m.optional("accept_unknown_tokens", as: Bool.self) ?? false
        if let limit = try m.optionalMapping("rate_limit", keys: rateLimitTable) {
            let burst = try m.positive(limit, "burst")
            let rate = try limit.required("per_second", as: Double.self)
            guard rate > 0 else { throw limit["per_second"]!.invalidValue(expected: "expected a rate above 0") }
            config.rateLimit = APNsRateLimit(burst: burst, perSecond: rate)
        }
        for node in try m.optionalSequence("faults") ?? [] {
            config.faults.append(try decodeFault(node))
        }
        if let log = try m.optionalMapping("log", keys: logTable) {
            config.logCapacity = try m.positive(log, "capacity", default: config.logCapacity)
            if let size = try log.optional("max_bytes", as: ByteSize.self) {
                guard size.bytes >= 1 << 20 else {
                    throw log["max_bytes"]!.invalidValue(expected: "expected at least 1MiB")
                }
                config.logMaxBytes = size.bytes
            }
            if let size = try log.optional("max_payload_bytes", as: ByteSize.self) {
                guard size.bytes >= 1 else {
                    throw log["max_payload_bytes"]!.invalidValue(expected: "expected at least 1 byte")
                }
                config.logMaxStoredPayload = size.bytes
            }
            config.logFilePath = try log.optional("file", as: String.self).map {
                YAMLLoader.resolve(include: $0, from: file)
            }
        }
        if let streams = try m.optional("max_concurrent_streams", as: Int.self) {
            guard (1...Int(UInt32.max)).contains(streams) else {
                throw m["max_concurrent_streams"]!.invalidValue(expected: "expected a stream count of at least 1")
            }
            config.maxConcurrentStreams = UInt32(streams)
        }
        config.oneStreamUntilValidToken = try m.optional("one_stream_until_valid_token", as: Bool.self) ?? true
        config.devicesOnlineByDefault = try m.optional("devices_online", as: Bool.self) ?? true
        config.requireHTTP2 = !(try m.optional("allow_http1", as: Bool.self) ?? false)
        for node in try m.optionalSequence("client_certificate_cas") ?? [] {
            let pem = String(decoding: try node.referencedFile(from: file).bytes, as: UTF8.self)
            // The listeners' TLS refuses a CA file without a certificate when it starts: said here, at its line.
            guard (try? CertificateInfo(pem: pem)) != nil else {
                throw SourceError(
                    .invalidValue, "no certificate in '\((try? String.decode(from: node)) ?? "")'", at: node.range,
                    expected: "a PEM file holding at least one CA certificate (-----BEGIN CERTIFICATE-----)")
            }
            clientCertificateCAs.append(pem)
        }
        config.certificateTopics = try m.optional("certificate_topics", as: [String].self).map(Set.init)
        if let broadcast = try m.optionalMapping("broadcast") {
            config.broadcast = try APNsBroadcastConfiguration.decode(broadcast)
        }
        if !clientCertificateCAs.isEmpty {
            config.certificateInspector = APNsClientCertificate.inspector(trustedCAPEMs: clientCertificateCAs)
        }
        return config
    }

    private static func decodeKey(_ node: YAMLNode, file: String) throws(SourceError) -> APNsProviderKey {
        let k = try node.mapping(keys: providerKeyTable)
        let keyID = try k.required("key_id", as: String.self)
        let teamID = try k.required("team_id", as: String.self)
        let which = try k.exactlyOne(of: ["private_key", "public_key"])
        let pathNode = k[which]!
        let (path, bytes) = try pathNode.referencedFile(from: file)
        let pem = String(decoding: bytes, as: UTF8.self)
        let environment = try k.optional("environment", as: APNsEnvironment.self)
        let topics = try k.optional("topics", as: [String].self).map(Set.init)
        do {
            return try APNsProviderKey(
                keyID: keyID, teamID: teamID, pem: pem, environment: environment, topics: topics,
                relatedKeyID: try k.optional("related_key_id", as: String.self))
        } catch {
            throw SourceError(
                .invalidValue, "cannot use '\(path)' as the key for \(keyID)", at: pathNode.range,
                expected: "expected an EC P-256 key in PEM (the .p8 file Apple gave you, or its public key)",
                suggestion: "\(error)")
        }
    }

    /// One `tokens:` entry (also the body of the control endpoint's POST /apns/tokens).
    package static func decodeToken(_ node: YAMLNode) throws(SourceError) -> RegisteredDeviceToken {
        let t = try node.mapping(keys: tokenTable)
        let token = try t.required("token", as: DeviceToken.self)
        return RegisteredDeviceToken(
            token: token, topic: try t.required("topic", as: String.self),
            environment: try t.optional("environment", as: APNsEnvironment.self) ?? .sandbox,
            unregisteredAt: try t.optional("unregistered_at", as: YAMLDate.self)?.date,
            expiresAt: try t.optional("expires_at", as: YAMLDate.self)?.date)
    }

    /// One `faults:` entry (also the body of the control endpoint's POST /apns/faults).
    package static func decodeFault(_ node: YAMLNode) throws(SourceError) -> APNsFault {
        let f = try node.mapping(keys: faultTable)
        let kind = try f.exactlyOne(of: ["respond", "delay", "goaway", "drop"])
        let action: APNsFaultAction
        switch kind {
        case "respond":
            action = try decodeForcedAnswer(f)
        case "delay":
            let duration = try f.required("delay", as: Duration.self)
            action = .delay(
                seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        case "goaway":
            let reason = try f["goaway"]!.oneOf(faultReasons)
            action = .goAway(reason: reason, afterRequests: try f.optional("after_requests", as: Int.self) ?? 0)
        default:
            guard try f.required("drop", as: Bool.self) else {
                throw f["drop"]!.invalidValue(
                    expected: "expected 'drop: true'", suggestion: "remove the fault to turn it off")
            }
            action = .dropConnection
        }
        let scope = APNsFaultScope(
            endpoint: try f.optional("endpoint", as: APNsEnvironment.self),
            token: try f.optional("token", as: DeviceToken.self),
            route: try f.optional("route", oneOf: APNsFaultRoute.allCases.map(\.rawValue)).flatMap(
                APNsFaultRoute.init(rawValue:)))
        let count = try f.optional("count", as: Int.self)
        if let count, count < 1 { throw f["count"]!.invalidValue(expected: "expected a count of at least 1") }
        return APNsFault(action, scope: scope, count: count)
    }

    /// The reasons a fault may answer with: Apple's device-token table and its broadcast table (which adds
    /// `FeatureNotEnabled`, `TopicMismatch`, the channel reasons and `Service Unavailable` written with a space).
    static let faultReasons: [String] = {
        var out = APNsReason.allCases.map(\.rawValue)
        for r in APNsBroadcastReason.allCases where !out.contains(r.rawValue) { out.append(r.rawValue) }
        return out
    }()

    /// A `respond:` fault's answer: a status APNs answers with, and a reason Apple pairs with that status (given, or
    /// the status's only or documented one). APNs never sends a reason with another status, nor an error body with a
    /// 200 or a 3xx; a fault that did would test a client against answers production never gives.
    static func decodeForcedAnswer(_ f: YAMLMapping) throws(SourceError) -> APNsFaultAction {
        let status = try f.required("respond", as: Int.self)
        let statuses = faultStatuses.map(String.init).joined(separator: ", ")
        guard faultStatuses.contains(status) else {
            throw f["respond"]!.invalidValue(
                expected: "expected a status APNs answers a push with: \(statuses)",
                suggestion: status < 300
                    ? "a success is what a push the rules accept gets; to slow it down, use 'delay:'" : nil)
        }
        let reasonsOfStatus = faultReasons.filter { faultStatuses(of: $0).contains(status) }
        guard let node = f["reason"] else {
            guard let reason = defaultReason(for: status) else {
                throw f["respond"]!.invalidValue(
                    expected: "expected a 'reason:' beside 'respond: \(status)': APNs has several \(status) reasons",
                    suggestion: "add 'reason:' with one of: \(reasonsOfStatus.joined(separator: ", "))")
            }
            return .respond(status: status, reason: reason)
        }
        let reason = try node.oneOf(faultReasons)
        guard reasonsOfStatus.contains(reason) else {
            let its = faultStatuses(of: reason).map(String.init).joined(separator: " or ")
            throw node.invalidValue(
                expected: "APNs sends '\(reason)' with \(its), never with \(status)",
                suggestion: "write 'respond: \(its)', or a \(status) reason: \(reasonsOfStatus.joined(separator: ", "))"
            )
        }
        return .respond(status: status, reason: reason)
    }

    /// The statuses of Apple's two reason tables (device-token and broadcast).
    static let faultStatuses: [Int] = Array(Set(faultReasons.flatMap { faultStatuses(of: $0) })).sorted()

    /// The statuses `reason` comes with, in either table.
    static func faultStatuses(of reason: String) -> [Int] {
        var out: [Int] = []
        if let r = APNsReason(rawValue: reason) { out.append(r.status) }
        if let r = APNsBroadcastReason(rawValue: reason), !out.contains(r.status) { out.append(r.status) }
        return out
    }

    /// The reason a `respond:` fault gives when it names none: the status's only reason, or the usual one of 429
    /// (TooManyRequests) and 503 (ServiceUnavailable); `nil` for 400, 403 and 410, whose reasons mean different things.
    static func defaultReason(for status: Int) -> String? {
        switch status {
        case 429: return APNsReason.tooManyRequests.rawValue
        case 503: return APNsReason.serviceUnavailable.rawValue
        default:
            let reasons = APNsReason.allCases.filter { $0.status == status }
            return reasons.count == 1 ? reasons[0].rawValue : nil
        }
    }
}

extension YAMLMapping {
    fileprivate func positive(_ m: YAMLMapping, _ key: String, default value: Int? = nil) throws(SourceError) -> Int {
        guard let n = try (value == nil ? m.required(key, as: Int.self) : m.optional(key, as: Int.self)) ?? value else {
            throw SourceError(.missingKey, "missing required key '\(key)'", at: m.range)
        }
        guard n >= 1 else { throw m[key]!.invalidValue(expected: "expected a whole number of at least 1") }
        return n
    }
}

extension DeviceToken: YAMLDecodable {
    package static func decode(from node: YAMLNode) throws(SourceError) -> DeviceToken {
        let text = try String.decode(from: node)
        guard let token = DeviceToken(hex: text) else {
            throw node.invalidValue(expected: "expected a device token in hex (an even number of 0-9a-f characters)")
        }
        return token
    }
}

extension APNsEnvironment: YAMLDecodable {}

/// A point in time in YAML: ISO 8601 (`2026-01-01T00:00:00Z`) or milliseconds since the epoch (as in APNs' 410 `timestamp`).
struct YAMLDate: YAMLDecodable {
    var date: Date
    static func decode(from node: YAMLNode) throws(SourceError) -> YAMLDate {
        if case .int(let ms)? = node.value { return YAMLDate(date: Date(timeIntervalSince1970: Double(ms) / 1000)) }
        let text = try String.decode(from: node)
        if let date = ISO8601.date(text, fractionalSeconds: true) { return YAMLDate(date: date) }
        throw node.invalidValue(
            expected: "expected an ISO 8601 time such as 2026-01-01T00:00:00Z, or milliseconds since 1970")
    }
}
