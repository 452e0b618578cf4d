/// A type that can be read from one YAML node, failing with a `SourceError` at that node.
///
/// Conforming: `String`, `Int`, `Double`, `Bool`, `Duration`, `ByteSize`, `YAMLNode`,
/// arrays and string-keyed dictionaries of decodable types, and any
/// `enum E: String, CaseIterable, YAMLDecodable` (the raw values are the allowed spellings).
package protocol YAMLDecodable {
    /// Decodes `node` or throws a `.typeMismatch`/`.invalidValue` error located at it.
    static func decode(from node: YAMLNode) throws(SourceError) -> Self
}

extension YAMLNode {
    /// A `.typeMismatch` error at this node: `expected <what>, found <this node>`.
    func typeMismatch(expected what: String, suggestion: String? = nil) -> SourceError {
        SourceError(
            .typeMismatch, "wrong type", at: range, expected: "expected \(what), found \(foundDescription)",
            suggestion: suggestion)
    }

    /// An `.invalidValue` error at this node.
    package func invalidValue(expected: String, suggestion: String? = nil) -> SourceError {
        SourceError(.invalidValue, "invalid value", at: range, expected: expected, suggestion: suggestion)
    }

    /// Decodes this node as `T`.
    package func decode<T: YAMLDecodable>(as type: T.Type = T.self) throws(SourceError) -> T {
        try T.decode(from: self)
    }

    /// The items of a sequence, or a `.typeMismatch` error.
    package func sequence() throws(SourceError) -> [YAMLNode] {
        guard let items else { throw typeMismatch(expected: "a sequence") }
        return items
    }

    /// The scalar's text when it is one of `allowed`; otherwise an `.invalidValue` error
    /// listing them, with a did-you-mean.
    package func oneOf(_ allowed: [String]) throws(SourceError) -> String {
        let text = try String.decode(from: self)
        guard allowed.contains(text) else {
            throw SourceError(
                .invalidValue, "invalid value '\(text)'", at: range,
                expected: "expected one of: \(allowed.joined(separator: ", "))",
                suggestion: Spelling.closest(to: text, in: allowed).map { "did you mean '\($0)'?" })
        }
        return text
    }
}

extension YAMLNode: YAMLDecodable {
    package static func decode(from node: YAMLNode) throws(SourceError) -> YAMLNode { node }
}

extension String: YAMLDecodable {
    /// Any non-null scalar, as written (a plain `200` decodes as `"200"`).
    package static func decode(from node: YAMLNode) throws(SourceError) -> String {
        guard let scalar = node.scalar, !node.isNull else { throw node.typeMismatch(expected: "a string") }
        return scalar.value
    }
}

extension Int: YAMLDecodable {
    /// A plain integer (`42`, `-7`, `0x1F`, `0o17`); quoted numbers are strings and rejected.
    package static func decode(from node: YAMLNode) throws(SourceError) -> Int {
        guard case .int(let value)? = node.value else {
            var quotedInteger = false
            if let scalar = node.scalar, scalar.style != .plain, case .int = YAMLValue.resolve(YAMLScalar(scalar.value))
            {
                quotedInteger = true
            }
            throw node.typeMismatch(expected: "an integer", suggestion: quotedInteger ? "remove the quotes" : nil)
        }
        return value
    }
}

extension Double: YAMLDecodable {
    /// A plain integer or float.
    package static func decode(from node: YAMLNode) throws(SourceError) -> Double {
        switch node.value {
        case .int(let i)?: return Double(i)
        case .float(let d)?: return d
        default: throw node.typeMismatch(expected: "a number")
        }
    }
}

extension Bool: YAMLDecodable {
    /// `true` or `false` (YAML 1.2: `yes`/`no` are strings, rejected with a hint).
    package static func decode(from node: YAMLNode) throws(SourceError) -> Bool {
        guard case .bool(let value)? = node.value else {
            let word = node.scalar?.value.lowercased() ?? ""
            let hint: String? =
                ["yes", "on", "y"].contains(word)
                ? "write 'true'" : ["no", "off", "n"].contains(word) ? "write 'false'" : nil
            throw node.typeMismatch(expected: "a boolean (true or false)", suggestion: hint)
        }
        return value
    }
}

extension Array: YAMLDecodable where Element: YAMLDecodable {
    /// A sequence whose items all decode as `Element`.
    package static func decode(from node: YAMLNode) throws(SourceError) -> [Element] {
        var result: [Element] = []
        for item in try node.sequence() { result.append(try Element.decode(from: item)) }
        return result
    }
}

extension Dictionary: YAMLDecodable where Key == String, Value: YAMLDecodable {
    /// A mapping with any keys whose values all decode as `Value` (e.g. `env:` variables).
    package static func decode(from node: YAMLNode) throws(SourceError) -> [String: Value] {
        guard let pairs = node.pairs else { throw node.typeMismatch(expected: "a mapping") }
        var result: [String: Value] = [:]
        for pair in pairs { result[pair.keyString] = try Value.decode(from: pair.value) }
        return result
    }
}

extension YAMLDecodable where Self: RawRepresentable & CaseIterable, RawValue == String {
    /// One of the raw values, with did-you-mean on a near miss.
    package static func decode(from node: YAMLNode) throws(SourceError) -> Self {
        let text = try node.oneOf(allCases.map(\.rawValue))
        guard let match = allCases.first(where: { $0.rawValue == text }) else {
            throw node.invalidValue(expected: "one of the allowed values")
        }
        return match
    }
}
