import PushModel

extension YAMLNode {
    /// This node as compact JSON text, keys in written order, scalars typed by the
    /// YAML 1.2 core schema (`200` → `200`, `'200'` → `"200"`, `~` → `null`).
    ///
    /// Lets suites write payloads in YAML and send the exact JSON. `.inf`/`.nan` have no
    /// JSON form and throw `.invalidValue` at the scalar.
    /// Strings and numbers are written by PushModel's JSON writer (`JSONValue.writeString`, `JSONValue.format`).
    package func jsonText() throws(SourceError) -> String {
        var out: [UInt8] = []
        try appendJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func appendJSON(to out: inout [UInt8]) throws(SourceError) {
        switch kind {
        case .sequence(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try item.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .mapping(let pairs):
            out.append(UInt8(ascii: "{"))
            for (i, pair) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(pair.keyString, into: &out)
                out.append(UInt8(ascii: ":"))
                try pair.value.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .scalar(let scalar):
            switch YAMLValue.resolve(scalar, tag: tag) {
            case .null: out += "null".utf8
            case .bool(let b): out += (b ? "true" : "false").utf8
            case .int(let i): out += String(i).utf8
            case .float(let d):
                guard d.isFinite else {
                    throw invalidValue(
                        expected: "JSON has no infinity or NaN", suggestion: "use a finite number or a string")
                }
                out += JSONValue.format(d).utf8
            case .string(let s): JSONValue.writeString(s, into: &out)
            }
        }
    }
}
