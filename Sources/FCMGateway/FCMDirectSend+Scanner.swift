/// `FCMDirectSend`'s reader: byte ranges of the body, no `String` but the token. It only ever accepts; `nil` for
/// anything outside the shape `FCMDirectSend` describes.
extension FCMDirectSend {
    struct Scanner: JSONByteCursor {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        /// A string of printable ASCII without `\`: the range of its contents (without the quotes).
        mutating func plain() -> Range<Int>? {
            ws()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var j = start
            while j < b.count {
                let c = b[j]
                if c == UInt8(ascii: "\"") { break }
                guard c >= 0x20, c < 0x7F, c != UInt8(ascii: "\\") else { return nil }
                j += 1
            }
            guard j < b.count else { return nil }
            i = j + 1
            return start..<j
        }

        /// `"key":`: the key's range.
        mutating func key() -> Range<Int>? {
            guard let k = plain(), take(UInt8(ascii: ":")) else { return nil }
            return k
        }

        /// The bytes at `r` are `name`'s.
        func `is`(_ r: Range<Int>, _ name: StaticString) -> Bool {
            FCMDirectSend.equal(FCMDirectSend.bytes(b, r), FCMDirectSend.staticBytes(name))
        }

        /// `true` / `false`.
        mutating func bool() -> Bool? {
            ws()
            if literal("true") { return true }
            if literal("false") { return false }
            return nil
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let t = FCMDirectSend.staticBytes(text)
            guard b.count - i >= t.count, FCMDirectSend.equal(FCMDirectSend.bytes(b, i..<(i + t.count)), t) else {
                return false
            }
            i += t.count
            return true
        }

        /// An `aps` member's value, written back as sent: a plain string (with its quotes), `true`, `false`, or
        /// `-?(0|[1-9][0-9]*)` of at most 15 digits (`-0` excluded: the payload writes it `0`).
        mutating func apsValue() -> Range<Int>? {
            ws()
            guard i < b.count else { return nil }
            let start = i
            switch b[i] {
            case UInt8(ascii: "\""): guard plain() != nil else { return nil }
            case UInt8(ascii: "t"): guard literal("true") else { return nil }
            case UInt8(ascii: "f"): guard literal("false") else { return nil }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let negative = b[i] == UInt8(ascii: "-")
                var j = negative ? i + 1 : i
                let digits = j
                while j < b.count, b[j] >= UInt8(ascii: "0"), b[j] <= UInt8(ascii: "9") { j += 1 }
                let count = j - digits
                guard count > 0, count <= 15, count == 1 || b[digits] != UInt8(ascii: "0"),
                    !(negative && b[digits] == UInt8(ascii: "0"))
                else { return nil }
                if j < b.count, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E") {
                    return nil
                }
                i = j
            default: return nil
            }
            return start..<i
        }

        /// The whole body.
        mutating func send() -> FCMDirectSend? {
            var validateOnly: Bool?
            var message: FCMDirectSend?
            let ok = object { r, k in
                if r.is(k, "message") {
                    guard message == nil else { return false }
                    message = r.message()
                    return message != nil
                }
                guard validateOnly == nil, r.is(k, "validate_only") || r.is(k, "validateOnly"), let v = r.bool()
                else { return false }
                validateOnly = v
                return true
            }
            ws()
            guard ok, i == b.count, var message = message.take() else { return nil }
            message.validateOnly = validateOnly ?? false
            return message
        }

        /// `message`'s object.
        mutating func message() -> FCMDirectSend? {
            ws()
            let start = i
            var token: Range<Int>?
            var members: [Member] = []
            members.reserveCapacity(8)
            var title: Range<Int>?, body: Range<Int>?
            var seenData = false, seenNotification = false, seenAPS = false
            var contentAvailable = false
            let ok = object { r, k in
                if r.is(k, "token") {
                    guard token == nil, let v = r.plain(), !v.isEmpty else { return false }
                    token = v
                    return true
                }
                if r.is(k, "data") {
                    guard !seenData else { return false }
                    seenData = true
                    return r.object { r, k in
                        guard !r.isReservedOrFCMKey(k), let v = r.plain() else { return false }
                        members.append(Member(inAPS: false, key: k, value: v))
                        return true
                    }
                }
                if r.is(k, "notification") {
                    guard !seenNotification else { return false }
                    seenNotification = true
                    return r.object { r, k in
                        if r.is(k, "title") {
                            guard title == nil, let v = r.plain() else { return false }
                            title = v
                            return true
                        }
                        guard r.is(k, "body"), body == nil, let v = r.plain() else { return false }
                        body = v
                        return true
                    }
                }
                guard r.is(k, "apns"), !seenAPS else { return false }
                seenAPS = true
                var seenPayload = false
                return r.object { r, k in
                    guard r.is(k, "payload"), !seenPayload else { return false }
                    seenPayload = true
                    var seenAPSObject = false
                    return r.object { r, k in
                        guard r.is(k, "aps"), !seenAPSObject else { return false }
                        seenAPSObject = true
                        return r.object { r, k in
                            guard !r.is(k, "alert"), let v = r.apsValue() else { return false }
                            if r.is(k, "content-available"), r.is(v, "1") { contentAvailable = true }
                            members.append(Member(inAPS: true, key: k, value: v))
                            return true
                        }
                    }
                }
            }
            guard ok, let token, distinctKeys(members) else { return nil }
            return FCMDirectSend(
                validateOnly: false,
                token: String(decoding: FCMDirectSend.bytes(b, token), as: UTF8.self),
                messageRange: start..<i, members: members, title: title, body: body,
                contentAvailable: contentAvailable)
        }

        /// `data` keys the fast reader refuses (`FCMMessageRules.isReservedDataKey`) or the translation writes
        /// itself (`aps`).
        func isReservedOrFCMKey(_ k: Range<Int>) -> Bool {
            let key = FCMDirectSend.bytes(b, k)
            func hasPrefix(_ p: StaticString) -> Bool {
                let q = FCMDirectSend.staticBytes(p)
                return key.count >= q.count && FCMDirectSend.equal(UnsafeBufferPointer(rebasing: key[0..<q.count]), q)
            }
            return `is`(k, "from") || `is`(k, "message_type") || `is`(k, "aps") || hasPrefix("google")
                || hasPrefix("gcm")
        }

        /// No key twice within `data`, nor within `aps`.
        func distinctKeys(_ members: [Member]) -> Bool {
            for x in members.indices {
                for y in members.indices where y > x && members[y].inAPS == members[x].inAPS {
                    if FCMDirectSend.equal(
                        FCMDirectSend.bytes(b, members[x].key), FCMDirectSend.bytes(b, members[y].key))
                    {
                        return false
                    }
                }
            }
            return true
        }
    }
}
