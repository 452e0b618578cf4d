import Foundation
import HTTPTypes
import PushModel

/// The usual token send, read and translated straight from the body's bytes: no `FCMMessage`, no dictionaries,
/// no `String` per member. It takes a strict subset of what `FCMSendFastReader` takes, and for each body it takes
/// writes the same APNs headers and payload as `FCMTranslation.translatedFields` on the fast reader's message
/// (checked by `FCMDirectSendTests` over many bodies and their one-byte mutations). Anything else is `nil`: the
/// send path then reads the message as before, so every refusal and every unusual shape stays the full path's.
///
/// Handled: `validate_only`/`validateOnly` (bool) and `message` with `token`, `data`, `notification` (`title`,
/// `body`) and `apns.payload` holding only `aps`, whose members are strings, integers and booleans (no `alert`),
/// every string ASCII without escapes or control characters, every name sent once, a body of at most
/// `maxBodyBytes` (so the message cannot be too big). Left to the message path: the other targets, `image`,
/// `apns.headers`, `apns.fcm_options`, nested values, `alert` in `aps`, payload keys besides `aps`, the data keys
/// `aps` and `fcm_options`, and everything the fast reader leaves to the full rules.
struct FCMDirectSend {
    var validateOnly: Bool
    /// `message.token`.
    var token: String
    /// The `message` value's bytes (the log's `RawMessage.slice`).
    var messageRange: Range<Int>
    /// `data`'s members and `aps`'s, in the body's order: a `data` value is a string's contents, an `aps` value
    /// its whole JSON text.
    var members: [Member]
    var title: Range<Int>?
    var body: Range<Int>?
    /// `aps` has `"content-available":1`.
    var contentAvailable: Bool

    struct Member {
        var inAPS: Bool
        var key: Range<Int>
        var value: Range<Int>
    }

    /// A token send's body up to this size cannot be too big (`FCMGateway.maxSizeGrowth`).
    static let maxBodyBytes = FCMMessageRules.maxPayloadBytes / FCMGateway.maxSizeGrowth

    /// The send, or `nil`: the message path decides.
    static func read(_ body: [UInt8]) -> FCMDirectSend? {
        guard body.count <= maxBodyBytes else { return nil }
        return body.withUnsafeBufferPointer { b in
            var r = Scanner(b: b)
            return r.send()
        }
    }

    // MARK: - Translation

    /// `FCMTranslation.translatedFields` for this send (`bodyBytes`: the request body it was read from).
    func translatedFields(
        _ bodyBytes: [UInt8], messageID: UInt64, senderID: String, fid: String?, bundleID: String
    ) -> (fields: [HTTPField], payload: [UInt8]) {
        let out = bodyBytes.withUnsafeBufferPointer { b in
            payload(b, messageID: messageID, senderID: senderID, fid: fid)
        }
        let hasAlert = title != nil || body != nil
        let background =
            APNsPushType.implied(
                contentAvailable: contentAvailable,
                apsHasKey: { key in
                    if key == "alert" { return hasAlert }
                    return bodyBytes.withUnsafeBufferPointer { b in
                        members.contains { $0.inAPS && Self.bytes(b, $0.key).elementsEqual(key.utf8) }
                    }
                }) == .background
        var headers: [HTTPField] = []
        headers.reserveCapacity(4)  // room for the provider token's `authorization`, which the gateway adds
        headers.append(HTTPField(lowercased: "apns-topic", bundleID))
        headers.append(HTTPField(lowercased: "apns-push-type", background ? "background" : "alert"))
        headers.append(HTTPField(lowercased: "apns-priority", background ? "5" : "10"))
        return (headers, out)
    }

    /// One member to write: its key's bytes and what its value is.
    struct Slot {
        var key: UnsafeBufferPointer<UInt8>
        /// ≥ 0: `members[tag]`; else one of the `Fixed` values.
        var tag: Int
    }

    enum Fixed {
        static let aps = -1
        static let messageID = -2
        static let senderID = -3
        static let fid = -4
        static let analytics = -5
        static let alert = -6
    }

    static func staticBytes(_ s: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
    }

