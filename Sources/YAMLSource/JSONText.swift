extension YAMLNode {
    /// This node as compact JSON text, keys in written order, scalars typed by the
    /// YAML 1.2 core schema (`200` → `200`, `'200'` → `"200"`, `~` → `null`).
    ///
    /// Lets suites write payloads in YAML and send the exact JSON. `.inf`/`.nan` have no
    /// JSON form and throw `.invalidValue` at the scalar.
    package func jsonText() throws(SourceError) -> String {
        var out = ""
        try appendJSON(to: &out)
        return out
    }

    private func appendJSON(to out: inout String) throws(SourceError) {
        switch kind {
        case .sequence(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                try item.appendJSON(to: &out)
            }
            out += "]"
        case .mapping(let pairs):
            out += "{"
            for (i, pair) in pairs.enumerated() {
                if i > 0 { out += "," }
                Self.appendQuoted(pair.keyString, to: &out)
                out += ":"
                try pair.value.appendJSON(to: &out)
            }
            out += "}"
        case .scalar(let scalar):
            switch YAMLValue.resolve(scalar, tag: tag) {
            case .null: out += "null"
            case .bool(let b): out += b ? "true" : "false"
            case .int(let i): out += String(i)
            case .float(let d):
                guard d.isFinite else {
                    throw invalidValue(
                        expected: "JSON has no infinity or NaN", suggestion: "use a finite number or a string")
                }
                out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
            case .string(let s): Self.appendQuoted(s, to: &out)
            }
        }
    }

    private static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
