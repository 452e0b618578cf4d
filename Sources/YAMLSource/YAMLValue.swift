/// A plain scalar typed by the YAML 1.2 core schema.
///
/// - `null`: `null`, `Null`, `NULL`, `~`, or empty
/// - `bool`: `true`/`True`/`TRUE`, `false`/`False`/`FALSE` (not `yes`/`no`/`on`/`off`: those are strings in 1.2)
/// - `int`: `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+` (an integer too large for `Int` becomes a `float`)
/// - `float`: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `.inf`, `-.inf`, `.nan` (and their case variants)
/// - anything else, and every quoted or block scalar, is a `string`.
///
/// Explicit tags win: `!!str 42` is a string, `!!int "42"` an integer; a non-specific `!` makes a string.
package enum YAMLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)

    /// Types `scalar` per the core schema, honouring an explicit tag.
    package static func resolve(_ scalar: YAMLScalar, tag: String? = nil) -> YAMLValue {
        let text = scalar.value
        switch tag {
        case "tag:yaml.org,2002:str", "!": return .string(text)
        case "tag:yaml.org,2002:null": return .null
        case "tag:yaml.org,2002:bool": return resolveBool(text).map(YAMLValue.bool) ?? .string(text)
        case "tag:yaml.org,2002:int": return resolveNumber(text) ?? .string(text)
        case "tag:yaml.org,2002:float":
            if let n = resolveNumber(text) {
                if case .int(let i) = n { return .float(Double(i)) }
                return n
            }
            return .string(text)
        default: break
        }
        guard scalar.style == .plain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        default: break
        }
        if let b = resolveBool(text) { return .bool(b) }
        if let n = resolveNumber(text) { return n }
        return .string(text)
    }

    private static func resolveBool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    private static func resolveNumber(_ text: String) -> YAMLValue? {
        let u = Array(text.utf8)
        guard !u.isEmpty else { return nil }
        func allIn(_ bytes: ArraySlice<UInt8>, _ ok: (UInt8) -> Bool) -> Bool {
            !bytes.isEmpty && bytes.allSatisfy(ok)
        }
        let isDigit: (UInt8) -> Bool = { $0 >= 48 && $0 <= 57 }
        if u.count > 2, u[0] == 48, u[1] == UInt8(ascii: "x") {
            let hex = u[2...]
            guard allIn(hex, { isDigit($0) || (65...70).contains($0) || (97...102).contains($0) }) else { return nil }
            return Int(String(decoding: hex, as: UTF8.self), radix: 16).map(YAMLValue.int)
                ?? .float(Double("0x" + String(decoding: hex, as: UTF8.self) + "p0") ?? .infinity)
        }
        if u.count > 2, u[0] == 48, u[1] == UInt8(ascii: "o") {
            let oct = u[2...]
            guard allIn(oct, { $0 >= 48 && $0 <= 55 }) else { return nil }
            return Int(String(decoding: oct, as: UTF8.self), radix: 8).map(YAMLValue.int) ?? .float(.infinity)
        }
        var body = u[...]
        var negative = false
        if let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        if allIn(body, isDigit) {
            if let i = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .int(i) }
            return Double(text).map(YAMLValue.float)
        }
        switch String(decoding: body, as: UTF8.self) {
        case ".inf", ".Inf", ".INF": return .float(negative ? -.infinity : .infinity)
        case ".nan", ".NaN", ".NAN": return body.count == u.count ? .float(.nan) : nil
        default: break
        }
        // [0-9]+(\.[0-9]*)? | \.[0-9]+ , then optional exponent
        var i = body.startIndex
        var mantissaDigits = 0
        while i < body.endIndex, isDigit(body[i]) { i += 1; mantissaDigits += 1 }
        if i < body.endIndex, body[i] == UInt8(ascii: ".") {
            i += 1
            while i < body.endIndex, isDigit(body[i]) { i += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return nil }
        if i < body.endIndex, body[i] == UInt8(ascii: "e") || body[i] == UInt8(ascii: "E") {
            i += 1
            if i < body.endIndex, body[i] == UInt8(ascii: "-") || body[i] == UInt8(ascii: "+") { i += 1 }
            let expStart = i
            while i < body.endIndex, isDigit(body[i]) { i += 1 }
            guard i > expStart else { return nil }
        }
        guard i == body.endIndex else { return nil }
        var normalized = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if normalized.hasPrefix(".") { normalized = "0" + normalized }
        if normalized.hasPrefix("-.") { normalized = "-0" + normalized.dropFirst() }
        return Double(normalized).map(YAMLValue.float)
    }

    package static func == (lhs: YAMLValue, rhs: YAMLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.float(let a), .float(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int(let i): hasher.combine(2); hasher.combine(i)
        case .float(let d): hasher.combine(3); hasher.combine(d.isNaN ? 0 : d)
        case .string(let s): hasher.combine(4); hasher.combine(s)
        }
    }
}
