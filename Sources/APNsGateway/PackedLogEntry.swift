import Foundation
import HTTPServer
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
    /// Auth kind, then the strings in `init` order, the payload and the headers (`PackedBytes` layout).
    var bytes: [UInt8]

    init(_ e: APNsLogEntry) {
        sequence = e.sequence
        connectionID = e.connectionID
        receivedAt = e.receivedAt
        answeredAt = e.answeredAt
        status = e.status
        endpoint = e.endpoint
        pushType = e.pushType
        faultApplied = e.faultApplied
        let (authKind, auth1, auth2): (UInt8, String?, String?) =
            switch e.auth {
            case .none: (0, nil, nil)
            case .token(let team, let key): (1, team, key)
            case .certificate(let uid): (2, uid, nil)
            }
        let token = e.token?.hex
        var size = 1 + 4 + e.payload.count + 4
        for s in [e.method, e.path, token, e.topic, e.reason, e.apnsID, e.apnsUniqueID, auth1, auth2] {
            size += PackedBytes.size(s)
        }
        for h in e.headers { size += PackedBytes.size(h.name) + PackedBytes.size(h.value) }
        bytes = PackedBytes.pack(size: size) { w in
            w.put(authKind)
            w.put(e.method)
            w.put(e.path)
            w.put(token)
            w.put(e.topic)
            w.put(e.reason)
            w.put(e.apnsID)
            w.put(e.apnsUniqueID)
            w.put(auth1)
            w.put(auth2)
            w.put(e.payload)
            w.put(UInt32(e.headers.count))
            for h in e.headers {
                w.put(h.name)
                w.put(h.value)
            }
        }
    }

    /// The entry as it was appended.
    var entry: APNsLogEntry {
        var r = PackedBytes.Reader(bytes)
        let authKind = r.byte()
        let method = r.string() ?? "", path = r.string() ?? "", token = r.string().flatMap(DeviceToken.init(hex:))
        let topic = r.string(), reason = r.string(), apnsID = r.string() ?? "", apnsUniqueID = r.string()
        let auth1 = r.string(), auth2 = r.string()
        let payload = r.byteArray()
        let headerCount = Int(r.u32())
        var headers: [HTTPField] = []
        headers.reserveCapacity(headerCount)
        for _ in 0..<headerCount {
            let name = r.string() ?? ""
            headers.append(HTTPField(name, r.string() ?? ""))
        }
        let auth: APNsAuthKind =
            switch authKind {
            case 1: .token(teamID: auth1 ?? "", keyID: auth2 ?? "")
            case 2: .certificate(uid: auth1 ?? "")
            default: .none
            }
        return APNsLogEntry(
            sequence: sequence, endpoint: endpoint, connectionID: connectionID, method: method, path: path,
            headers: headers, payload: payload, token: token, topic: topic, pushType: pushType, status: status,
            reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID, auth: auth, receivedAt: receivedAt,
            answeredAt: answeredAt, faultApplied: faultApplied)
    }
}
