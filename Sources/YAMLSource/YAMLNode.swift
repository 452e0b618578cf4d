import PushModel

/// How a scalar was written. Only `.plain` scalars are typed (null, bool, int,
/// float); every quoted or block scalar is a string.
package enum YAMLScalarStyle: String, Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded
}

/// A scalar's text and how it was written.
package struct YAMLScalar: Sendable, Hashable {
    /// The scalar's value after unescaping and folding.
    package var value: String
    /// How the scalar was written.
    package var style: YAMLScalarStyle

    /// Creates a scalar.
    package init(_ value: String, style: YAMLScalarStyle = .plain) {
        self.value = value
        self.style = style
    }
}

/// One key/value entry of a mapping. Keys are scalar nodes with their own positions.
package struct YAMLPair: Sendable, Hashable {
    /// The key node (always a scalar).
    package var key: YAMLNode
    /// The value node.
    package var value: YAMLNode

    /// The key's text.
    package var keyString: String { key.scalar?.value ?? "" }

    /// The key is the scalar `text`, compared in place: `keyString == text` copied the key's scalar.
    func hasKey(_ text: String) -> Bool {
        if case .scalar(let s) = key.kind { s.value == text } else { false }
    }

    /// Creates a pair.
    package init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

extension [YAMLPair] {
    /// Where the first pair with key `key` is. Compared in place: `first(where:)` copied every pair it passed (two
    /// nodes, their ranges and tags retained and released), 11 % of loading a suite through `YAMLNode`'s subscript.
    func index(ofKey key: String) -> Int? {
        for i in indices where self[i].hasKey(key) { return i }
        return nil
    }
}

/// A node of a YAML (or JSON) document with its position in the file.
///
/// Aliases are already resolved: an alias becomes a copy of the anchored node whose
/// own `range` is the alias (`*name`) while its children keep their original positions.
/// Merge keys (`<<`) are already applied: merged pairs keep the positions where they
/// were written.
package struct YAMLNode: Sendable, Hashable {
    /// The shape of a node.
    package enum Kind: Sendable, Hashable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        /// Ordered pairs, as written (merged pairs take the place of the `<<` key).
        case mapping([YAMLPair])
    }

    /// The node's content.
    package var kind: Kind
    /// Where the node was written (start..end, end exclusive).
    package var range: SourceRange
    /// The tag as libyaml reports it (`!!str` becomes `tag:yaml.org,2002:str`), or nil.
    package var tag: String? {
        get { taggedAs?.value }
        set { taggedAs = newValue.map(Boxed.init) }
    }
    /// The tag behind a reference: few nodes have one, and inline it took 16 of a node's bytes (a document keeps a
    /// node per scalar, key and collection).
    private var taggedAs: Boxed<String>?

    /// Creates a node.
    package init(_ kind: Kind, range: SourceRange, tag: String? = nil) {
        self.kind = kind
        self.range = range
        self.taggedAs = tag.map(Boxed.init)
    }

    /// The tag every deferred item's placeholder shares (one allocation, not one a placeholder).
    private static let deferredTagBox = Boxed(deferredTag)

    /// The placeholder of a deferred item written at `range` (`isDeferred`).
    static func deferredPlaceholder(at range: SourceRange) -> YAMLNode {
        var node = YAMLNode(.sequence([]), range: range)
        node.taggedAs = deferredTagBox
        return node
    }

    /// The scalar, when this node is one.
    package var scalar: YAMLScalar? {
        if case .scalar(let s) = kind { return s }
        return nil
    }

    /// The items, when this node is a sequence.
    package var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The pairs, when this node is a mapping.
    package var pairs: [YAMLPair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// The value for `key` when this node is a mapping.
    package subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = kind, let i = pairs.index(ofKey: key) else { return nil }
        return pairs[i].value
    }

    /// The scalar typed by the YAML 1.2 core schema (see `YAMLValue`); nil for collections.
    package var value: YAMLValue? {
        guard let scalar else { return nil }
        return YAMLValue.resolve(scalar, tag: tag)
    }

    /// True for a plain `null`, `~`, `Null`, `NULL` or empty scalar.
    package var isNull: Bool { value == .null }

    /// A short description of what this node is, for "found …" messages:
    /// `the string 'abc'`, `the integer 42`, `null`, `a mapping`, `a sequence`.
    var foundDescription: String {
        switch kind {
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        case .scalar:
            switch value ?? .null {
            case .null: return "null"
            case .bool(let b): return "the boolean \(b)"
            case .int(let i): return "the integer \(i)"
            case .float: return "the number \(scalar?.value ?? "")"
            case .string(let s):
                let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
                return "the string '\(shown)'"
            }
        }
    }
}
