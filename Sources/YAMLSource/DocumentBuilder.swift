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
        /// A sequence's items.
        var children: [YAMLNode] = []
        /// A mapping's pairs, each made when its value is finished (the nodes moved in, not copied out of a list
        /// of alternating keys and values: those copies were a third of the reference counting of loading a suite).
        var pairs: [YAMLPair] = []
        /// A mapping's key waiting for its value.
        var pendingKey: YAMLNode?
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
    /// The root mapping's key whose sequence items are deferred (`YAMLNode.isDeferred`), if any.
    private let deferring: String?
    /// The deferred item being read past: where it starts and how deep its events are nested so far.
    private var skipping: (start: SourcePosition, depth: Int)?
    /// A deferred item held an anchor, an alias or a tag: it may not mean the same read on its own, so the document
    /// must be read again whole.
    private(set) var deferralFailed = false

    init(
        limits: YAMLLimits, deferring: String? = nil,
        makeRange: @escaping (SourcePosition, SourcePosition) -> SourceRange
    ) {
        self.limits = limits
        self.deferring = deferring
        self.makeRange = makeRange
    }

    /// Reads one document's events (after `documentStart`) up to `documentEnd`. With `deferring`, the collections
    /// that are items of the root mapping's `deferring` sequence are placeholders (nil when that could not be done:
    /// read the document again without).
    static func buildDocument(
        from parser: LibYAMLParser, limits: YAMLLimits, deferring: String? = nil
    ) throws(SourceError) -> YAMLNode?? {
        var builder = DocumentBuilder(limits: limits, deferring: deferring, makeRange: parser.range)
        while true {
            let event = try parser.next()
            if case .documentEnd = event { return builder.deferralFailed ? nil : .some(builder.root) }
            try builder.handle(event)
        }
    }

    mutating func handle(_ event: ParseEvent) throws(SourceError) {
        if skipping != nil { return try skip(event) }
        switch event {
        case .streamStart, .streamEnd, .documentStart, .documentEnd:
            return
        case .scalar(let scalar, let anchor, let tag, let start, let end):
            expanded += 1
            finish(YAMLNode(.scalar(scalar), range: makeRange(start, end), tag: tag), anchor: anchor, weight: 1)
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
            try countAlias(target.weight, at: here)
            var node = target.node
            node.range = here
            finish(node, anchor: nil, weight: target.weight)
        case .sequenceStart(let anchor, let tag, let start), .mappingStart(let anchor, let tag, let start):
            var isMapping = false
            if case .mappingStart = event { isMapping = true }
            try checkDepth(stack.count, at: start)
            if isDeferredItem {
                if anchor != nil || tag != nil { deferralFailed = true }
                skipping = (start, 1)
                return
            }
            stack.append(Frame(isMapping: isMapping, anchor: anchor, tag: tag, start: start, expandedAtStart: expanded))
        case .sequenceEnd(let end), .mappingEnd(let end):
            var frame = stack.removeLast()
            expanded += 1
            let kind: YAMLNode.Kind
            if frame.isMapping {
                var pairs: [YAMLPair] = []
                swap(&pairs, &frame.pairs)
                kind = .mapping(try Self.checked(pairs))
            } else {
                var children: [YAMLNode] = []
                swap(&children, &frame.children)
                kind = .sequence(children)
            }
            finish(
                YAMLNode(kind, range: makeRange(frame.start, end), tag: frame.tag), anchor: frame.anchor,
                weight: expanded - frame.expandedAtStart)
        }
    }

    private func checkDepth(_ depth: Int, at start: SourcePosition) throws(SourceError) {
        guard depth < limits.maxDepth else {
            throw SourceError(
                .limitExceeded, "nesting deeper than \(limits.maxDepth) levels", at: makeRange(start, start),
                suggestion: "flatten the document")
        }
    }

    /// True when a collection starting now is an item of the root mapping's `deferring` sequence.
    private var isDeferredItem: Bool {
        guard let deferring, stack.count == 2, stack[0].isMapping, !stack[1].isMapping,
            let key = stack[0].pendingKey?.scalar, key.value == deferring
        else { return false }
        return true
    }

    /// Reads past a deferred item's events; at its end, puts a placeholder with its range in its sequence. Anything
    /// that ties it to the rest of the document (an anchor, an alias) or to the document's directives (a tag) fails
    /// the deferral. Nesting counts against `maxDepth` as it would in the item built.
    private mutating func skip(_ event: ParseEvent) throws(SourceError) {
        guard let (start, depth) = skipping else { return }
        switch event {
        case .scalar(_, let anchor, let tag, _, _):
            if anchor != nil || tag != nil { deferralFailed = true }
        case .alias:
            deferralFailed = true
        case .sequenceStart(let anchor, let tag, let at), .mappingStart(let anchor, let tag, let at):
            try checkDepth(stack.count + depth, at: at)
            if anchor != nil || tag != nil { deferralFailed = true }
            skipping = (start, depth + 1)
        case .sequenceEnd(let end), .mappingEnd(let end):
            guard depth == 1 else {
                skipping = (start, depth - 1)
                return
            }
            skipping = nil
            expanded += 1
            finish(YAMLNode.deferredPlaceholder(at: makeRange(start, end)), anchor: nil, weight: 1)
        case .streamStart, .streamEnd, .documentStart, .documentEnd:
            return
        }
    }

    /// Counts the nodes an alias adds, against the alias-bomb budget.
    private mutating func countAlias(_ nodes: Int, at range: SourceRange) throws(SourceError) {
        expanded += nodes
        addedByAliases += nodes
        guard addedByAliases <= limits.maxExpandedNodes else {
            throw SourceError(
                .limitExceeded, "aliases expand the document by more than \(limits.maxExpandedNodes) nodes", at: range,
                expected: "aliases expand too far here",
                suggestion: "reduce nested aliases (this looks like an alias bomb)")
        }
    }

    /// Puts a finished node in its parent: a sequence's next item, a mapping's key, or the value that completes the
    /// key's pair; or the document's root.
    private mutating func finish(_ node: consuming YAMLNode, anchor: String?, weight: Int) {
        if let anchor { anchors[anchor] = (copy node, weight) }
        guard let top = stack.indices.last else {
            root = node
            return
        }
        if !stack[top].isMapping {
            stack[top].children.append(node)
        } else if let key = stack[top].pendingKey.take() {
            stack[top].pairs.append(YAMLPair(key: key, value: node))
        } else {
            stack[top].pendingKey = node
        }
    }

    // MARK: - Mappings

    /// A mapping's pairs as written, checked: every key a scalar, no key twice; `<<` applied.
    static func checked(_ explicit: [YAMLPair]) throws(SourceError) -> [YAMLPair] {
        // Keys seen so far, for duplicates: compared one by one in a small mapping (most are), hashed past
        // `linearKeys`; a dictionary per mapping was a quarter of building a suite's nodes.
        let linearKeys = 16
        var seen: [String: Int] = [:]
        var hasMerge = false
        for index in explicit.indices {
            guard let scalar = explicit[index].key.scalar else {
                throw SourceError(
                    .typeMismatch, "a mapping key must be a scalar", at: explicit[index].key.range,
                    expected: "expected a plain or quoted key, found \(explicit[index].key.foundDescription)")
            }
            if isMergeKey(explicit[index].key) {
                hasMerge = true
                continue
            }
            var first: Int?
            if index < linearKeys {
                first = (0..<index).first { explicit[$0].hasKey(scalar.value) && !isMergeKey(explicit[$0].key) }
            } else {
                if seen.isEmpty {
                    for i in 0..<index where !isMergeKey(explicit[i].key) { seen[explicit[i].keyString] = i }
                }
                first = seen[scalar.value]
                if first == nil { seen[scalar.value] = index }
            }
            if let first {
                throw SourceError(
                    .duplicateKey, "duplicate key '\(scalar.value)'", at: explicit[index].key.range,
                    expected: "already defined at line \(explicit[first].key.range.line)",
                    suggestion: "remove one of the two '\(scalar.value)' entries")
            }
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
