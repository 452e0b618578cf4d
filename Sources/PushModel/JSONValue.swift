/// A JSON value: parse from bytes, serialize with sorted object keys (deterministic output),
/// and look up by dotted path (`aps.alert.title`, `items.0.id`).
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    /// An integer a Double cannot hold exactly (beyond ±2^53, within Int64.min...UInt64.max): what iOS's
    /// JSONSerialization keeps exact in an NSNumber (Tests/reference/ios-json.md). Every other number is `.number`,
    /// so each value has one representation and `==` compares values. Boxed (`indirect`): an Int128 payload would
    /// align every JSONValue to 16 bytes (stride 32, not 24) for a case few payloads have.
    indirect case integer(Int128)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value at a dotted path; array elements are addressed by decimal index. `nil` if absent.
    package subscript(path path: String) -> JSONValue? {
        if path.isEmpty { return self }
        var current: JSONValue = self
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let o):
                guard let next = o[String(part)] else { return nil }
                current = next
            case .array(let a):
                guard let i = Int(part), a.indices.contains(i) else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }

    /// The value for a key if this is an object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// A number as a Double (an `.integer` rounded to the nearest one).
    package var doubleValue: Double? {
        switch self {
        case .number(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
    package var intValue: Int? {
        if case .number(let d) = self, d.rounded() == d, abs(d) < 9.0e15 { return Int(d) }
        if case .integer(let i) = self { return Int(exactly: i) }
        return nil
    }
    /// True for `.number` and `.integer`.
    package var isNumber: Bool {
        switch self {
        case .number, .integer: return true
        default: return false
        }
    }

    /// The integer `i` as JSON: `.number` when a Double holds it exactly, else `.integer` (one representation per
    /// value).
    package static func exactInteger(_ i: Int128) -> JSONValue {
        let d = Double(i)
        return Int128(exactly: d) == i ? .number(d) : .integer(i)
    }
    package var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var isNull: Bool { self == .null }

    /// A short rendering for messages: strings unquoted, everything else as compact JSON.
    var displayString: String {
        if case .string(let s) = self { return s }
        return serialized()
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    package init(nilLiteral: ()) { self = .null }
}

// MARK: - Serialization

extension JSONValue {
    /// Compact JSON with object keys sorted by their UTF-8 bytes. Integral numbers print without `.0`.
    package func serialized() -> String {
        var out: [UInt8] = []
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `serialized()` as UTF-8 bytes.
    package func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)  // one allocation for the usual small payload, not a regrowth per doubling
        write(into: &out)
        return out
    }

    /// Appends `serializedBytes()` to `out` (for writers that put JSON values inside bytes of their own).
    package func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .number(let d): out += Array(JSONValue.format(d).utf8)
        case .integer(let i): out += Array(String(i).utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            let members = Array(o)
            JSONValue.writeObject(keys: members.map(\.key), into: &out) { i, out in members[i].value.write(into: &out) }
        }
    }

    /// Appends `{"key":value,…}` with the members in the order `serialized()` writes them (keys sorted by their
    /// UTF-8 bytes), each value appended by `writeValue`: the one object writer, also for writers whose members
    /// are not all `JSONValue`s yet (FCM's translation writes some as bytes). Keys must be distinct.
    /// Not generic on purpose: called from another module, a generic writer ran unspecialized in release builds
    /// (generic metadata and tuple copies per member; FCM's send rate fell by about a fifth), `@inlinable` or not
    /// once the modules share `package` access. `writeValue(i, &out)` appends the value of `keys[i]`.
    package static func writeObject(keys: [String], into out: inout [UInt8], writeValue: (Int, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "{"))
        let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        for (n, i) in order.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            writeString(keys[i], into: &out)
            out.append(UInt8(ascii: ":"))
            writeValue(i, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    package static func format(_ d: Double) -> String {
        if !d.isFinite { return "null" }
        if d.rounded() == d, abs(d) < 9.0e15 { return String(Int64(d)) }
        return "\(d)"
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal, escaped as `serialized()` escapes it.
    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: scanned as contiguous bytes and copied whole (byte-by-byte appends, or
        // `contains(where:)` on the UTF-8 view, cost a measurable share of an FCM send).
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        // A string with escapes (a transcript: a newline on every line): the runs between them are copied whole.
        var s = s
        s.withUTF8 { bytes in
            var run = 0
            for i in bytes.indices {
                let c = bytes[i]
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                run = i + 1
                out.append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(c)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    out.append(Self.hexDigits[Int(c >> 4)])
                    out.append(Self.hexDigits[Int(c & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
