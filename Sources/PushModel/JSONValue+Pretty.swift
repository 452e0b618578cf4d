extension JSONValue {
    /// JSON with sorted object keys, one key or element per line, indented by two spaces: the
    /// diff-friendly form of files people review (snapshots). Empty containers stay on one line.
    package func prettySerialized() -> String {
        var out = ""
        writePretty(into: &out, indent: "")
        return out
    }

    private func writePretty(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let a) where !a.isEmpty:
            out += "[\n"
            for (i, v) in a.enumerated() {
                out += inner
                v.writePretty(into: &out, indent: inner)
                out += i == a.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let o) where !o.isEmpty:
            out += "{\n"
            let keys = o.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (i, key) in keys.enumerated() {
                out += inner + JSONValue.string(key).serialized() + ": "
                o[key]!.writePretty(into: &out, indent: inner)
                out += i == keys.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += serialized()
        }
    }
}
