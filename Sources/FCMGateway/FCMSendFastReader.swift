import PushModel

/// A byte-level reader for the usual shape of a `messages:send` body, so the hot path builds no `JSONValue` tree
/// and no proto-field maps. It only ever ACCEPTS: anything it does not handle, or that the rules might refuse,
/// makes it return `nil`, and `FCMMessageRules.parseSendBody` (the full proto-JSON rules, which write Google's
/// errors) decides instead. So every error answer stays the full reader's, and for every body this reader
/// accepts the full reader returns the same `FCMSendRequest` (checked by `FCMSendFastReaderTests` and the
/// `fcm-send` fuzz target).
///
/// Handled: `validate_only` (bool), `message` with one target (`token`, `topic`, `condition`, `fid`), `data`,
/// `notification` (`title`, `body`, `image`), `apns` (`headers`, `payload`, `fcm_options`, `live_activity_token`),
/// snake_case or camelCase names. Left to the full rules: `android`, `webpush`, message-level `fcm_options`,
/// `name`, `null` values, strings with escapes or control characters, keys sent twice, anything unknown or
/// ill-typed, and malformed JSON.
package enum FCMSendFastReader {
    /// The request, or `nil`: the full rules decide.
    package static func read(_ body: [UInt8]) -> FCMSendRequest? {
        readParts(body).map { FCMSendRequest(validateOnly: $0.validateOnly, message: $0.message) }
    }

    /// `read`'s request as its two fields (the send path's form: no `FCMSendRequest` to take apart).
    static func readParts(_ body: [UInt8]) -> (validateOnly: Bool, message: FCMMessage)? {
        body.withUnsafeBufferPointer { buffer in
            var r = Reader(b: buffer)
            return r.sendRequest(body)
        }
    }

    /// Payloads longer than this go to the full rules: the payload is parsed on its own here, so the nesting
    /// limit of a whole-body parse (512 from the root) could differ by the three levels above it for a deep one.
    static let maxFastPayloadBytes = 500
    /// How deep `Reader.value(depth:)` reads (a deeper payload goes to the parser).
    static let maxFastDepth = 16

    struct Reader: JSONByteCursor {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i >= b.count }

        /// A string without escapes or control characters (valid UTF-8), else `nil`.
        mutating func plainString() -> String? {
            ws()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var j = start
            var ascii = true
            while j < b.count {
                let c = b[j]
                if c == UInt8(ascii: "\"") { break }
                if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
                if c >= 0x80 { ascii = false }
                j += 1
            }
            guard j < b.count else { return nil }
            i = j + 1
            let bytes = UnsafeBufferPointer(rebasing: b[start..<j])
            return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }

        /// `"key":`; `nil` for anything else.
        mutating func key() -> String? {
            guard let k = plainString(), take(UInt8(ascii: ":")) else { return nil }
            return k
        }

        /// `true` / `false`.
        mutating func bool() -> Bool? {
            ws()
            if b.count - i >= 4, b[i] == UInt8(ascii: "t"), b[i + 1] == UInt8(ascii: "r"),
                b[i + 2] == UInt8(ascii: "u"),
                b[i + 3] == UInt8(ascii: "e")
            {
                i += 4
                return true
            }
            if b.count - i >= 5, b[i] == UInt8(ascii: "f"), b[i + 1] == UInt8(ascii: "a"),
                b[i + 2] == UInt8(ascii: "l"),
                b[i + 3] == UInt8(ascii: "s"), b[i + 4] == UInt8(ascii: "e")
            {
                i += 5
                return false
            }
            return nil
        }

        /// A `map<string, string>` with distinct keys.
        mutating func stringMap() -> [String: String]? {
            var out: [String: String] = [:]
            let ok = object { r, k in
                guard let v = r.plainString(), out.updateValue(v, forKey: k) == nil else { return false }
                return true
            }
            return ok ? out : nil
        }

        /// `apns.payload`'s object as `JSONValue.parse` reads it: read here when it has only the usual shapes
        /// (`value(depth:)`), else its bytes parsed on their own; `nil` past `maxFastPayloadBytes`.
        mutating func payloadObject() -> [String: JSONValue]? {
            ws()
            let start = i
            if case .object(let o)? = value(depth: 0) {
                return i - start <= FCMSendFastReader.maxFastPayloadBytes ? o : nil
            }
            i = start
            guard let span = objectSpan(), span.count <= FCMSendFastReader.maxFastPayloadBytes,
                case .object(let o)? = try? JSONValue.parse(Array(b[span]))
            else { return nil }
            return o
        }

        /// One JSON value, the same as `JSONValue.parse` gives for it, when it has only these shapes: strings
        /// without escapes or control characters (`plainString`), integers of up to 15 digits (no fraction or
        /// exponent), `true`, `false`, `null`, objects (a key sent twice: the last value, as the parser) and
        /// arrays, at most `maxFastDepth` deep. `nil` for anything else, and for malformed JSON: the caller then
        /// leaves the value to the parser.
        mutating func value(depth: Int) -> JSONValue? {
            ws()
            guard i < b.count, depth < FCMSendFastReader.maxFastDepth else { return nil }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                var o: [String: JSONValue] = [:]
                if take(UInt8(ascii: "}")) { return .object(o) }
                while true {
                    guard let k = key(), let v = value(depth: depth + 1) else { return nil }
                    o[k] = v
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "}")) ? .object(o) : nil
                }
            case UInt8(ascii: "["):
                i += 1
                var a: [JSONValue] = []
                if take(UInt8(ascii: "]")) { return .array(a) }
                while true {
                    guard let v = value(depth: depth + 1) else { return nil }
                    a.append(v)
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "]")) ? .array(a) : nil
                }
            case UInt8(ascii: "\""): return plainString().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
            default: return nil
            }
        }

        /// `text` (ASCII) here.
        mutating func literal(_ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard b.count - i >= n else { return false }
            let t = UnsafeBufferPointer(start: text.utf8Start, count: n)
            guard b[i..<(i + n)].elementsEqual(t) else { return false }
            i += n
            return true
        }

        /// `-?(0|[1-9][0-9]*)` of at most 15 digits not followed by a fraction or exponent, converted as the
        /// parser converts it (`-0` is -0.0); `nil` for any other number.
        mutating func integer() -> JSONValue? {
            let negative = b[i] == UInt8(ascii: "-")
            var j = negative ? i + 1 : i
            let digitsStart = j
            var v: Int64 = 0
            while j < b.count, b[j] >= UInt8(ascii: "0"), b[j] <= UInt8(ascii: "9") {
                v = v &* 10 &+ Int64(b[j] &- UInt8(ascii: "0"))
                j += 1
            }
            let count = j - digitsStart
            guard count > 0, count <= 15, !(count > 1 && b[digitsStart] == UInt8(ascii: "0")) else { return nil }
            if j < b.count, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E") {
                return nil
            }
            i = j
            return .number(negative ? -Double(v) : Double(v))
        }

        /// The byte range of the object starting here (matching braces outside strings; grammar not checked).
        mutating func objectSpan() -> Range<Int>? {
            ws()
            guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
            let start = i
            var depth = 0
            while i < b.count {
                let c = b[i]
                i += 1
                switch c {
                case UInt8(ascii: "\""):
                    while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
                    guard i < b.count else { return nil }
                    i += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return start..<i }
                default: break
                }
            }
            return nil
        }

        mutating func sendRequest(_ body: [UInt8]) -> (validateOnly: Bool, message: FCMMessage)? {
            var validateOnly: Bool?
            var message: FCMMessage?
            let ok = object { r, k in
                switch k {
                case "validate_only", "validateOnly":
                    guard validateOnly == nil, let v = r.bool() else { return false }
                    validateOnly = v
                    return true
                case "message":
                    guard message == nil else { return false }
                    r.ws()
                    let start = r.i
                    // Read into its variable and completed there (a local `var` was copied into it).
                    message = r.message()
                    guard message != nil else { return false }
                    message!.rawStorage = .slice(body, start..<r.i)
                    return true
                default: return false
                }
            }
            ws()
            // Moved out of the captured variable (a `let` binding would copy the message and then free the original).
            guard ok, atEnd, let message = message.take() else { return nil }
            return (validateOnly ?? false, message)
        }

        /// Field numbers of the message fields handled here, for "sent twice" (in either spelling).
        struct Seen {
            var bits: UInt32 = 0
            mutating func first(_ n: Int) -> Bool {
                let bit: UInt32 = 1 << UInt32(n)
                defer { bits |= bit }
                return bits & bit == 0
            }
        }

        mutating func message() -> FCMMessage? {
            var seen = Seen()
            var target: (name: String, text: String)?
            var data: [String: String] = [:]
            var title: String?, bodyText: String?, image: String?
            var headers: [String: String] = [:]
            var payload: [String: JSONValue]?
            var apnsImage: String?
            var liveActivityToken: String?
            let ok = object { r, k in
                switch k {
                case "token", "topic", "condition", "fid":
                    // a second target is a oneof error: the full rules word it
                    guard target == nil, let v = r.plainString() else { return false }
                    target = (k, v)
                    return true
                case "data":
                    guard seen.first(0), let m = r.stringMap() else { return false }
                    data = m
                    return true
                case "notification":
                    guard seen.first(1) else { return false }
                    var n = Seen()
                    return r.object { r, k in
                        switch k {
                        case "title": guard n.first(0), let v = r.plainString() else { return false }; title = v
                        case "body": guard n.first(1), let v = r.plainString() else { return false }; bodyText = v
                        case "image": guard n.first(2), let v = r.plainString() else { return false }; image = v
                        default: return false
                        }
                        return true
                    }
                case "apns":
                    guard seen.first(2) else { return false }
                    var a = Seen()
                    return r.object { r, k in
                        switch k {
                        case "headers":
                            guard a.first(0), let m = r.stringMap() else { return false }
                            headers = m
                        case "payload":
                            guard a.first(1), let o = r.payloadObject() else { return false }
                            if let aps = o["aps"], aps.objectValue == nil { return false }
                            payload = o
                        case "fcm_options", "fcmOptions":
                            guard a.first(2) else { return false }
                            var f = Seen()
                            return r.object { r, k in
                                switch k {
                                case "analytics_label", "analyticsLabel":
                                    guard f.first(0), let v = r.plainString(), FCMMessageRules.isValidAnalyticsLabel(v)
                                    else { return false }
                                case "image":
                                    guard f.first(1), let v = r.plainString() else { return false }
                                    apnsImage = v
                                default: return false
                                }
                                return true
                            }
                        case "live_activity_token", "liveActivityToken":
                            guard a.first(3), let v = r.plainString() else { return false }
                            liveActivityToken = v
                        default: return false
                        }
                        return true
                    }
                default: return false
                }
            }
            guard ok, let target, let resolved = try? FCMMessageRules.target(name: target.name, text: target.text),
                !data.keys.contains(where: FCMMessageRules.isReservedDataKey)
            else { return nil }
            return FCMMessage(
                target: resolved, data: data, notificationTitle: title, notificationBody: bodyText,
                notificationImage: image,
                apnsHeaders: headers, apnsPayload: payload, apnsImage: apnsImage, liveActivityToken: liveActivityToken,
                raw: .null)
        }
    }
}
