import Foundation
import PushModel
import Synchronization

/// A push APNs accepted, as it travels on to the device.
///
/// A broadcast push (`POST /4/broadcasts/apps/<bundle id>`) has `channelID` set, `token` is
/// `DeliveredPush.broadcastToken` (it has no device token), `topic` is `<bundle id>.push-type.liveactivity` and
/// `pushType` is `liveactivity`, so it reads like the Live Activity push each subscribed device receives.
package struct DeliveredPush: Sendable, Equatable {
    package var environment: APNsEnvironment
    /// The device token of the path; `broadcastToken` for a broadcast push.
    package var token: DeviceToken
    package var topic: String
    package var pushType: APNsPushType
    package var priority: APNsPriority
    package var apnsID: String
    /// Set on sandbox only, as with real APNs.
    package var apnsUniqueID: String? = nil
    package var collapseID: String? = nil
    /// `apns-expiration`: `nil` absent, `0` (epoch) one attempt only.
    package var expiration: Date? = nil
    /// The JSON text as sent; the gateway accepted it as one JSON object.
    package var payload: [UInt8]
    package var receivedAt: Date
    /// The broadcast channel (`apns-channel-id`, base64) of a broadcast push; `nil` for a push to a token.
    package var channelID: String? = nil

    /// The placeholder `token` of every broadcast push: the bytes of ASCII "broadcast" (hex
    /// `62726f616463617374`). Never a device's token (simulated tokens are 32 bytes); it keeps `token`
    /// non-optional for the token pushes that are nearly all of them.
    static let broadcastToken = DeviceToken(bytes: Array("broadcast".utf8))!

    /// `payload` parsed. Built on each read rather than stored: most pushes in a load test are never
    /// read, and a parsed tree per push kept in the history cost time and memory on every request.
    package var json: JSONValue { (try? JSONValue.parse(payload)) ?? .object([:]) }

    /// A push to be filled field by field (`APNsGateway.decide` fills the accepted push in its caller's variable:
    /// built by the initializer below and stored in an optional, it was built in a temporary and copied whole,
    /// retaining its seven references).
    init(unfilledAt receivedAt: Date) {
        environment = .sandbox
        token = .placeholder
        topic = ""
        pushType = .alert
        priority = .immediate
        apnsID = ""
        payload = []
        self.receivedAt = receivedAt
    }

    package init(
        environment: APNsEnvironment, token: DeviceToken, topic: String, pushType: APNsPushType,
        priority: APNsPriority, apnsID: String, apnsUniqueID: String?, collapseID: String?, expiration: Date?,
        payload: [UInt8], receivedAt: Date
    ) {
        self.environment = environment
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.collapseID = collapseID
        self.expiration = expiration
        self.payload = payload
        self.receivedAt = receivedAt
    }
}

/// Receives the pushes the gateway hands on (a world's device fleet: `DeviceFleet`). Called outside the gateway's
/// locks, on the thread that accepted the push or brought the device online.
package protocol PushDeliveryConsumer: Sendable {
    /// Hands `push` to whoever holds its token; `.recipientOffline` makes the gateway keep it (store-and-forward).
    func deliver(_ push: DeliveredPush) -> PushHandOff
    /// Hands a broadcast push to every device subscribed to `channelID` in `environment`; returns how many
    /// devices it reached.
    func deliverBroadcast(_ push: DeliveredPush, channelID: String) -> Int
}

extension PushDeliveryConsumer {
    /// No subscribers (a consumer that holds no channel subscriptions).
    package func deliverBroadcast(_ push: DeliveredPush, channelID: String) -> Int { 0 }
}

/// What the consumer did with a push.
package enum PushHandOff: Sendable, Equatable {
    /// Handed over (or no simulated device holds the token: the gateway's job ends there).
    case delivered
    /// The device holding the token is offline: keep the push until it comes back.
    case recipientOffline
}

/// What happened to an accepted push.
package enum DeliveryDisposition: String, Sendable, Equatable {
    /// Handed to the consumer.
    case delivered
    /// Device offline: kept until it comes online or `apns-expiration` passes.
    case stored
    /// Device offline and `apns-expiration: 0`: one attempt only, so dropped.
    case droppedNoStorage
    /// Stored, but the expiration passed before the device came online.
    case droppedExpired
    /// Stored, then replaced by a newer push for the same token and topic (APNs keeps only the latest).
    case superseded
}

