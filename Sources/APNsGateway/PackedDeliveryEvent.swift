import Foundation
import PushModel

/// A `DeliveryEvent` as the store-and-forward history keeps it: scalars plus one packed buffer (token, topic,
/// ids, payload), so that the ring dropping its oldest event is one free, not one per string (see
/// `PackedLogEntry`). Unpacked only when the history is read.
struct PackedDeliveryEvent: Sendable {
    var environment: APNsEnvironment
    var pushType: APNsPushType
    var priority: APNsPriority
    var expiration: Date?
    var receivedAt: Date
    var disposition: DeliveryDisposition
    var at: Date
    /// Set when the history appends it (`StoreAndForward.appendEvent`).
    var sequence: UInt64 = 0
    /// token, topic, apns-id, apns-unique-id, collapse id, payload, channel id (`PackedBytes` layout).
    var bytes: [UInt8]

    /// `borrowing`: an initializer takes its arguments owned, so a caller that keeps its push (every caller) copied
    /// it whole to pass it (seven retains and releases per push).
    init(_ p: borrowing DeliveredPush, _ disposition: DeliveryDisposition, at: Date) {
        environment = p.environment
        pushType = p.pushType
        priority = p.priority
        expiration = p.expiration
        receivedAt = p.receivedAt
        self.disposition = disposition
        self.at = at
        var size = 4 + p.payload.count + PackedBytes.size(p.token.hex) + PackedBytes.size(p.topic)
        size += PackedBytes.size(p.apnsID) + PackedBytes.size(p.apnsUniqueID) + PackedBytes.size(p.collapseID)
        size += PackedBytes.size(p.channelID)
        bytes = PackedBytes.pack(size: size) { w in
            w.put(p.token.hex)
            w.put(p.topic)
            w.put(p.apnsID)
            w.put(p.apnsUniqueID)
            w.put(p.collapseID)
            w.put(p.payload)
            w.put(p.channelID)
        }
    }

    /// The event as it was recorded.
    var event: DeliveryEvent {
        var r = PackedBytes.Reader(bytes)
        let token = r.string().flatMap(DeviceToken.init(hex:))
        let topic = r.string() ?? "", apnsID = r.string() ?? "", apnsUniqueID = r.string(), collapseID = r.string()
        let payload = r.byteArray()
        var push = DeliveredPush(
            environment: environment, token: token!, topic: topic, pushType: pushType, priority: priority,
            apnsID: apnsID, apnsUniqueID: apnsUniqueID, collapseID: collapseID, expiration: expiration,
            payload: payload, receivedAt: receivedAt)
        push.channelID = r.string()
        return DeliveryEvent(sequence: sequence, push: push, disposition: disposition, at: at)
    }
}
