import Foundation
import PushModel

/// A broadcast channel APNs keeps for an app in one environment.
package struct BroadcastChannel: Sendable, Equatable {
    /// Base64, as in `apns-channel-id`.
    package var id: String
    package var bundleID: String
    package var environment: APNsEnvironment
    package var storagePolicy: APNsMessageStoragePolicy
    package var createdAt: Date
}

/// The broadcast channels of both environments, the latest message of each Most Recent Message Stored channel and
/// the per-channel send limit. Pure value (no I/O, no clock of its own); the gateway holds it in its Mutex.
///
/// Apple's rules (Tests/reference/apns.md §8.1): channel ids are random ("you can't request a channel with a specific
/// ID"); "Channels can't be shared across environments"; a deleted id "can't be created again"; the storage
/// policy "can't be modified later"; a channel lives on with no subscribers. Apple says deleting "doesn't discard
/// pending messages immediately. APNs may still deliver stored messages after you delete the channel": pushcheck
/// discards the stored message at once, so no suite can come to rely on that "may".
package struct BroadcastChannelStore: Sendable {
    struct Key: Hashable {
        var environment: APNsEnvironment
        var id: String
    }

    /// A stored message and when it stops being handed to late subscribers.
    struct StoredMessage: Sendable {
        var push: DeliveredPush
        var until: Date
    }

    package let limit: Int
    private(set) var channels: [Key: BroadcastChannel] = [:]
    /// Creation order, for `all-channels` (deleted ones removed).
    private var order: [Key] = []
    private var deleted: Set<Key> = []
    private var stored: [Key: StoredMessage] = [:]
    private var generator: SplitMix64
    var limiter: PerKeyRateLimiter<Key>

    package init(limit: Int = 10_000, seed: UInt64, rateLimit: APNsRateLimit? = nil) {
        self.limit = limit
        generator = SplitMix64(seed: seed)
        limiter = PerKeyRateLimiter(limit: rateLimit)
    }

    /// The channel `id` of `bundleID` in `environment`, if it exists (`nil` for another app's id, as APNs
    /// answers `ChannelNotRegistered` then).
    package func channel(_ id: String, bundleID: String? = nil, in environment: APNsEnvironment) -> BroadcastChannel? {
        guard let c = channels[Key(environment: environment, id: id)] else { return nil }
        if let bundleID, c.bundleID != bundleID { return nil }
        return c
    }

    /// The ids of `bundleID`'s channels in `environment`, oldest first.
    package func ids(of bundleID: String, in environment: APNsEnvironment) -> [String] {
        order.filter { $0.environment == environment && channels[$0]?.bundleID == bundleID }.map(\.id)
    }

    /// Every channel, oldest first (both environments).
    package var all: [BroadcastChannel] { order.compactMap { channels[$0] } }

    /// Creates a channel with a new random id; `CannotCreateChannelConfig` once the app has `limit` in
    /// `environment`.
    package mutating func create(
        bundleID: String, in environment: APNsEnvironment, policy: APNsMessageStoragePolicy, now: Date
    ) -> Result<BroadcastChannel, APNsBroadcastReason> {
        var id: String
        repeat {
            id = BroadcastChannelID.generate(&generator)
        } while channels[Key(environment: environment, id: id)] != nil
            || deleted.contains(Key(environment: environment, id: id))
        return add(id: id, bundleID: bundleID, in: environment, policy: policy, now: now)
    }

    /// Adds a channel with a given id (a configured one); `CannotCreateChannelConfig` past the limit, `BadChannelId`
    /// for an id that is not base64, or one that exists or existed.
    package mutating func add(
        id: String, bundleID: String, in environment: APNsEnvironment, policy: APNsMessageStoragePolicy, now: Date
    ) -> Result<BroadcastChannel, APNsBroadcastReason> {
        let key = Key(environment: environment, id: id)
        guard BroadcastChannelID.isValid(id), channels[key] == nil, !deleted.contains(key) else {
            return .failure(.badChannelId)
        }
        guard count(of: bundleID, in: environment) < limit else { return .failure(.cannotCreateChannelConfig) }
        let channel = BroadcastChannel(
            id: id, bundleID: bundleID, environment: environment, storagePolicy: policy, createdAt: now)
        channels[key] = channel
        order.append(key)
        return .success(channel)
    }

    /// Deletes a channel (its stored message goes too); false when it does not exist.
    @discardableResult
    package mutating func delete(_ id: String, in environment: APNsEnvironment) -> Bool {
        let key = Key(environment: environment, id: id)
        guard channels.removeValue(forKey: key) != nil else { return false }
        order.removeAll { $0 == key }
        deleted.insert(key)
        stored[key] = nil
        return true
    }

    /// How many channels `bundleID` has in `environment`.
    func count(of bundleID: String, in environment: APNsEnvironment) -> Int {
        channels.values.lazy.filter { $0.environment == environment && $0.bundleID == bundleID }.count
    }

    /// Keeps `push` as the channel's latest message when the channel stores one: until its `apns-expiration`, at
    /// most 8 hours after it arrived; `apns-expiration: 0` or one already past keeps nothing (and drops the older
    /// message: the channel's most recent message is this one).
    mutating func keepLatest(_ push: DeliveredPush, in channel: BroadcastChannel, now: Date) {
        guard channel.storagePolicy == .mostRecentMessageStored else { return }
        let key = Key(environment: channel.environment, id: channel.id)
        let cap = now.addingTimeInterval(APNsMessageStoragePolicy.maximumStorage)
        let until = push.expiration.map { min($0, cap) } ?? cap
        stored[key] = until > now ? StoredMessage(push: push, until: until) : nil
    }

    /// The message a late subscriber gets: the latest one of a Most Recent Message Stored channel, until it
    /// expires; `nil` otherwise.
    func storedMessage(_ id: String, in environment: APNsEnvironment, now: Date) -> DeliveredPush? {
        guard let m = stored[Key(environment: environment, id: id)], now <= m.until else { return nil }
        return m.push
    }

    /// Takes one send from the channel's bucket (false: `TooManyRequests`).
    mutating func allowSend(_ channel: BroadcastChannel, now: Date) -> Bool {
        limiter.allow(Key(environment: channel.environment, id: channel.id), now: now)
    }
}
