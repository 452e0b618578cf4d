import Foundation
import HTTPServer
import HTTPTypes
import PushModel

/// An `APNsLogEntry` as the delivery log keeps it: the scalars, plus every string, header and the payload packed
/// into one byte buffer. Keeping entries as they were (a dozen strings, a header array, the payload) meant a
/// dozen frees per request when the ring overwrote its oldest entry, under the gateway lock, often from the
/// other loop's thread; a packed entry is one allocation and one free. Entries are unpacked only when read.
struct PackedLogEntry: Sendable {
    var sequence: UInt64
    var connectionID: UInt64
    var receivedAt: Date
    var answeredAt: Date
    var status: Int
    var endpoint: APNsEnvironment
    var pushType: APNsPushType?
    var faultApplied: Bool
    /// The body's size as received when the stored payload is cut (`APNsLogEntry.payloadSize`).
    var payloadSize: Int?
    /// Auth kind, then the strings in `init` order, the payload, the headers, the detail, channel id and request id
    /// (`PackedBytes` layout).
    var bytes: [UInt8]

    init(_ e: APNsLogEntry, maxStoredPayload: Int = .max) {
        self.init(
            sequence: e.sequence, endpoint: e.endpoint, connectionID: e.connectionID, method: e.method, path: e.path,
            headers: e.headers, payload: e.payload, token: e.token, topic: e.topic, pushType: e.pushType,
            status: e.status, reason: e.reason, apnsID: e.apnsID, apnsUniqueID: e.apnsUniqueID, auth: e.auth,
            receivedAt: e.receivedAt, answeredAt: e.answeredAt, faultApplied: e.faultApplied, detail: e.detail,
            receivedBodySize: e.payloadSize, maxStoredPayload: maxStoredPayload, channelID: e.channelID,
            apnsRequestID: e.apnsRequestID)
    }

    /// Bytes this entry holds in the log: the packed buffer plus the struct and allocation overhead.
    var footprint: Int { bytes.capacity + 96 }

    /// Packs straight from the parts (the gateway's per-request path: no `APNsLogEntry` in between).
    init(
        sequence: UInt64, endpoint: APNsEnvironment, connectionID: UInt64, method: String, path: String,
        headers: [HTTPField], payload: [UInt8], token: DeviceToken?, topic: String?, pushType: APNsPushType?,
        status: Int, reason: String?, apnsID: String, apnsUniqueID: String?, auth: APNsAuthKind, receivedAt: Date,
        answeredAt: Date, faultApplied: Bool, detail: String? = nil, receivedBodySize: Int? = nil,
        maxStoredPayload: Int = .max, channelID: String? = nil, apnsRequestID: String? = nil
    ) {
        // Only the head of a large body is kept: the log holds thousands of entries, and a body is up to 1 MiB.
        let stored = payload.count > maxStoredPayload ? payload[..<maxStoredPayload] : payload[...]
        let received = receivedBodySize ?? payload.count
        self.payloadSize = received > stored.count ? received : nil
        self.sequence = sequence
        self.connectionID = connectionID
        self.receivedAt = receivedAt
        self.answeredAt = answeredAt
        self.status = status
        self.endpoint = endpoint
        self.pushType = pushType
        self.faultApplied = faultApplied
        let (authKind, auth1, auth2): (UInt8, String?, String?) =
            switch auth {
            case .none: (0, nil, nil)
            case .token(let team, let key): (1, team, key)
            case .certificate(let uid): (2, uid, nil)
            }
        let hex = token?.hex
        var size = 1 + 4 + stored.count + 4
        size += PackedBytes.size(method) + PackedBytes.size(path) + PackedBytes.size(hex) + PackedBytes.size(topic)
        size += PackedBytes.size(reason) + PackedBytes.size(apnsID) + PackedBytes.size(apnsUniqueID)
        size += PackedBytes.size(auth1) + PackedBytes.size(auth2)
        for h in headers { size += PackedBytes.size(h.name) + PackedBytes.size(h.value) }
        size += PackedBytes.size(detail) + PackedBytes.size(channelID) + PackedBytes.size(apnsRequestID)
        bytes = PackedBytes.pack(size: size) { w in
            w.put(authKind)
            w.put(method)
            w.put(path)
            w.put(hex)
            w.put(topic)
            w.put(reason)
            w.put(apnsID)
            w.put(apnsUniqueID)
            w.put(auth1)
            w.put(auth2)
            w.put(stored)
            w.put(UInt32(headers.count))
            for h in headers {
                w.put(h.name)
                w.put(h.value)
            }
            w.put(detail)
            w.put(channelID)
            w.put(apnsRequestID)
        }
    }

    /// The fields packed before the headers, in the layout's order.
    private struct Head {
        var authKind: UInt8
        var method, path, token, topic, reason, apnsID, apnsUniqueID, auth1, auth2: String?
        var payload: [UInt8]

        init(_ r: inout PackedBytes.Reader) {
            authKind = r.byte()
            method = r.string()
            path = r.string()
            token = r.string()
            topic = r.string()
            reason = r.string()
            apnsID = r.string()
            apnsUniqueID = r.string()
            auth1 = r.string()
            auth2 = r.string()
            payload = r.byteArray()
        }
    }

    /// What a delivery-history event reads from an accepted push's entry when it shares its buffer
    /// (`PackedDeliveryEvent.init(_:loggedAs:payloadCut:_:at:)`): the token's hex, topic, ids and the payload.
    static func deliveryFields(_ bytes: [UInt8]) -> (
        token: String?, topic: String?, apnsID: String, apnsUniqueID: String?, payload: [UInt8]
    ) {
        var r = PackedBytes.Reader(bytes)
        let h = Head(&r)
        return (h.token, h.topic, h.apnsID ?? "", h.apnsUniqueID, h.payload)
    }

    /// The entry as it was appended.
    var entry: APNsLogEntry {
        var r = PackedBytes.Reader(bytes)
        let h = Head(&r)
        let (authKind, auth1, auth2) = (h.authKind, h.auth1, h.auth2)
        let (method, path, token) = (h.method ?? "", h.path ?? "", h.token.flatMap(DeviceToken.init(hex:)))
        let (topic, reason, apnsID, apnsUniqueID) = (h.topic, h.reason, h.apnsID ?? "", h.apnsUniqueID)
        let payload = h.payload
        let headerCount = Int(r.u32())
        var headers: [HTTPField] = []
        headers.reserveCapacity(headerCount)
        for _ in 0..<headerCount {
            let name = r.string() ?? ""
            headers.append(HTTPField(name, r.string() ?? ""))
        }
        let detail = r.string(), channelID = r.string(), apnsRequestID = r.string()
        let auth: APNsAuthKind =
            switch authKind {
            case 1: .token(teamID: auth1 ?? "", keyID: auth2 ?? "")
            case 2: .certificate(uid: auth1 ?? "")
            default: .none
            }
        var entry = APNsLogEntry(
            sequence: sequence, endpoint: endpoint, connectionID: connectionID, method: method, path: path,
            headers: headers, payload: payload, token: token, topic: topic, pushType: pushType, status: status,
            reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID, auth: auth, receivedAt: receivedAt,
            answeredAt: answeredAt, faultApplied: faultApplied, detail: detail)
        entry.payloadSize = payloadSize
        entry.channelID = channelID
        entry.apnsRequestID = apnsRequestID
        return entry
    }
}
