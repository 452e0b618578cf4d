import PushModel

/// A message id and `name` as issued (`FCMGateway.nextMessageName`): the project's fixed name parts and the id's
/// microseconds, written out only where text is needed. The send's answer and payload write the digits straight
/// into their bytes, and the log keeps this (the name's text is made when the log is read), so a token send
/// allocates neither the 16-digit id nor the name.
struct FCMMessageName: Sendable {
    let runtime: FCMGateway.ProjectRuntime
    /// The message id: microseconds since the epoch (`nextMessageName`).
    let micros: UInt64
    let fanOut: Bool

    /// `projects/p/messages/0:<id>%<suffix>` for token targets, `projects/p/messages/<id>` for fan-outs.
    var text: String {
        let prefix = fanOut ? runtime.fanOutNamePrefix : runtime.tokenNamePrefix
        let suffix = fanOut ? [] : runtime.tokenNameSuffix
        return Self.withDigits(micros) { id in
            String(unsafeUninitializedCapacity: prefix.count + id.count + suffix.count) { out in
                var n = 0
                for b in prefix { out[n] = b; n += 1 }
                for b in id { out[n] = b; n += 1 }
                for b in suffix { out[n] = b; n += 1 }
                return n
            }
        }
    }

    /// `"<name>"` as `JSONValue.writeString` writes the name's text (the prefix escaped once per project; digits,
    /// `%` and hex need no escape).
    func writeJSONString(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: fanOut ? runtime.fanOutNamePrefixEscaped : runtime.tokenNamePrefixEscaped)
        Self.withDigits(micros) { out.append(contentsOf: $0) }
        if !fanOut { out.append(contentsOf: runtime.tokenNameSuffix) }
        out.append(UInt8(ascii: "\""))
    }

    /// The decimal digits of `n`, on the stack.
    static func withDigits<R>(_ n: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, written backwards
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            var rest = n
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `JSONValue.writeString(text)` without its quotes (escaping is byte by byte, so parts escape separately).
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        JSONValue.writeString(String(decoding: bytes, as: UTF8.self), into: &out)
        return Array(out.dropFirst().dropLast())
    }
}
