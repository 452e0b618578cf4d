import Foundation
import PushModel
import YAMLSource

/// The `broadcast:` section of the `apns:` gateway config (serve's top-level `apns:`, a suite's
/// `gateway: { apns: }`), decoded with every mistake at its `file:line:col`.
///
/// ```yaml
/// apns:
///   broadcast:
///     apps: [com.example.sports]         # bundle IDs with the broadcast capability (absent: every app)
///     channels:                          # channels that exist from the start
///       - bundle_id: com.example.sports
///         channel_id: c3BvcnRzLWZpbmFs   # optional: base64, 1–64 bytes (absent: generated from `seed`)
///         environment: sandbox           # default sandbox
///         message_storage_policy: 1      # 0 No Message Stored, 1 Most Recent Message Stored
///     max_channels: 10000                # per app and environment (CannotCreateChannelConfig past it)
///     rate_limit: { burst: 10, per_second: 1 }   # sends per channel → 429 TooManyRequests (absent: off)
///     max_payload_bytes: 5120            # PayloadTooLarge past it
///     seed: 42                           # generated channel ids from this seed (absent: random)
/// ```
extension APNsBroadcastConfiguration {
    package static let keyTable = KeyTable(
        "apnsBroadcast", "iOS 18 broadcast channels (Apple's channel management API and broadcast sends).",
        [
            .init("apps", .list(.text), "Bundle IDs with the broadcast capability (absent: every app)."),
            .init("channels", .list(.object(channelTable)), "Channels that exist from the start."),
            .init("max_channels", .integer, "Channels per app and environment (default 10000)."),
            .init("rate_limit", .object(rateLimitTable), "Sends per channel; past it, 429 TooManyRequests."),
            .init(
                "max_payload_bytes", .byteSize,
                "Broadcast payload limit (default 5120, Apple's 5 KB; PayloadTooLarge past it)."),
            .init("seed", .integer, "Generated channel ids from this seed (absent: random)."),
        ])

    static let channelTable = KeyTable(
        "apnsBroadcastChannel", "A broadcast channel: its app, id, environment and storage policy.",
        [
            .init("bundle_id", .text, "The app's bare bundle ID.", required: true),
            .init("channel_id", .text, "Base64, 1-64 bytes (absent: generated from seed)."),
            .init("environment", .oneOf(APNsEnvironment.allCases.map(\.rawValue)), "sandbox (default) or production."),
            .init(
                "message_storage_policy", .integer,
                "0 No Message Stored, 1 Most Recent Message Stored (8 h).", required: true),
        ])

    static let rateLimitTable = KeyTable(
        "apnsBroadcastRateLimit", "A token bucket per channel; past it, 429 TooManyRequests.",
        [
            .init("burst", .integer, "Sends allowed at once (at least 1).", required: true),
            .init("per_second", .number, "Sends added back per second (above 0).", required: true),
        ])

    /// Decodes a `broadcast:` mapping.
    package static func decode(_ m: YAMLMapping) throws(SourceError) -> APNsBroadcastConfiguration {
        try m.checkKeys(keyTable)
        var config = APNsBroadcastConfiguration()
        config.enabledApps = try m.optional("apps", as: [String].self).map(Set.init)
        var seen: Set<String> = []
        for node in try m.optionalSequence("channels") ?? [] {
            let channel = try decodeChannel(node)
            if let apps = config.enabledApps, !apps.contains(channel.bundleID) {
                throw SourceError(
                    .invalidValue, "'\(channel.bundleID)' has no broadcast capability here", at: node.range,
                    expected: "a bundle ID listed in broadcast.apps",
                    suggestion: "add it to apps: (APNs answers FeatureNotEnabled for an app without the capability)")
            }
            if let id = channel.channelID {
                guard seen.insert(channel.environment.rawValue + "/" + id).inserted else {
                    throw SourceError(
                        .invalidValue, "channel '\(id)' is declared twice in \(channel.environment.rawValue)",
                        at: node.range, expected: "each channel id once per environment")
                }
            }
            config.channels.append(channel)
        }
        if let n = try m.optional("max_channels", as: Int.self) {
            guard n >= 1 else { throw m["max_channels"]!.invalidValue(expected: "expected at least 1 channel") }
            config.channelLimit = n
        }
        if let limit = try m.optionalMapping("rate_limit", keys: rateLimitTable) {
            let burst = try limit.required("burst", as: Int.self)
            let rate = try limit.required("per_second", as: Double.self)
            guard burst >= 1 else { throw limit["burst"]!.invalidValue(expected: "expected a burst of at least 1") }
            guard rate > 0 else { throw limit["per_second"]!.invalidValue(expected: "expected a rate above 0") }
            config.rateLimit = APNsRateLimit(burst: burst, perSecond: rate)
        }
        if let size = try m.optional("max_payload_bytes", as: ByteSize.self) {
            guard size.bytes >= 1 else {
                throw m["max_payload_bytes"]!.invalidValue(expected: "expected at least 1 byte")
            }
            config.maxPayloadBytes = size.bytes
        }
        if let seed = try m.optional("seed", as: Int.self) {
            guard seed >= 0 else { throw m["seed"]!.invalidValue(expected: "expected a seed of 0 or more") }
            config.seed = UInt64(seed)
        }
        return config
    }

    /// One `channels:` entry (also the body of the control endpoint's `POST /apns/channels`).
    package static func decodeChannel(_ node: YAMLNode) throws(SourceError) -> APNsChannelDeclaration {
        let c = try node.mapping(keys: channelTable)
        let bundleID = try c.required("bundle_id", as: String.self)
        if let type = APNsPushType.impliedBy(topic: bundleID) {
            throw c["bundle_id"]!.invalidValue(
                expected: "a bare bundle ID",
                suggestion: "drop '\(type.topicSuffix)' (APNs answers TopicDisallowed for a push-type suffix)")
        }
        let channelID = try c.optional("channel_id", as: String.self)
        if let channelID, !BroadcastChannelID.isValid(channelID) {
            throw c["channel_id"]!.invalidValue(
                expected: "a base64 channel id of 1–\(BroadcastChannelID.maxDecodedBytes) bytes, e.g. c3BvcnRzLWZpbmFs",
                suggestion: "encode it: printf 'sports-final' | base64")
        }
        let policyNode = try c.required("message_storage_policy", as: YAMLNode.self)
        guard let n = try? Int.decode(from: policyNode), let policy = APNsMessageStoragePolicy(rawValue: n) else {
            throw policyNode.invalidValue(expected: "expected 0 (No Message Stored) or 1 (Most Recent Message Stored)")
        }
        return APNsChannelDeclaration(
            bundleID: bundleID, channelID: channelID,
            environment: try c.optional("environment", as: APNsEnvironment.self) ?? .sandbox, storagePolicy: policy)
    }
}
