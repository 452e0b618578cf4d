import Foundation
import PushModel

/// A device token the mock knows, as an app installation on a device would have registered it.
package struct RegisteredDeviceToken: Sendable, Equatable {
    package var token: DeviceToken
    /// The app's bundle ID (push types' suffixes are stripped before comparing).
    package var topic: String
    package var environment: APNsEnvironment
    /// Set when the app was uninstalled / the token stopped being valid: 410 Unregistered.
    package var unregisteredAt: Date?
    /// When the token expires: 410 ExpiredToken from then on.
    package var expiresAt: Date?
    /// What the token was issued for (a simulated device's app says); nil for a token declared in the gateway's
    /// configuration, which takes every push type.
    package var kind: PushTokenKind?

    package init(
        token: DeviceToken, topic: String, environment: APNsEnvironment, unregisteredAt: Date? = nil,
        expiresAt: Date? = nil, kind: PushTokenKind? = nil
    ) {
        self.token = token
        self.topic = topic
        self.environment = environment
        self.unregisteredAt = unregisteredAt
        self.expiresAt = expiresAt
        self.kind = kind
    }
}

/// The registry's answer for one push.
package enum DeviceTokenVerdict: Sendable, Equatable {
    case accepted
    /// `timestamp` is set for 410 answers (when the token stopped being valid).
    case rejected(APNsReason, timestamp: Date?)
}

/// Which tokens exist, for which topic and environment. Pure value; the gateway keeps it in a Mutex.
/// Order: unknown token or other environment → BadDeviceToken; other bundle ID → DeviceTokenNotForTopic; a push
/// type APNs refuses at the token's kind (`PushTokenKind.outcome(of:at:)`: a VoIP push at a device token →
/// DeviceTokenNotForTopic, an alert at a VoIP token → TopicDisallowed); unregistered → 410 Unregistered; expired →
/// 410 ExpiredToken.
package struct DeviceTokenRegistry: Sendable, Equatable {
    package private(set) var entries: [DeviceToken: RegisteredDeviceToken] = [:]
    /// Load-test mode: unknown tokens are accepted for any topic.
    var acceptUnknownTokens: Bool

    package init(_ tokens: [RegisteredDeviceToken] = [], acceptUnknownTokens: Bool = false) {
        self.acceptUnknownTokens = acceptUnknownTokens
        for t in tokens { entries[t.token] = t }
    }

    package mutating func register(_ entry: RegisteredDeviceToken) { entries[entry.token] = entry }

    /// Marks the token unregistered at `date` (410 Unregistered with that timestamp afterwards).
    @discardableResult
    package mutating func unregister(_ token: DeviceToken, at date: Date) -> Bool {
        guard entries[token] != nil else { return false }
        entries[token]!.unregisteredAt = date
        return true
    }

    /// Forgets the token entirely (BadDeviceToken afterwards).
    package mutating func remove(_ token: DeviceToken) { entries[token] = nil }

    /// - Parameter pushType: the push's type (default: the one `topic`'s suffix implies, else alert).
    package func check(
        token: DeviceToken, topic: String, environment: APNsEnvironment, pushType: APNsPushType? = nil, now: Date
    ) -> DeviceTokenVerdict {
        guard let e = entries[token] else {
            return acceptUnknownTokens ? .accepted : .rejected(.badDeviceToken, timestamp: nil)
        }
        guard e.environment == environment else { return .rejected(.badDeviceToken, timestamp: nil) }
        guard e.topic == topic || APNsPushType.bundleID(ofTopic: topic) == APNsPushType.bundleID(ofTopic: e.topic)
        else {
            return .rejected(.deviceTokenNotForTopic, timestamp: nil)
        }
        if let kind = e.kind,
            case .refuse(let reason) = PushTokenKind.outcome(
                of: pushType ?? APNsPushType.impliedBy(topic: topic) ?? .alert, at: kind)
        {
            return .rejected(reason, timestamp: nil)
        }
        if let u = e.unregisteredAt, u <= now { return .rejected(.unregistered, timestamp: u) }
        if let x = e.expiresAt, x <= now { return .rejected(.expiredToken, timestamp: x) }
        return .accepted
    }
}
