/// A mapping node checked against a schema's key list, with typed accessors that
/// turn every mistake into a `SourceError` at the right spot:
///
/// ```swift
/// let m = try node.mapping(allowedKeys: ["team_id", "port", "faults"])
/// let team = try m.required("team_id", as: String.self)
/// let port = try m.optional("port", as: Int.self) ?? 2197
/// let faults = try m.optionalMapping("faults", allowedKeys: ["drop", "delay"])
/// ```
///
/// An explicit `null` value (`port:` or `port: ~`) counts as absent for `optional…`.
package struct YAMLMapping: Sendable {
    /// The mapping node itself.
    package let node: YAMLNode
    /// Its pairs, in order.
    package let pairs: [YAMLPair]
    /// The key this mapping is the value of, when reached through `requiredMapping`/`optionalMapping`;
    /// missing-key errors point at it (`apns:`) rather than at the mapping's first line.
    let parentKey: YAMLNode?

    /// Wraps a mapping node without checking keys.
    package init(_ node: YAMLNode, parentKey: YAMLNode? = nil) throws(SourceError) {
        guard let pairs = node.pairs else { throw node.typeMismatch(expected: "a mapping") }
        self.node = node
        self.pairs = pairs
        self.parentKey = parentKey
    }

    /// Where the mapping is (missing-key errors point here).
    package var range: SourceRange { node.range }
    /// The keys, in order.
    package var keys: [String] { pairs.map(\.keyString) }

    /// True when `key` is present (even with a null value).
    package func contains(_ key: String) -> Bool { pairs.index(ofKey: key) != nil }

    /// The value node for `key`, if present.
    package subscript(key: String) -> YAMLNode? { pairs.index(ofKey: key).map { pairs[$0].value } }

    /// The key node for `key` (for errors about the key itself).
    package func keyNode(_ key: String) -> YAMLNode? { pairs.index(ofKey: key).map { pairs[$0].key } }

    /// Throws `.unknownKey` at the first key not in `allowed`, listing them, with a did-you-mean.
    package func checkKeys(allowed: [String]) throws(SourceError) {
        for pair in pairs where !allowed.contains(pair.keyString) {
            throw SourceError(
                .unknownKey, "unknown key '\(pair.keyString)'", at: pair.key.range,
                expected: "expected one of: \(allowed.joined(separator: ", "))",
                suggestion: Spelling.closest(to: pair.keyString, in: allowed.filter { !contains($0) })
                    .map { "did you mean '\($0)'?" })
        }
    }

    // MARK: - Typed values

    /// The value of a required key; `.missingKey` at the parent key (or the mapping) if
    /// absent, at the key if its value is null.
    package func required<T: YAMLDecodable>(_ key: String, as type: T.Type = T.self) throws(SourceError) -> T {
        guard let value = self[key], !value.isNull || T.self == YAMLNode.self else { throw missing(key) }
        return try decode(key, value, as: T.self)
    }

    /// The value of an optional key, or nil when absent or null.
    package func optional<T: YAMLDecodable>(_ key: String, as type: T.Type = T.self) throws(SourceError) -> T? {
        guard let value = self[key], !value.isNull else { return nil }
        return try decode(key, value, as: T.self)
    }

    /// The value of an optional key, or `defaultValue` when absent or null.
    package func optional<T: YAMLDecodable>(
        _ key: String, as type: T.Type = T.self, default defaultValue: T
    ) throws(SourceError) -> T {
        try optional(key, as: T.self) ?? defaultValue
    }

    /// A required string restricted to `allowed` (did-you-mean on a near miss).
    package func required(_ key: String, oneOf allowed: [String]) throws(SourceError) -> String {
        guard let value = self[key], !value.isNull else { throw missing(key, allowed: allowed) }
        do { return try value.oneOf(allowed) } catch { throw contextualize(error, key: key, value: value) }
    }

    /// An optional string restricted to `allowed`.
    package func optional(_ key: String, oneOf allowed: [String]) throws(SourceError) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        do { return try value.oneOf(allowed) } catch { throw contextualize(error, key: key, value: value) }
    }

    // MARK: - Nested collections

    /// A required nested mapping, checked against `allowedKeys` when given.
    package func requiredMapping(_ key: String, allowedKeys: [String]? = nil) throws(SourceError) -> YAMLMapping {
        guard let value = self[key] else { throw missing(key) }
        return try nested(key, value, allowedKeys: allowedKeys)
    }

    /// An optional nested mapping (nil when absent or null), checked against `allowedKeys` when given.
    package func optionalMapping(_ key: String, allowedKeys: [String]? = nil) throws(SourceError) -> YAMLMapping? {
        guard let value = self[key], !value.isNull else { return nil }
        return try nested(key, value, allowedKeys: allowedKeys)
    }

    /// The items of a required sequence.
    package func requiredSequence(_ key: String) throws(SourceError) -> [YAMLNode] {
        guard let value = self[key] else { throw missing(key) }
        do { return try value.sequence() } catch { throw contextualize(error, key: key, value: value) }
    }

    /// The items of an optional sequence (nil when absent or null).
    package func optionalSequence(_ key: String) throws(SourceError) -> [YAMLNode]? {
        guard let value = self[key], !value.isNull else { return nil }
        do { return try value.sequence() } catch { throw contextualize(error, key: key, value: value) }
    }

    /// Which one of `keys` is present, for "a step is one of send / expect / run".
    /// Throws `.missingKey` when none is, `.invalidValue` at the second when two are.
    package func exactlyOne(of keys: [String]) throws(SourceError) -> String {
        let present = pairs.filter { keys.contains($0.keyString) }
        guard let first = present.first else {
            throw SourceError(
                .missingKey, "missing one of: \(keys.joined(separator: ", "))", at: range,
                expected: "expected exactly one of: \(keys.joined(separator: ", "))")
        }
        if present.count > 1 {
            throw SourceError(
                .invalidValue, "'\(first.keyString)' and '\(present[1].keyString)' cannot be combined",
                at: present[1].key.range, expected: "expected exactly one of: \(keys.joined(separator: ", "))",
                suggestion: "split them into separate entries")
        }
        return first.keyString
    }

    // MARK: - Errors

    private func nested(_ key: String, _ value: YAMLNode, allowedKeys: [String]?) throws(SourceError) -> YAMLMapping {
        let mapping: YAMLMapping
        do { mapping = try YAMLMapping(value, parentKey: keyNode(key)) } catch {
            throw contextualize(error, key: key, value: value)
        }
        if let allowedKeys { try mapping.checkKeys(allowed: allowedKeys) }
        return mapping
    }

    private func decode<T: YAMLDecodable>(_ key: String, _ value: YAMLNode, as: T.Type) throws(SourceError) -> T {
        do { return try T.decode(from: value) } catch { throw contextualize(error, key: key, value: value) }
    }

    private func missing(_ key: String, allowed: [String]? = nil) -> SourceError {
        let allowedText = allowed.map { " (one of: \($0.joined(separator: ", ")))" } ?? ""
        if let keyNode = keyNode(key) {
            return SourceError(
                .missingKey, "key '\(key)' has no value", at: keyNode.range,
                expected: "expected a value for '\(key)'\(allowedText)")
        }
        if let parentKey, let parentName = parentKey.scalar?.value {
            return SourceError(
                .missingKey, "missing required key '\(key)'", at: parentKey.range,
                expected: "expected key '\(key)' under '\(parentName)'\(allowedText)")
        }
        return SourceError(
            .missingKey, "missing required key '\(key)'", at: range,
            expected: "expected key '\(key)' in this mapping\(allowedText)")
    }

    /// Names the key in errors that are about the value itself ("wrong type for 'port'").
    private func contextualize(_ error: SourceError, key: String, value: YAMLNode) -> SourceError {
        guard error.range == value.range, error.kind == .typeMismatch || error.kind == .invalidValue else {
            return error
        }
        var error = error
        switch error.message {
        case "wrong type": error.message = "wrong type for '\(key)'"
        case "invalid value": error.message = "invalid value for '\(key)'"
        default:
            if error.message.hasPrefix("invalid ") { error.message += " for '\(key)'" }
        }
        return error
    }
}

extension YAMLNode {
    /// This node as a mapping; when `allowedKeys` is given, any other key is an
    /// `.unknownKey` error with a did-you-mean.
    package func mapping(allowedKeys: [String]? = nil) throws(SourceError) -> YAMLMapping {
        let mapping = try YAMLMapping(self)
        if let allowedKeys { try mapping.checkKeys(allowed: allowedKeys) }
        return mapping
    }
}
