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
    /// token, topic, apns-id, apns-unique-id, collapse id, payload, channel id (`PackedBytes` layout); or, when
    /// `sharesLogEntry`, the buffer of the push's delivery-log entry (`PackedLogEntry` layout).
    var bytes: [UInt8]
    /// `bytes` is the log entry's buffer, shared with the delivery log (a push with no collapse id or channel id).
    private var sharesLogEntry = false

    /// How many bytes besides the payload a log entry's buffer may hold for the event to share it. An entry also
    /// holds the request's method, path and headers (with a provider token, about 500 bytes in all; an event's own
    /// packing, about 200). The history is bounded by count, not bytes, and a buffer it shares outlives the log's
    /// byte budget when the log drops it first: a request with large headers gets a buffer of its own.
    static let maxSharedEntryOverhead = 2048

    /// `borrowing`: an initializer takes its arguments owned, so a caller that keeps its push (every caller) copied
    /// it whole to pass it (seven retains and releases per push).
    init(_ p: borrowing DeliveredPush, _ disposition: DeliveryDisposition, at: Date) {
        self.init(scalarsOf: p, disposition, at: at, bytes: Self.pack(p))
    }

    /// The event of an accepted push whose delivery-log entry's buffer is `entry` (`payloadCut`: the entry keeps
    /// only the head of the payload). The buffer is shared (a retain, where packing was an allocation, a copy of the
    /// strings and the payload, and a free when the ring dropped it) when it holds all the event reads (the whole
    /// payload; no collapse id or channel id, which an entry keeps only among the raw headers) and at most
    /// `maxSharedEntryOverhead` bytes besides the payload; else the event is packed as by `init(_:_:at:)`. The entry
    /// must be the log's for this push (the gateway's accepted path packs both from the same values; debug builds
    /// check that both read alike).
    init(
        _ p: borrowing DeliveredPush, loggedAs entry: [UInt8], payloadCut: Bool, _ disposition: DeliveryDisposition,
        at: Date
    ) {
        guard !payloadCut, p.collapseID == nil, p.channelID == nil,
            entry.count - p.payload.count <= Self.maxSharedEntryOverhead
        else {
            self.init(p, disposition, at: at)
            return
        }
        self.init(scalarsOf: p, disposition, at: at, bytes: entry)
        sharesLogEntry = true
        assert(event == PackedDeliveryEvent(p, disposition, at: at).event, "a shared log entry reads as another push")
    }

    private init(scalarsOf p: borrowing DeliveredPush, _ disposition: DeliveryDisposition, at: Date, bytes: [UInt8]) {
        environment = p.environment
        pushType = p.pushType
        priority = p.priority
        expiration = p.expiration
        receivedAt = p.receivedAt
        self.disposition = disposition
        self.at = at
        self.bytes = bytes
    }

    /// The size of `p`'s own packing.
    private static func size(_ p: borrowing DeliveredPush) -> Int {
        var size = 4 + p.payload.count + PackedBytes.size(p.token.hex) + PackedBytes.size(p.topic)
        size += PackedBytes.size(p.apnsID) + PackedBytes.size(p.apnsUniqueID) + PackedBytes.size(p.collapseID)
        return size + PackedBytes.size(p.channelID)
    }

    private static func pack(_ p: borrowing DeliveredPush) -> [UInt8] {
        PackedBytes.pack(size: size(p)) { w in
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
        let token: DeviceToken?, topic: String, apnsID: String, apnsUniqueID: String?, collapseID: String?
        let payload: [UInt8], channelID: String?
        if sharesLogEntry {
            let f = PackedLogEntry.deliveryFields(bytes)
            (token, topic, apnsID, apnsUniqueID) = (
                f.token.flatMap(DeviceToken.init(hex:)), f.topic ?? "", f.apnsID, f.apnsUniqueID
            )
            (collapseID, payload, channelID) = (nil, f.payload, nil)
        } else {
            var r = PackedBytes.Reader(bytes)
            token = r.string().flatMap(DeviceToken.init(hex:))
            topic = r.string() ?? ""
            apnsID = r.string() ?? ""
            (apnsUniqueID, collapseID) = (r.string(), r.string())
            payload = r.byteArray()
            channelID = r.string()
        }
        var push = DeliveredPush(
            environment: environment, token: token!, topic: topic, pushType: pushType, priority: priority,
            apnsID: apnsID, apnsUniqueID: apnsUniqueID, collapseID: collapseID, expiration: expiration,
            payload: payload, receivedAt: receivedAt)
        push.channelID = channelID
        return DeliveryEvent(sequence: sequence, push: push, disposition: disposition, at: at)
    }
}