    static func bytes(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: b[r])
    }

    /// Compact, keys sorted by their bytes: what `FCMTranslation.write` writes for the message.
    func writePayload(
        _ b: UnsafeBufferPointer<UInt8>, messageID: UInt64, senderID: String, fid: String?, into out: inout ByteWriter
    ) {
        withUnsafeTemporaryAllocation(of: Slot.self, capacity: members.count + 6) { slots in
            // Top level: the data members, `aps` and FCM's keys.
            var n = 0
            func add(_ key: UnsafeBufferPointer<UInt8>, _ tag: Int) {
                Self.insertSorted(Slot(key: key, tag: tag), into: slots, count: &n)
            }
            for (i, m) in members.enumerated() where !m.inAPS { add(Self.bytes(b, m.key), i) }
            add(Self.staticBytes("aps"), Fixed.aps)
            add(Self.staticBytes("gcm.message_id"), Fixed.messageID)
            add(Self.staticBytes("google.c.sender.id"), Fixed.senderID)
            if fid != nil { add(Self.staticBytes("google.c.fid"), Fixed.fid) }
            add(Self.staticBytes("google.c.a.e"), Fixed.analytics)
            out.put(UInt8(ascii: "{"))
            for k in 0..<n {
                if k > 0 { out.put(UInt8(ascii: ",")) }
                writeKey(slots[k].key, into: &out)
                switch slots[k].tag {
                case Fixed.aps: writeAPS(b, into: &out)
                case Fixed.messageID:
                    out.put(UInt8(ascii: "\""))
                    FCMMessageName.withDigits(messageID) { out.put($0) }
                    out.put(UInt8(ascii: "\""))
                case Fixed.senderID: out.putString(senderID)
                case Fixed.fid: out.putString(fid ?? "")
                case Fixed.analytics: out.put(Self.staticBytes(#""1""#))
                case let i:  // a data value: a plain string's contents
                    out.put(UInt8(ascii: "\""))
                    out.put(Self.bytes(b, members[i].value))
                    out.put(UInt8(ascii: "\""))
                }
            }
            out.put(UInt8(ascii: "}"))
        }
    }

    /// `aps`: its members from the payload and `notification`'s alert.
    func writeAPS(_ b: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        withUnsafeTemporaryAllocation(of: Slot.self, capacity: members.count + 1) { slots in
            var n = 0
            func add(_ key: UnsafeBufferPointer<UInt8>, _ tag: Int) {
                Self.insertSorted(Slot(key: key, tag: tag), into: slots, count: &n)
            }
            for (i, m) in members.enumerated() where m.inAPS { add(Self.bytes(b, m.key), i) }
            if title != nil || body != nil { add(Self.staticBytes("alert"), Fixed.alert) }
            out.put(UInt8(ascii: "{"))
            for k in 0..<n {
                if k > 0 { out.put(UInt8(ascii: ",")) }
                writeKey(slots[k].key, into: &out)
                if slots[k].tag == Fixed.alert {  // {"body":…,"title":…}
                    out.put(UInt8(ascii: "{"))
                    if let body {
                        out.put(Self.staticBytes(#""body":""#))
                        out.put(Self.bytes(b, body))
                        out.put(UInt8(ascii: "\""))
                    }
                    if let title {
                        if body != nil { out.put(UInt8(ascii: ",")) }
                        out.put(Self.staticBytes(#""title":""#))
                        out.put(Self.bytes(b, title))
                        out.put(UInt8(ascii: "\""))
                    }
                    out.put(UInt8(ascii: "}"))
                } else {  // the value's text as sent: a plain string, an integer (`-0` excluded) or a boolean
                    out.put(Self.bytes(b, members[slots[k].tag].value))
                }
            }
            out.put(UInt8(ascii: "}"))
        }
    }

    /// `"key":` (keys here need no escape).
    func writeKey(_ key: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        out.put(UInt8(ascii: "\""))
        out.put(key)
        out.put(Self.staticBytes(#"":"#))
    }

    /// Same bytes (a length check, then `memcmp`).
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    /// Inserts `slot` among the first `n` of `slots`, kept sorted by key bytes (a few keys: insertion sort).
    static func insertSorted(_ slot: Slot, into slots: UnsafeMutableBufferPointer<Slot>, count n: inout Int) {
        var j = n
        while j > 0, precedes(slot.key, slots[j - 1].key) {
            slots[j] = slots[j - 1]
            j -= 1
        }
        slots[j] = slot
        n += 1
    }

    /// `a` sorts before `b` by bytes.
    static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = Swift.min(a.count, b.count)
        var i = 0
        while i < n {
            if a[i] != b[i] { return a[i] < b[i] }
            i += 1
        }
        return a.count < b.count
    }
}
