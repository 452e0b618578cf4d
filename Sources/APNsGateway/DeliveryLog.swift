import Foundation
import HTTPServer
import PushModel

/// How a request authenticated.
public enum APNsAuthKind: Sendable, Equatable {
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
public struct APNsLogEntry: Sendable, Equatable {
    /// 1, 2, 3 … in arrival order (never reused, even after the ring buffer wraps).
    public var sequence: UInt64
    public var endpoint: APNsEnvironment
    public var connectionID: UInt64
    public var method: String
    public var path: String
    public var headers: [HTTPField]
    public var payload: [UInt8]
    public var token: DeviceToken?
    public var topic: String?
    public var pushType: APNsPushType?
    public var status: Int
    public var reason: String?
    public var apnsID: String
    public var apnsUniqueID: String?
    public var auth: APNsAuthKind
    public var receivedAt: Date
    /// `receivedAt` plus any injected delay.
    public var answeredAt: Date
    /// A fault changed the answer (forced status, GOAWAY, drop or delay).
    public var faultApplied: Bool
    /// Why the request was refused in more words than `reason` (which rule, by how much: "iat is 8 h 12 min
    /// ahead of the gateway's clock"), or a warning about something APNs tolerates (a fractional `iat`).
    public var detail: String? = nil

    /// The entry as one JSON object (the JSON-lines format).
    public var json: JSONValue {
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
        return .object(o)
    }
}

/// A filter for `APNsGateway.log(matching:)`; `nil` fields match everything.
public struct APNsLogQuery: Sendable, Equatable {
    public var token: DeviceToken?
    public var topic: String?
    public var apnsID: String?
    public var apnsUniqueID: String?
    public var endpoint: APNsEnvironment?
    public var status: Int?

    public init(
        token: DeviceToken? = nil, topic: String? = nil, apnsID: String? = nil, apnsUniqueID: String? = nil,
        endpoint: APNsEnvironment? = nil, status: Int? = nil
    ) {
        self.token = token
        self.topic = topic
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.endpoint = endpoint
        self.status = status
    }

    public func matches(_ e: APNsLogEntry) -> Bool {
        (token == nil || e.token == token) && (topic == nil || e.topic == topic)
            && (apnsID == nil || e.apnsID == apnsID) && (apnsUniqueID == nil || e.apnsUniqueID == apnsUniqueID)
            && (endpoint == nil || e.endpoint == endpoint) && (status == nil || e.status == status)
    }
}

/// A bounded ring buffer of log entries (oldest dropped first), kept packed (`PackedLogEntry`). Pure value.
public struct APNsDeliveryLog: Sendable {
    private var buffer: RingBuffer<PackedLogEntry>
    public private(set) var nextSequence: UInt64 = 1

    public init(capacity: Int) { buffer = RingBuffer(capacity: capacity) }

    public var capacity: Int { buffer.capacity }
    /// Entries dropped because the buffer was full.
    public var evicted: UInt64 { buffer.evicted }

    /// Assigns the next sequence number and appends.
    @discardableResult
    public mutating func append(_ entry: APNsLogEntry) -> APNsLogEntry {
        var e = entry
        e.sequence = appendEvicting(PackedLogEntry(entry)).sequence
        return e
    }

    /// Appends an entry packed beforehand (outside the caller's lock); returns the sequence number it got and
    /// the entry the ring dropped, so the caller can free that outside its lock too.
    mutating func appendEvicting(_ packed: PackedLogEntry) -> (sequence: UInt64, evicted: PackedLogEntry?) {
        var p = packed
        p.sequence = nextSequence
        nextSequence += 1
        return (p.sequence, buffer.append(p))
    }

    /// All kept entries, oldest first.
    public var entries: [APNsLogEntry] { buffer.elements.map(\.entry) }

    public func entries(matching q: APNsLogQuery) -> [APNsLogEntry] { entries.filter(q.matches) }

    public mutating func removeAll() { buffer.removeAll() }
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
