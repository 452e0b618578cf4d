import Foundation
import PushModel

/// A channel's `message-storage-policy` ("Sending channel management requests to APNs"; Tests/reference/apns.md
/// §8.1): fixed when the channel is created.
package enum APNsMessageStoragePolicy: Int, Sendable, Hashable, CaseIterable {
    /// `0` No Message Stored: "allows a higher publishing budget"; sends must carry `apns-expiration: 0`.
    case noMessageStored = 0
    /// `1` Most Recent Message Stored: the latest message is kept for at most 8 hours for late subscribers.
    case mostRecentMessageStored = 1

    /// How long a Most Recent Message Stored channel keeps its latest message at most (Apple: "a maximum
    /// duration of 8 hours"; an earlier `apns-expiration` shortens it).
    static let maximumStorage: TimeInterval = 8 * 3600
}

/// A channel that exists from the start (config `broadcast: { channels: [...] }`).
package struct APNsChannelDeclaration: Sendable, Equatable {
    package var bundleID: String
    /// The base64 channel id; `nil`: one is generated (from `APNsBroadcastConfiguration.seed`).
    package var channelID: String?
    package var environment: APNsEnvironment
    package var storagePolicy: APNsMessageStoragePolicy

    package init(
        bundleID: String, channelID: String? = nil, environment: APNsEnvironment = .sandbox,
        storagePolicy: APNsMessageStoragePolicy = .mostRecentMessageStored
    ) {
        self.bundleID = bundleID
        self.channelID = channelID
        self.environment = environment
        self.storagePolicy = storagePolicy
    }
}

/// How the gateway models broadcast push (iOS 18): which apps have the capability, the channels that exist
/// from the start, the per-app channel limit, a per-channel send limit and the payload limit.
package struct APNsBroadcastConfiguration: Sendable, Equatable {
    /// Bundle IDs with the broadcast capability (Apple: set on developer.apple.com only); others get
    /// `FeatureNotEnabled`. `nil`: every app has it.
    var enabledApps: Set<String>?
    package var channels: [APNsChannelDeclaration] = []
    /// Channels one app may have per environment (Apple: "up to 10,000 channels for your app in the development
    /// and production environment, respectively"); past it, `CannotCreateChannelConfig`.
    var channelLimit = 10_000
    /// Sends per channel (a token bucket) before `TooManyRequests`; `nil`: off. Apple gives no number.
    var rateLimit: APNsRateLimit?
    /// Seeds the generated channel ids (the same seed, the same ids); `nil`: a random seed per gateway.
    package var seed: UInt64?
    /// The largest broadcast payload: "limited to a maximum size of 5 KB (5,120 bytes)" (Apple's broadcast page,
    /// Tests/reference/apns.md §8.2).
    package var maxPayloadBytes = 5120

    package init() {}

    /// Whether `bundleID` has the broadcast capability.
    func isEnabled(_ bundleID: String) -> Bool { enabledApps?.contains(bundleID) ?? true }
}

/// Channel ids as APNs hands them out: base64 (standard alphabet, `=` padding). Apple: "don't make assumptions on
/// the channel ID size"; `BadChannelId` is "not properly encoded, or greater than the allowed length", a length it
/// does not give, so pushcheck allows 1–64 bytes once decoded (Choice) and generates 16 random bytes.
package enum BroadcastChannelID {
    /// The most bytes a channel id may decode to (a modelling choice).
    static let maxDecodedBytes = 64

    /// Whether `text` is a channel id APNs could have issued (`BadChannelId` otherwise).
    package static func isValid(_ text: String) -> Bool {
        guard let bytes = decode(text) else { return false }
        return (1...maxDecodedBytes).contains(bytes.count)
    }

    /// The bytes of standard base64 `text`, or `nil` when it is not base64 (length a multiple of 4, padding only
    /// at the end).
    package static func decode(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count % 4 == 0 else { return nil }
        guard let data = Data(base64Encoded: text) else { return nil }
        return Array(data)
    }

    /// A new id: 16 bytes from `generator`, base64.
    package static func generate(_ generator: inout SplitMix64) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<2 { withUnsafeBytes(of: generator.next().littleEndian) { bytes += $0 } }
        return Data(bytes).base64EncodedString()
    }
}