/// One entry of the store-and-forward history.
package struct DeliveryEvent: Sendable, Equatable {
    /// Position in the history, from 1, increasing (never reused, also across `reset`): the paging cursor.
    package var sequence: UInt64 = 0
    package var push: DeliveredPush
    package var disposition: DeliveryDisposition
    package var at: Date
}

/// Where each token's device is reachable and the pushes stored for offline ones. Pure value; the gateway holds it
/// in a Mutex.
///
/// Reachability is kept in one place per token: here for tokens of no simulated device (the configuration's,
/// the control endpoint's; `setOnline`), or — for a token `followsRecipient` marks — by its device, which answers
/// each hand-off (`PushHandOff.recipientOffline`), so this value holds no copy of it.
package struct StoreAndForward: Sendable {
    /// Where an event's packed bytes are (`RingBuffer.prefetchUpcomingDrops`).
    private static let eventBytesOffset = MemoryLayout<PackedDeliveryEvent>.offset(of: \.bytes)!
    /// How long a push without `apns-expiration` is stored (Apple: "up to 30 days").
    static let defaultRetention: TimeInterval = 30 * 24 * 3600

    struct Key: Hashable {
        var token: DeviceToken
        var topic: String
    }

    /// Whether a token's device is reachable, and who knows.
    enum Presence: Equatable {
        case online, offline
        /// The consumer's device knows: pushes are handed on, and kept when it answers offline.
        case recipient
    }

    var onlineByDefault: Bool
    var presence: [DeviceToken: Presence] = [:]
    var stored: [Key: DeliveredPush] = [:]
    var events: RingBuffer<PackedDeliveryEvent>
    /// The sequence number the next history event gets.
    var nextSequence: UInt64 = 1
    /// Events the bounded history has dropped since the start.
    var evicted: UInt64 = 0

    package init(onlineByDefault: Bool = true, historyCapacity: Int = 10_000) {
        self.onlineByDefault = onlineByDefault
        self.events = RingBuffer(capacity: historyCapacity)
    }

    /// The most recent events (bounded by `historyCapacity`), oldest first.
    var history: [DeliveryEvent] { events.elements.map(\.event) }

    func presence(of token: DeviceToken) -> Presence {
        // No hashing while no token was switched or followed (load tests).
        presence.isEmpty
            ? (onlineByDefault ? .online : .offline) : presence[token] ?? (onlineByDefault ? .online : .offline)
    }

    /// Whether the gateway hands pushes for `token` on now (a followed token's device may still answer offline).
    package func isOnline(_ token: DeviceToken) -> Bool { presence(of: token) != .offline }

    /// The pushes currently stored for `token`, oldest first.
    package func storedPushes(for token: DeviceToken) -> [DeliveredPush] {
        stored.filter { $0.key.token == token }.map(\.value).sorted { $0.receivedAt < $1.receivedAt }
    }

    /// Handles an accepted push; returns it when it must be handed to the consumer now.
    package mutating func accept(_ push: DeliveredPush, now: Date) -> [DeliveredPush] {
        acceptDeliveringNow(push, packed: PackedDeliveryEvent(push, .delivered, at: now), now: now).handOff == .now
            ? [push] : []
    }

    /// When an accepted push goes to the consumer.
    enum HandOff: Equatable {
        /// Now, recorded as delivered.
        case now
        /// Now, recorded once the consumer answered (`handedOff`): its device decides between delivered and kept.
        case nowThenRecord
        /// Not now: stored or dropped (recorded).
        case kept
    }

    /// `accept` with the push's history event packed beforehand (outside the caller's lock; its disposition and
    /// time are set here). Returns the event the history dropped, so the caller can free it outside its lock.
    mutating func acceptDeliveringNow(
        _ push: DeliveredPush, packed: PackedDeliveryEvent, now: Date
    ) -> (handOff: HandOff, evicted: PackedDeliveryEvent?) {
        switch presence(of: push.token) {
        case .recipient: return (.nowThenRecord, nil)
        case .online:
            var event = packed
            event.at = now
            event.disposition = .delivered
            return (.now, appendEvent(event))
        case .offline: return (.kept, keep(push, packed: packed, now: now))
        }
    }

    /// Records what the consumer did with a push handed on: delivered, or kept for its offline device.
    mutating func handedOff(
        _ push: DeliveredPush, _ result: PushHandOff, packed: PackedDeliveryEvent, now: Date
    ) -> PackedDeliveryEvent? {
        guard result == .delivered else { return keep(push, packed: packed, now: now) }
        var event = packed
        event.at = now
        event.disposition = .delivered
        return appendEvent(event)
    }

    /// A push for an offline device: dropped with `apns-expiration: 0` (one attempt only) or a date already past
    /// (APNs retries "until the specified date": none is left), else stored as the latest for its token and topic
    /// (superseding the one before; a dropped push supersedes nothing).
    mutating func keep(_ push: DeliveredPush, packed: PackedDeliveryEvent, now: Date) -> PackedDeliveryEvent? {
        var event = packed
        event.at = now
        if let expiration = push.expiration, expiration <= now {
            event.disposition = .droppedNoStorage
            return appendEvent(event)
        }
        let key = Key(token: push.token, topic: push.topic)
        if let old = stored[key] { record(old, .superseded, now) }
        stored[key] = push
        event.disposition = .stored
        return appendEvent(event)
    }

    /// Marks a device online or offline (a token whose reachability this value keeps); going online returns the
    /// stored pushes still valid, oldest first (recorded as delivered).
    package mutating func setOnline(_ token: DeviceToken, _ isOnline: Bool, now: Date) -> [DeliveredPush] {
        presence[token] = isOnline ? .online : .offline
        guard isOnline else { return [] }
        var out: [DeliveredPush] = []
        while let push = takeOldestValid(for: token, now: now) {
            record(push, .delivered, now)
            out.append(push)
        }
        return out
    }

    /// From now on `token`'s device says whether it is reachable, at each hand-off.
    mutating func followRecipient(_ token: DeviceToken) { presence[token] = .recipient }

    /// Removes the oldest stored push for `token` that has not expired, recording the expired ones before it as
    /// dropped; `nil` when none is left.
    mutating func takeOldestValid(for token: DeviceToken, now: Date) -> DeliveredPush? {
        for push in storedPushes(for: token) {
            stored[Key(token: token, topic: push.topic)] = nil
            let deadline = push.expiration ?? push.receivedAt.addingTimeInterval(Self.defaultRetention)
            if deadline < now {
                record(push, .droppedExpired, now)
            } else {
                return push
            }
        }
        return nil
    }

    /// Drops every stored push and the history; devices return to the default online state.
    package mutating func reset() {
        presence = [:]
        stored = [:]
        events.removeAll()
    }

    /// Appends to the history (packed: dropping the oldest event when full is one free).
    mutating func record(_ push: DeliveredPush, _ d: DeliveryDisposition, _ at: Date) {
        _ = appendEvent(PackedDeliveryEvent(push, d, at: at))
    }

    /// Numbers `event` and appends it; returns the event the full history dropped.
    mutating func appendEvent(_ event: consuming PackedDeliveryEvent) -> PackedDeliveryEvent? {
        event.sequence = nextSequence
        nextSequence += 1
        let dropped = events.append(event)
        events.prefetchUpcomingDrops(bytesOffset: Self.eventBytesOffset)
        if dropped != nil { evicted += 1 }
        return dropped
    }
}

/// A consumer that keeps every push it receives (for tests and the runner); broadcasts reach
/// `subscribers[channelID]` devices (0 when not set).
package final class RecordingConsumer: PushDeliveryConsumer {
    private let received = Mutex<[DeliveredPush]>([])
    private let subscriberCounts = Mutex<[String: Int]>([:])
    package init() {}
    package func deliver(_ push: DeliveredPush) -> PushHandOff {
        received.withLock { $0.append(push) }
        return .delivered
    }
    package func deliverBroadcast(_ push: DeliveredPush, channelID: String) -> Int {
        received.withLock { $0.append(push) }
        return subscriberCounts.withLock { $0[channelID] ?? 0 }
    }
    /// How many devices a broadcast on `channelID` reaches.
    func setSubscribers(_ count: Int, for channelID: String) {
        subscriberCounts.withLock { $0[channelID] = count }
    }
    /// Everything received so far, in order (broadcasts included: their `channelID` is set).
    package var pushes: [DeliveredPush] { received.withLock { $0 } }
    package func removeAll() { received.withLock { $0.removeAll() } }
}
