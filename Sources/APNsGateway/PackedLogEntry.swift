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
    /// Strings in `Field` order (length-prefixed, absent ones marked), then the payload, then the headers.
    var bytes: [UInt8]

    fileprivate static let absent = UInt32.max

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
        let strings: [String?] = [e.method, e.path, e.token?.hex, e.topic, e.reason, e.apnsID, e.apnsUniqueID, auth1, auth2]
        var size = 1 + strings.count * 4 + 4 + e.payload.count + 4
        for s in strings { size += s?.utf8.count ?? 0 }
        for h in e.headers { size += 8 + h.name.utf8.count + h.value.utf8.count }
        // Raw writes into a buffer sized up front: appending a String's UTF-8 to an Array byte by byte cost more
        // than the rest of the log append (and closures capturing the write position cost access checks).
        bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var w = ByteWriter(buffer: buffer)
            w.put(authKind)
            for s in strings { w.put(s) }
            w.put(UInt32(e.payload.count))
            e.payload.withUnsafeBufferPointer { w.put($0) }
            w.put(UInt32(e.headers.count))
            for h in e.headers {
                w.put(h.name)
                w.put(h.value)
            }
            count = w.at
        }
    }

    /// Writes into a buffer that `init` sized exactly.
    private struct ByteWriter {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var at = 0

        mutating func put(_ b: UInt8) {
            buffer[at] = b
            at += 1
        }

        mutating func put(_ n: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { put(UInt8(truncatingIfNeeded: n >> UInt32(shift))) }
        }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            (buffer.baseAddress! + at).initialize(from: base, count: bytes.count)
            at += bytes.count
        }

        mutating func put(_ s: String?) {
            guard let s else { return put(PackedLogEntry.absent) }
            put(UInt32(s.utf8.count))
            let copied: Void? = s.utf8.withContiguousStorageIfAvailable { put($0) }
            if copied == nil { for b in s.utf8 { put(b) } }
        }
    }

    /// The entry as it was appended.
    var entry: APNsLogEntry {
        var offset = 0
        func u32() -> UInt32 {
            var n: UInt32 = 0
            withUnsafeMutableBytes(of: &n) { $0.copyBytes(from: bytes[offset..<offset + 4]) }
            offset += 4
            return UInt32(littleEndian: n)
        }
        func chunk(_ n: Int) -> ArraySlice<UInt8> {
            defer { offset += n }
            return bytes[offset..<offset + n]
        }
        func string() -> String? {
            let n = u32()
            return n == Self.absent ? nil : String(decoding: chunk(Int(n)), as: UTF8.self)
        }
        let authKind = bytes[0]
        offset = 1
        let method = string() ?? "", path = string() ?? "", token = string().flatMap(DeviceToken.init(hex:))
        let topic = string(), reason = string(), apnsID = string() ?? "", apnsUniqueID = string()
        let auth1 = string(), auth2 = string()
        let payload = Array(chunk(Int(u32())))
        let headerCount = Int(u32())
        var headers: [HTTPField] = []
        headers.reserveCapacity(headerCount)
        for _ in 0..<headerCount {
            let name = string() ?? ""
            headers.append(HTTPField(name, string() ?? ""))
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
