import Foundation
import PushModel
import Synchronization

/// A push APNs accepted, as it travels on to the device.
package struct DeliveredPush: Sendable, Equatable {
    package var environment: APNsEnvironment
    package var token: DeviceToken
    package var topic: String
    package var pushType: APNsPushType
    package var priority: APNsPriority
    package var apnsID: String
    /// Set on sandbox only, as with real APNs.
    package var apnsUniqueID: String?
    package var collapseID: String?
    /// `apns-expiration`: `nil` absent, `0` (epoch) one attempt only.
    package var expiration: Date?
    /// The JSON text as sent; the gateway accepted it as one JSON object.
    package var payload: [UInt8]
    package var receivedAt: Date

    /// `payload` parsed. Built on each read rather than stored: most pushes in a load test are never
    /// read, and a parsed tree per push kept in the history cost time and memory on every request.
    package var json: JSONValue { (try? JSONValue.parse(payload)) ?? .object([:]) }

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

/// Receives pushes the gateway hands over (the simulated iPhone implements this). Called outside
/// the gateway's locks, on the thread that accepted the push or brought the device online.
package protocol PushDeliveryConsumer: Sendable {
    func deliver(_ push: DeliveredPush)
}

/// What happened to an accepted push.
package enum DeliveryDisposition: String, Sendable, Equatable {
    /// Handed to the consumers.
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

/// Online/offline devices and the pushes stored for offline ones. Pure value; the gateway holds it in a Mutex.
package struct StoreAndForward: Sendable {
    /// How long a push without `apns-expiration` is stored (Apple: "up to 30 days").
    package static let defaultRetention: TimeInterval = 30 * 24 * 3600

    struct Key: Hashable {
        var token: DeviceToken
        var topic: String
    }

    package var onlineByDefault: Bool
    var online: [DeviceToken: Bool] = [:]
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
    package var history: [DeliveryEvent] { events.elements.map(\.event) }

    package func isOnline(_ token: DeviceToken) -> Bool {
        online.isEmpty ? onlineByDefault : online[token] ?? onlineByDefault  // no hashing when nobody was switched
    }

    /// The pushes currently stored for `token`, oldest first.
    package func storedPushes(for token: DeviceToken) -> [DeliveredPush] {
        stored.filter { $0.key.token == token }.map(\.value).sorted { $0.receivedAt < $1.receivedAt }
    }

    /// Handles an accepted push; returns it when it must be handed to the consumers now.
    package mutating func accept(_ push: DeliveredPush, now: Date) -> [DeliveredPush] {
        acceptDeliveringNow(push, now: now) ? [push] : []
    }

    /// `accept` without building an array: true when the push must be handed to the consumers now.
    mutating func acceptDeliveringNow(_ push: DeliveredPush, now: Date) -> Bool {
        acceptDeliveringNow(push, packed: PackedDeliveryEvent(push, .delivered, at: now), now: now).deliverNow
    }

    /// `accept` with the push's history event packed beforehand (outside the caller's lock; its disposition and
    /// time are set here). Returns the event the history dropped, so the caller can free it outside its lock.
    mutating func acceptDeliveringNow(
        _ push: DeliveredPush, packed: PackedDeliveryEvent, now: Date
    ) -> (deliverNow: Bool, evicted: PackedDeliveryEvent?) {
        var event = packed
        event.at = now
        if isOnline(push.token) {
            event.disposition = .delivered
            return (true, appendEvent(event))
        }
        if push.expiration == Date(timeIntervalSince1970: 0) {
            event.disposition = .droppedNoStorage
            return (false, appendEvent(event))
        }
        let key = Key(token: push.token, topic: push.topic)
        if let old = stored[key] { record(old, .superseded, now) }
        stored[key] = push
        event.disposition = .stored
        return (false, appendEvent(event))
    }

    /// Marks a device online or offline; going online returns the stored pushes still valid, oldest first.
    package mutating func setOnline(_ token: DeviceToken, _ isOnline: Bool, now: Date) -> [DeliveredPush] {
        online[token] = isOnline
        guard isOnline else { return [] }
        var out: [DeliveredPush] = []
        for push in storedPushes(for: token) {
            stored[Key(token: token, topic: push.topic)] = nil
            let deadline = push.expiration ?? push.receivedAt.addingTimeInterval(Self.defaultRetention)
            if deadline < now {
                record(push, .droppedExpired, now)
            } else {
                record(push, .delivered, now)
                out.append(push)
            }
        }
        return out
    }

    /// Drops every stored push and the history; devices return to the default online state.
    package mutating func reset() {
        online = [:]
        stored = [:]
        events.removeAll()
    }

    /// Appends to the history (packed: dropping the oldest event when full is one free).
    mutating func record(_ push: DeliveredPush, _ d: DeliveryDisposition, _ at: Date) {
        _ = appendEvent(PackedDeliveryEvent(push, d, at: at))
    }

    /// Numbers `event` and appends it; returns the event the full history dropped.
    mutating func appendEvent(_ event: PackedDeliveryEvent) -> PackedDeliveryEvent? {
        var event = event
        event.sequence = nextSequence
        nextSequence += 1
        let dropped = events.append(event)
        if dropped != nil { evicted += 1 }
        return dropped
    }
}

/// A consumer that keeps every push it receives (for tests and the runner).
package final class RecordingConsumer: PushDeliveryConsumer {
    private let received = Mutex<[DeliveredPush]>([])
    package init() {}
    package func deliver(_ push: DeliveredPush) { received.withLock { $0.append(push) } }
    /// Everything received so far, in order.
    package var pushes: [DeliveredPush] { received.withLock { $0 } }
    package func removeAll() { received.withLock { $0.removeAll() } }
}
