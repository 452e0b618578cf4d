/// The keys one kind of mapping may hold, as data: each key's name, what its value is and one line saying what it
/// is. A decoder checks the keys a file writes against `names` (so an unknown key is an error with did-you-mean);
/// a schema or reference generator reads the same table, so a key added here appears in both with no second edit.
///
/// ```swift
/// static let rateLimitKeys = KeyTable("rateLimit", "Per device token: past it, 429 TooManyRequests.", [
///     .init("burst", .integer, "Requests allowed at once.", required: true),
///     .init("per_second", .number, "Requests added back per second.", required: true),
/// ])
/// let limit = try m.optionalMapping("rate_limit", keys: rateLimitKeys)
/// ```
package struct KeyTable: Sendable {
    /// A name for the kind of mapping (`apnsFault`), unique across the tables a generator reads.
    package let name: String
    /// One line: what the mapping is.
    package let summary: String
    /// The keys, in the order messages list them.
    package let keys: [TableKey]

    package init(_ name: String, _ summary: String, _ keys: [TableKey]) {
        self.name = name
        self.summary = summary
        self.keys = keys
    }

    /// The key names, for `checkKeys` and its did-you-mean.
    package var names: [String] { keys.map(\.name) }

    /// The key named `name`.
    package subscript(name: String) -> TableKey? { keys.first { $0.name == name } }

    /// The scalars key `name` allows (its `oneOf`, also inside an `either`), for a decoder's `oneOf:` check.
    package func choices(_ name: String) -> [String] {
        switch self[name]?.value {
        case .oneOf(let values)?: return values
        case .either(let shapes)?:
            return shapes.flatMap { (shape: ValueShape) -> [String] in
                if case .oneOf(let values) = shape { return values }
                return []
            }
        default: return []
        }
    }

    /// The table with `more` keys after these.
    func adding(_ more: [TableKey], name newName: String? = nil, summary newSummary: String? = nil)
        -> KeyTable
    {
        KeyTable(newName ?? name, newSummary ?? summary, keys + more)
    }
}

/// One key of a `KeyTable`.
package struct TableKey: Sendable {
    package let name: String
    package let value: ValueShape
    /// One line: what the key sets or reads.
    package let summary: String
    /// The decoder fails without it.
    package let required: Bool
    /// `key:` or `key: null` counts as absent (the decoders' rule for optional keys). False for a key whose value
    /// is needed when it is written (a step keyword such as `wait:` that needs a duration).
    package let acceptsNull: Bool

    package init(
        _ name: String, _ value: ValueShape, _ summary: String, required: Bool = false, acceptsNull: Bool? = nil
    ) {
        self.name = name
        self.value = value
        self.summary = summary
        self.required = required
        self.acceptsNull = acceptsNull ?? !required
    }
}

/// What a value is, as its decoder reads it (the YAML 1.2 core schema: a plain `200` is an integer, `"200"` a
/// string, `yes` a string).
package indirect enum ValueShape: Sendable {
    /// Any non-null scalar read as text (`String.decode`: a plain `200` is the text "200").
    case text
    /// A plain integer (`Int.decode`).
    case integer
    /// A plain integer or float (`Double.decode`).
    case number
    /// `true` or `false` (`Bool.decode`).
    case boolean
    /// A number with a unit (`250ms`, `2s`, `5m`, `1h`) or `0` (`Duration.decode`).
    case duration
    /// A byte count (`4096`, `4KB`, `1MiB`) (`ByteSize.decode`).
    case byteSize
    /// A time: ISO 8601 text (`2026-01-01T00:00:00Z`); `orMilliseconds` also takes an integer (ms since 1970).
    case date(orMilliseconds: Bool)
    /// A path, relative to the file it is written in.
    case file
    /// One of these scalars, exactly as written.
    case oneOf([String])
    /// A sequence of values of one shape.
    case list(ValueShape)
    /// A mapping with the table's keys only.
    case object(KeyTable)
    /// A mapping whose keys the file chooses (environment variables, team ids, key paths); `keys` says what they
    /// are; every value has the shape.
    case dictionary(keys: String, ValueShape)
    /// Any value, kept as JSON (a payload, a `userInfo` addition).
    case json
    /// Any of these (a status or a mapping; one item or a list).
    case either([ValueShape])
    /// A shape the generator defines by name (a check's value, the step list), for shapes built from tables of
    /// another kind.
    case named(String)
    /// Any value; the decoder does not read it (`reboot: true`).
    case ignored
}

extension YAMLMapping {
    /// Throws `.unknownKey` at the first key not in `table`, listing them, with a did-you-mean.
    package func checkKeys(_ table: KeyTable) throws(SourceError) { try checkKeys(allowed: table.names) }

    /// An optional nested mapping (nil when absent or null), checked against `keys`.
    package func optionalMapping(_ key: String, keys table: KeyTable) throws(SourceError) -> YAMLMapping? {
        try optionalMapping(key, allowedKeys: table.names)
    }
}

extension YAMLNode {
    /// This node as a mapping holding only the keys of `table`.
    package func mapping(keys table: KeyTable) throws(SourceError) -> YAMLMapping {
        try mapping(allowedKeys: table.names)
    }
}
