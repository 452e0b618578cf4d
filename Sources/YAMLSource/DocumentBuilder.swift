/// Limits that protect the loader from hostile or accidental blow-ups.
package struct YAMLLimits: Sendable, Hashable {
    /// Maximum number of nodes that aliases may add to one document when expanded (a "billion laughs" alias
    /// bomb stops here with `.limitExceeded`). Nodes written out in the text do not count: a large file of plain
    /// nodes is bounded by `maxDocumentBytes` instead.
    var maxExpandedNodes: Int
    /// Maximum nesting depth of collections.
    package var maxDepth: Int
    /// Maximum size of the text loaded at once (a file, or a control request's body); larger is `.tooLarge`.
    var maxDocumentBytes: Int

    /// Creates limits.
    package init(maxExpandedNodes: Int = 100_000, maxDepth: Int = 256, maxDocumentBytes: Int = 64 << 20) {
        self.maxExpandedNodes = maxExpandedNodes
        self.maxDepth = maxDepth
        self.maxDocumentBytes = maxDocumentBytes
    }

    /// 100 000 nodes added by aliases, depth 256, 64 MiB of text: far above any hand-written suite.
    package static let standard = YAMLLimits()
}

/// Turns parse events into `YAMLNode` trees: resolves anchors/aliases (counting the
/// expanded size), applies `<<` merge keys and rejects duplicate keys.
/// Pure logic: no I/O, fed by `LibYAMLParser`.
struct DocumentBuilder {
    private struct Frame {
        var isMapping: Bool
        var anchor: String?
        var tag: String?
        var start: SourcePosition
        var children: [YAMLNode] = []
        var expandedAtStart: Int
    }

    private let limits: YAMLLimits
    private let makeRange: (SourcePosition, SourcePosition) -> SourceRange
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    /// Nodes in the document so far, aliases expanded (what an anchored node weighs is read from it).
    private var expanded = 0
    /// Of `expanded`, the nodes aliases added: the alias-bomb budget.
    private var addedByAliases = 0
    private var root: YAMLNode?

    init(limits: YAMLLimits, makeRange: @escaping (SourcePosition, SourcePosition) -> SourceRange) {
        self.limits = limits
        self.makeRange = makeRange
    }

    /// Reads one document's events (after `documentStart`) up to `documentEnd`.
    static func buildDocument(
        from parser: LibYAMLParser, limits: YAMLLimits
    ) throws(SourceError) -> YAMLNode? {
        var builder = DocumentBuilder(limits: limits, makeRange: parser.range)
        while true {
            let event = try parser.next()
            if case .documentEnd = event { return builder.root }
            try builder.handle(event)
        }
    }

    mutating func handle(_ event: ParseEvent) throws(SourceError) {
        switch event {
        case .streamStart, .streamEnd, .documentStart, .documentEnd:
            return
        case .scalar(let scalar, let anchor, let tag, let start, let end):
            let node = YAMLNode(.scalar(scalar), range: makeRange(start, end), tag: tag)
            try count(1, at: node.range)
            try finish(node, anchor: anchor, weight: 1)
        case .alias(let name, let start, let end):
            let here = makeRange(start, end)
            guard let target = anchors[name] else {
                if stack.contains(where: { $0.anchor == name }) {
                    throw SourceError(
                        .badAlias, "alias '*\(name)' refers to a node that contains it", at: here,
                        expected: "the anchored node is still open here",
                        suggestion: "recursive structures are not supported")
                }
                throw SourceError(
                    .badAlias, "unknown anchor '\(name)'", at: here,
                    expected: "no '&\(name)' anchor is defined before this alias",
                    suggestion: Spelling.closest(to: name, in: anchors.keys.sorted()).map { "did you mean '*\($0)'?" })
            }
            try count(target.weight, at: here, byAlias: true)
            var node = target.node
            node.range = here
            try finish(node, anchor: nil, weight: target.weight)
        case .sequenceStart(let anchor, let tag, let start), .mappingStart(let anchor, let tag, let start):
            var isMapping = false
            if case .mappingStart = event { isMapping = true }
            guard stack.count < limits.maxDepth else {
                throw SourceError(
                    .limitExceeded, "nesting deeper than \(limits.maxDepth) levels", at: makeRange(start, start),
                    suggestion: "flatten the document")
            }
            stack.append(Frame(isMapping: isMapping, anchor: anchor, tag: tag, start: start, expandedAtStart: expanded))
        case .sequenceEnd(let end), .mappingEnd(let end):
            let frame = stack.removeLast()
            let range = makeRange(frame.start, end)
            try count(1, at: range)
            let kind: YAMLNode.Kind
            if frame.isMapping {
                kind = .mapping(try Self.pairs(frame.children))
            } else {
                kind = .sequence(frame.children)
            }
            try finish(
                YAMLNode(kind, range: range, tag: frame.tag), anchor: frame.anchor,
                weight: expanded - frame.expandedAtStart)
        }
    }

