import Foundation
import HTTPServer
import HTTPTypes
import PushModel

/// How a request authenticated.
package enum APNsAuthKind: Sendable, Equatable {
    case none
    case token(teamID: String, keyID: String)
    case certificate(uid: String)

    var json: JSONValue {
        switch self {
        case .none: return ["kind": "none"]
        case .token(let team, let kid): return ["kind": "token", "team_id": .string(team), "key_id": .string(kid)]
        case .certificate(let uid): return ["kind": "certificate", "uid": .string(uid)]
        }
    }
}

/// One request the gateway answered.
package struct APNsLogEntry: Sendable, Equatable {
    /// 1, 2, 3 … in arrival order (never reused, even after the ring buffer wraps).
    package var sequence: UInt64
    package var endpoint: APNsEnvironment
    var connectionID: UInt64
    package var method: String
    package var path: String
    package var headers: [HTTPField]
    /// The request body as kept: at most the log's `maxStoredPayload` bytes (see `payloadSize`).
    package var payload: [UInt8]
    /// The body's size as received when `payload` holds less of it (kept cut, or over the 1 MiB request limit);
    /// `nil` when `payload` is the whole body. In JSON: `payload_truncated: true` and `payload_size`.
    package var payloadSize: Int? = nil
    package var token: DeviceToken?
    package var topic: String?
    package var pushType: APNsPushType?
    package var status: Int
    package var reason: String?
    package var apnsID: String
    package var apnsUniqueID: String?
    package var auth: APNsAuthKind
    package var receivedAt: Date
    /// `receivedAt` plus any injected delay.
    package var answeredAt: Date
    /// A fault changed the answer (forced status, GOAWAY, drop or delay).
    package var faultApplied: Bool
    /// Why the request was refused in more words than `reason` (which rule, by how much: "iat is 8 h 12 min
    /// ahead of the gateway's clock"), or a warning about something APNs tolerates (a fractional `iat`).
    package var detail: String? = nil
    /// The broadcast channel a broadcast send or a channel-management request named (`apns-channel-id`, or the
    /// one a create made).
    package var channelID: String? = nil
    /// `apns-request-id` of a broadcast send or channel-management answer (sent, or generated).
    var apnsRequestID: String? = nil

    /// The entry as one JSON object (the JSON-lines format).
    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "sequence": .number(Double(sequence)), "endpoint": .string(endpoint.rawValue),
            "connection": .string(String(connectionID, radix: 16)), "method": .string(method), "path": .string(path),
            "headers": .array(headers.map { ["name": .string($0.name), "value": .string($0.value)] }),
            "payload": .string(String(decoding: payload, as: UTF8.self)), "status": .number(Double(status)),
            "apns_id": .string(apnsID), "auth": auth.json,
            "received_at": .number((receivedAt.timeIntervalSince1970 * 1000).rounded()),
            "answered_at": .number((answeredAt.timeIntervalSince1970 * 1000).rounded()), "fault": .bool(faultApplied),
        ]
        if let token { o["token"] = .string(token.hex) }
        if let topic { o["topic"] = .string(topic) }
        if let pushType { o["push_type"] = .string(pushType.rawValue) }
        if let reason { o["reason"] = .string(reason) }
        if let apnsUniqueID { o["apns_unique_id"] = .string(apnsUniqueID) }
        if let detail { o["detail"] = .string(detail) }
        if let channelID { o["channel_id"] = .string(channelID) }
        if let apnsRequestID { o["apns_request_id"] = .string(apnsRequestID) }
        if let payloadSize {
            o["payload_truncated"] = .bool(true)
            o["payload_size"] = .number(Double(payloadSize))
        }
        return .object(o)
    }
}

/// A filter for `APNsGateway.log(matching:)`; `nil` fields match everything.
package struct APNsLogQuery: Sendable, Equatable {
    package var token: DeviceToken?
    package var topic: String?
    package var apnsID: String?
    package var apnsUniqueID: String?
    package var endpoint: APNsEnvironment?
    package var status: Int?
    /// Broadcast sends and channel requests naming this channel.
    package var channelID: String?

    package init(
        token: DeviceToken? = nil, topic: String? = nil, apnsID: String? = nil, apnsUniqueID: String? = nil,
        endpoint: APNsEnvironment? = nil, status: Int? = nil, channelID: String? = nil
    ) {
        self.token = token
        self.topic = topic
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.endpoint = endpoint
        self.status = status
        self.channelID = channelID
    }

    package func matches(_ e: APNsLogEntry) -> Bool {
        (token == nil || e.token == token) && (topic == nil || e.topic == topic)
            && (apnsID == nil || e.apnsID == apnsID) && (apnsUniqueID == nil || e.apnsUniqueID == apnsUniqueID)
            && (endpoint == nil || e.endpoint == endpoint) && (status == nil || e.status == status)
            && (channelID == nil || e.channelID == channelID)
    }
}

