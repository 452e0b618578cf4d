import Foundation
import Reports

/// One scenario as the runner schedules it, independent of how suites are parsed.
///
/// `classname` is the suite path (`Suites/checkout.yaml`), which with `name` identifies the scenario in
/// JUnit, in shard splitting and in `--list` (`id`).
package struct RunItem: Sendable, Equatable {
    /// Suite path as discovered (repository-relative when the run is started from the checkout).
    package var classname: String
    /// Scenario name (unique within its suite).
    package var name: String
    /// Tags as written.
    package var tags: [String]
    /// The suite file the scenario is written in.
    package var file: String
    /// 1-based line of the scenario in `file`.
    package var line: Int
    /// Set when the suite marks the scenario `skip:`; it is reported as skipped without running.
    package var skipReason: String?
    /// The caller's handle for the scenario (e.g. suite and scenario index), passed back to the executor.
    package var handle: Int

    /// Creates an item.
    package init(
        classname: String, name: String, tags: [String] = [], file: String? = nil, line: Int = 0,
        skipReason: String? = nil, handle: Int = 0
    ) {
        self.classname = classname
        self.name = name
        self.tags = tags
        self.file = file ?? classname
        self.line = line
        self.skipReason = skipReason
        self.handle = handle
    }

    /// `file::name`, as printed by `--list`.
    package var id: String { "\(file)::\(name)" }
}

/// Which scenarios a run selects: `--filter`, `--tags`, `--exclude-tags`, `--shard`.
package struct Selection: Sendable, Equatable {
    /// Case-sensitive substring of the suite path or the scenario name; nil selects all.
    package var filter: String?
    /// A scenario must carry at least one of these tags (empty: no requirement).
    package var tags: Set<String>
    /// A scenario carrying any of these tags is left out.
    package var excludedTags: Set<String>
    /// This run's shard.
    package var shard: ShardSelector

    /// Creates a selection (defaults: everything).
    package init(
        filter: String? = nil, tags: Set<String> = [], excludedTags: Set<String> = [], shard: ShardSelector = .all
    ) {
        self.filter = filter
        self.tags = tags
        self.excludedTags = excludedTags
        self.shard = shard
    }

    /// True when `item` passes `--filter`, `--tags` and `--exclude-tags` (the shard is chosen among those).
    package func matches(_ item: RunItem) -> Bool {
        if let filter, !filter.isEmpty, !item.classname.contains(filter), !item.name.contains(filter) { return false }
        if !tags.isEmpty, tags.isDisjoint(with: item.tags) { return false }
        if !excludedTags.isDisjoint(with: item.tags) { return false }
        return true
    }

    /// The selected items, in their original order: those `matches` keeps, then this shard's share of them
    /// (`ShardSelector.positions(of:)`: sorted by path relative to `roots` and name, dealt round-robin).
    /// `items` itself (the same storage, not a copy) when it selects them all.
    package func apply(_ items: [RunItem], roots: [String] = []) -> [RunItem] {
        let matching: [RunItem]
        if let first = items.firstIndex(where: { !matches($0) }) {
            matching = Array(items[..<first]) + items[(first + 1)...].filter(matches)
        } else {
            matching = items
        }
        guard shard.count > 1 else { return matching }
        let keys = matching.map { (path: ShardSelector.relativePath($0.classname, roots: roots), name: $0.name) }
        return shard.positions(of: keys).map { matching[$0] }
    }

    /// Parses a comma-separated tag list (`a,b`, spaces ignored, empty entries dropped).
    package static func parseTags(_ values: [String]) -> Set<String> {
        Set(
            values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            })
    }
}
