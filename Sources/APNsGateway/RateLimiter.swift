import Foundation
import PushModel

/// A per-device-token limit: a token bucket of `burst` requests refilled at `perSecond`.
package struct APNsRateLimit: Sendable, Equatable {
    var burst: Int
    var perSecond: Double
    package init(burst: Int, perSecond: Double) {
        self.burst = burst
        self.perSecond = perSecond
    }
}

/// Token buckets per device token on the injected clock (TooManyRequests when empty).
package typealias PerTokenRateLimiter = PerKeyRateLimiter<DeviceToken>

/// Token buckets per key (a device token, a broadcast channel) on the injected clock. Pure value.
package struct PerKeyRateLimiter<Key: Hashable & Sendable>: Sendable {
    package var limit: APNsRateLimit?
    private var buckets: [Key: (tokens: Double, updated: Date)] = [:]

    package init(limit: APNsRateLimit?) { self.limit = limit }

    /// Takes one request from the key's bucket; false when it is empty (or always true when off).
    package mutating func allow(_ token: Key, now: Date) -> Bool {
        guard let limit, limit.burst > 0 else { return limit == nil }
        var b = buckets[token] ?? (Double(limit.burst), now)
        let elapsed = max(0, now.timeIntervalSince(b.updated))
        b.tokens = min(Double(limit.burst), b.tokens + elapsed * limit.perSecond)
        b.updated = now
        guard b.tokens >= 1 else {
            buckets[token] = b
            return false
        }
        b.tokens -= 1
        buckets[token] = b
        return true
    }

    package mutating func reset() { buckets = [:] }
}