/// The delivery log's bounds: entries kept, bytes kept, and how much of each body is kept.
package struct APNsLogLimits: Sendable, Equatable {
    /// Entries kept (oldest dropped first).
    package var capacity: Int
    /// Bytes of kept entries (bodies, headers, strings); past it the oldest entries are dropped too.
    var maxBytes: Int
    /// Bytes of each request body kept; the rest is cut (the entry says `payload_truncated` and the size).
    /// 8 KiB keeps every payload APNs itself accepts (4096 bytes, 5120 for VoIP) whole.
    var maxStoredPayload: Int

    package init(capacity: Int = 10_000, maxBytes: Int = 64 << 20, maxStoredPayload: Int = 8 << 10) {
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.maxStoredPayload = maxStoredPayload
    }
}

/// A bounded ring buffer of log entries (oldest dropped first), kept packed (`PackedLogEntry`), bounded both in
/// count and in bytes: a flood of 1 MiB unauthenticated bodies once grew the log to gigabytes. Pure value.
package struct APNsDeliveryLog: Sendable {
    /// Where an entry's packed bytes are (`RingBuffer.prefetchUpcomingDrops`).
    private static let bytesOffset = MemoryLayout<PackedLogEntry>.offset(of: \.bytes)!
    private var buffer: RingBuffer<PackedLogEntry>
    private(set) var nextSequence: UInt64 = 1
    package let limits: APNsLogLimits
    /// Bytes held by the kept entries (`PackedLogEntry.footprint`).
    package private(set) var bytes = 0

    package init(capacity: Int) { self.init(limits: APNsLogLimits(capacity: capacity)) }

    package init(limits: APNsLogLimits) {
        self.limits = limits
        buffer = RingBuffer(capacity: limits.capacity)
    }

    package var capacity: Int { buffer.capacity }
    package var count: Int { buffer.count }
    /// Entries dropped because the log was full (by count or by bytes).
    package var evicted: UInt64 { buffer.evicted }

    /// Assigns the next sequence number and appends.
    @discardableResult
    package mutating func append(_ entry: APNsLogEntry) -> APNsLogEntry {
        var e = entry
        let packed = PackedLogEntry(entry, maxStoredPayload: limits.maxStoredPayload)
        e.sequence = appendEvicting(packed).sequence
        if e.payload.count > limits.maxStoredPayload {
            e.payloadSize = e.payloadSize ?? e.payload.count
            e.payload = Array(e.payload.prefix(limits.maxStoredPayload))
        }
        return e
    }

    /// Appends an entry packed beforehand (outside the caller's lock); returns the sequence number it got and
    /// the entries dropped to make room, so the caller can free them outside its lock too (`more` is empty
    /// unless the byte budget dropped several).
    mutating func appendEvicting(
        _ packed: consuming PackedLogEntry
    ) -> (sequence: UInt64, evicted: PackedLogEntry?, more: [PackedLogEntry]) {
        let sequence = nextSequence
        packed.sequence = sequence
        nextSequence += 1
        bytes += packed.footprint
        let dropped = buffer.append(packed)
        buffer.prefetchUpcomingDrops(bytesOffset: Self.bytesOffset)
        if let dropped { bytes -= dropped.footprint }
        var more: [PackedLogEntry] = []
        while bytes > limits.maxBytes, buffer.count > 1, let old = buffer.removeFirst() {
            bytes -= old.footprint
            more.append(old)
        }
        return (sequence, dropped, more)
    }

    /// All kept entries, oldest first.
    package var entries: [APNsLogEntry] { buffer.elements.map(\.entry) }

    /// Kept entries still packed, oldest first (cheap to copy out of a lock; unpack outside it).
    var packedEntries: [PackedLogEntry] { buffer.elements }

    package func entries(matching q: APNsLogQuery) -> [APNsLogEntry] { entries.filter(q.matches) }

    package mutating func removeAll() {
        buffer.removeAll()
        bytes = 0
    }
}

/// Appends log entries as JSON lines to a file. One writer; calls are serialized by the gateway.
final class JSONLinesAppender: Sendable {
    private let handle: FileHandle

    init(path: String) throws(APNsConfigurationError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw .cannotOpenLogFile(path: path, detail: "cannot create the file")
            }
        }
        guard let h = FileHandle(forWritingAtPath: path) else {
            throw .cannotOpenLogFile(path: path, detail: "cannot open it for writing")
        }
        h.seekToEndOfFile()
        handle = h
    }

    func append(_ entry: APNsLogEntry) {
        var line = entry.json.serializedBytes()
        line.append(0x0A)
        try? handle.write(contentsOf: line)
    }

    deinit { try? handle.close() }
}