    private mutating func count(_ nodes: Int, at range: SourceRange, byAlias: Bool = false) throws(SourceError) {
        expanded += nodes
        guard byAlias else { return }
        addedByAliases += nodes
        guard addedByAliases <= limits.maxExpandedNodes else {
            throw SourceError(
                .limitExceeded, "aliases expand the document by more than \(limits.maxExpandedNodes) nodes", at: range,
                expected: "aliases expand too far here",
                suggestion: "reduce nested aliases (this looks like an alias bomb)")
        }
    }

    private mutating func finish(_ node: YAMLNode, anchor: String?, weight: Int) throws(SourceError) {
        if let anchor { anchors[anchor] = (node, weight) }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    // MARK: - Mappings

    /// Pairs up alternating key/value nodes, rejects duplicates and applies `<<`.
    static func pairs(_ children: [YAMLNode]) throws(SourceError) -> [YAMLPair] {
        var explicit: [YAMLPair] = []
        explicit.reserveCapacity(children.count / 2)
        // Keys seen so far, for duplicates: compared one by one in a small mapping (most are), hashed past
        // `linearKeys`; a dictionary per mapping was a quarter of building a suite's nodes.
        let linearKeys = 16
        var seen: [String: Int] = [:]
        var hasMerge = false
        var index = 0
        while index + 1 < children.count {
            let key = children[index]
            let value = children[index + 1]
            index += 2
            guard let scalar = key.scalar else {
                throw SourceError(
                    .typeMismatch, "a mapping key must be a scalar", at: key.range,
                    expected: "expected a plain or quoted key, found \(key.foundDescription)")
            }
            if isMergeKey(key) {
                hasMerge = true
                explicit.append(YAMLPair(key: key, value: value))
                continue
            }
            var first: Int?
            if explicit.count < linearKeys {
                first = explicit.indices.first { explicit[$0].hasKey(scalar.value) && !isMergeKey(explicit[$0].key) }
            } else {
                if seen.isEmpty {
                    for (i, pair) in explicit.enumerated() where !isMergeKey(pair.key) { seen[pair.keyString] = i }
                }
                first = seen[scalar.value]
                if first == nil { seen[scalar.value] = explicit.count }
            }
            if let first {
                throw SourceError(
                    .duplicateKey, "duplicate key '\(scalar.value)'", at: key.range,
                    expected: "already defined at line \(explicit[first].key.range.line)",
                    suggestion: "remove one of the two '\(scalar.value)' entries")
            }
            explicit.append(YAMLPair(key: key, value: value))
        }
        guard hasMerge else { return explicit }
        var result: [YAMLPair] = []
        var taken = Set(explicit.lazy.filter { !isMergeKey($0.key) }.map(\.keyString))
        for pair in explicit {
            guard isMergeKey(pair.key) else {
                result.append(pair)
                continue
            }
            let sources: [YAMLNode]
            switch pair.value.kind {
            case .mapping: sources = [pair.value]
            case .sequence(let items) where items.allSatisfy({ $0.pairs != nil }): sources = items
            default:
                throw SourceError(
                    .badMerge, "cannot merge \(pair.value.foundDescription)", at: pair.value.range,
                    expected: "expected a mapping or a list of mappings (e.g. '<<: *defaults')")
            }
            for source in sources {
                for merged in source.pairs ?? [] where !taken.contains(merged.keyString) {
                    taken.insert(merged.keyString)
                    result.append(merged)
                }
            }
        }
        return result
    }

    private static func isMergeKey(_ key: YAMLNode) -> Bool {
        guard let scalar = key.scalar, scalar.value == "<<" else { return false }
        return (scalar.style == .plain && key.tag == nil) || key.tag == "tag:yaml.org,2002:merge"
    }
}
