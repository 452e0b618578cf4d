/// Why a JSON text could not be parsed, with the byte offset to look at.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    package var offset: Int
    package var message: String
    package var description: String { "invalid JSON at byte \(offset): \(message)" }

    /// Where `offset` is in `bytes` (the text it was parsed from) as a 1-based line and column, the column in Unicode
    /// scalars as the suite loader's positions count it (`SourcePosition`).
    package func lineAndColumn(in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // UTF-8 continuation bytes (10xxxxxx) do not start a scalar.
        let column = 1 + bytes[lineStart..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column)
    }
}

extension JSONValue {
    /// Parses one JSON value (RFC 8259) from UTF-8 bytes; trailing non-whitespace is an error.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.skipWhitespace()
        let value = try p.parseValue(depth: 0)
        p.skipWhitespace()
        guard p.index == bytes.count else { throw p.error("unexpected trailing characters") }
        return value
    }

    /// True when `bytes` hold exactly one JSON object, by the same grammar as `parse(_:)`, without building
    /// the value (no dictionaries, and no strings unless they contain escapes or non-ASCII text). For
    /// hot paths that only need to accept or refuse a document, such as a gateway checking every payload.
    package static func isValidObject(_ bytes: [UInt8]) -> Bool {
        var p = JSONParser(bytes: bytes, building: false)
        p.skipWhitespace()
        guard p.index < bytes.count, bytes[p.index] == UInt8(ascii: "{") else { return false }
        guard (try? p.parseValue(depth: 0)) != nil else { return false }
        p.skipWhitespace()
        return p.index == bytes.count
    }

    /// Parses one JSON value from a string.
    package static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    /// False: only check the grammar; containers and numbers come back as `.null`.
    let building: Bool
    static let maxDepth = 512

    init(bytes: [UInt8], building: Bool = true) {
        self.bytes = bytes
        self.building = building
    }

    func error(_ message: String) -> JSONParseError { JSONParseError(offset: index, message: message) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let l = Array(literal.utf8)
        guard index + l.count <= bytes.count, Array(bytes[index..<index + l.count]) == l else {
            throw error("expected \(literal)")
        }
        index += l.count
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""):
            if building { return .string(try parseString()) }
            try skipString()
            return .null
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var result: [String: JSONValue] = [:]
        if isEmptyContainer(closer: UInt8(ascii: "}")) { return .object(result) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key: String
            if building {
                key = try parseString()
            } else {
                try skipString()
                key = ""
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if building { result[key] = value }
            guard try anotherElement(closer: UInt8(ascii: "}"), of: "object") else { return .object(result) }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var result: [JSONValue] = []
        if isEmptyContainer(closer: UInt8(ascii: "]")) { return .array(result) }
        while true {
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if building { result.append(value) }
            guard try anotherElement(closer: UInt8(ascii: "]"), of: "array") else { return .array(result) }
        }
    }

    /// At the start of an object or array: consumes `closer` when it comes first (`{}`, `[ ]`).
    mutating func isEmptyContainer(closer: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closer else { return false }
        index += 1
        return true
    }

    /// After an object member or array element: consumes `,` (true: another follows) or `closer` (false: the
    /// container ends).
    mutating func anotherElement(closer: UInt8, of container: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unterminated \(container)") }
        let next = bytes[index]
        guard next == UInt8(ascii: ",") || next == closer else {
            throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
        }
        index += 1
        return next == UInt8(ascii: ",")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    /// Checks a string like `parseString` does; plain ASCII strings (the usual case) allocate nothing.
    mutating func skipString() throws(JSONParseError) {
        let start = index
        index += 1
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if c == UInt8(ascii: "\\") || c >= 0x80 || c < 0x20 { break }
            index += 1
        }
        index = start  // escapes, non-ASCII, control characters or no end: the full check decides
        _ = try parseString()
    }

    mutating func parseString() throws(JSONParseError) -> String {
        // Plain ASCII without escapes (keys and most values): one String straight from the input bytes. The general
        // path below grew a byte array a byte at a time and validated it again (several allocations per string).
        let start = index + 1
        var end = start
        while end < bytes.count {
            let c = bytes[end]
            if c == UInt8(ascii: "\"") {
                index = end + 1
                return bytes.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
                }
            }
            if c == UInt8(ascii: "\\") || c >= 0x80 || c < 0x20 { break }
            end += 1
        }
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("bad low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("bad unicode escape") }
                    out += Array(String(Character(u)).utf8)
                default: throw error("bad escape")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                out.append(c)
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let s = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        guard digits() > 0 else { throw error("expected digits") }
        if bytes[intStart] == UInt8(ascii: "0"), index - intStart > 1 { throw error("leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("expected exponent digits") }
        }
        // The grammar above is all `Double(_:)` needs: any text it accepts converts (possibly to ±infinity).
        guard building else { return .null }
        // Integers of up to 15 digits (most numbers in payloads) are exact in a Double: converted here, without
        // making a String for `Double(_:)`.
        let negative = bytes[start] == UInt8(ascii: "-")
        let digitsStart = negative ? start + 1 : start
        if index - digitsStart <= 15,
            !bytes[digitsStart..<index].contains(where: { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") })
        {
            var v: Int64 = 0
            for b in bytes[digitsStart..<index] { v = v * 10 + Int64(b - UInt8(ascii: "0")) }
            return .number(negative ? -Double(v) : Double(v))
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // A longer integer that a Double would round (beyond ±2^53) stays exact when it fits 64 bits, as iOS's
        // JSONSerialization keeps it (Tests/reference/ios-json.md).
        if index - digitsStart <= 20, let i = Int128(text), i >= Int128(Int64.min), i <= Int128(UInt64.max) {
            return JSONValue.exactInteger(i)
        }
        guard let d = Double(text) else { throw error("bad number") }
        return .number(d)
    }
}
