import Foundation
import PushModel
import XMLSupport

/// Errors from `--shard i/N`.
package enum ShardError: Error, Equatable, CustomStringConvertible {
    /// The text is not `i/N`.
    case malformed(String)
    /// `N` is below 1.
    case countTooSmall(Int)
    /// `i` is outside `1...N`.
    case indexOutOfRange(index: Int, count: Int)

    package var description: String {
        switch self {
        case let .malformed(text):
            return "--shard '\(text)': expected i/N with whole numbers, e.g. --shard 2/4 (shards count from 1)."
        case let .countTooSmall(count):
            return "--shard: the shard count must be at least 1, got \(count)."
        case let .indexOutOfRange(index, count):
            return "--shard \(index)/\(count): the shard index must be between 1 and \(count) (shards count from 1)."
        }
    }
}

/// Picks this shard's scenarios: the selected scenarios are sorted by (suite path relative to the suite root, scenario
/// name) and dealt round-robin, the first to shard 1, the second to shard 2, …, so every shard gets the same number
/// give or take one, and a shard is empty only when there are fewer scenarios than shards.
///
/// The suite root is the path given on the command line: the directory a suite was found under (`Suites/a.yaml` run
/// as `run Suites` is `a.yaml`), or a suite file's own name. So `run .` in `Suites/`, `run Suites` and `run
/// /checkout/Suites` split alike, and CI machines that check the repository out in different directories agree.
/// Shards are disjoint and together cover every selected scenario, provided every shard selects with the same
/// `--filter`/`--tags`/`--exclude-tags` and the same suites (adding a scenario moves others to another shard).
package struct ShardSelector: Sendable, Equatable, CustomStringConvertible {
    /// 1-based shard index.
    package let index: Int
    /// Number of shards.
    package let count: Int

    /// A shard `index` (1-based) of `count`.
    package init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else { throw .countTooSmall(count) }
        guard (1...count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        self.index = index
        self.count = count
    }

    /// The whole set as one shard.
    package static let all = ShardSelector(validIndex: 1, count: 1)

    private init(validIndex: Int, count: Int) {
        self.index = validIndex
        self.count = count
    }

    /// Parses the value of `--shard`, `i/N` (1-based), e.g. `2/4`. Surrounding spaces are allowed.
    package static func parse(_ text: String) throws(ShardError) -> ShardSelector {
        let trimmed = text.trimmedForMessage
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { throw .malformed(text) }
        return try ShardSelector(index: index, count: count)
    }

    /// The positions in `keys` (each a scenario's suite path relative to its root, and its name) this shard runs:
    /// the keys sorted, then dealt round-robin (`rank % count == index - 1`).
    package func positions(of keys: [(path: String, name: String)]) -> [Int] {
        guard count > 1 else { return Array(keys.indices) }
        let sorted = keys.indices.sorted { a, b in
            let (x, y) = (keys[a], keys[b])
            // Compared as UTF-8 bytes: the same order on every machine and locale.
            if x.path != y.path { return x.path.utf8.lexicographicallyPrecedes(y.path.utf8) }
            if x.name != y.name { return x.name.utf8.lexicographicallyPrecedes(y.name.utf8) }
            return a < b
        }
        return sorted.enumerated().filter { $0.offset % count == index - 1 }.map(\.element).sorted()
    }

    /// `path` relative to the suite root it was found under: the longest of `roots` (the command line's paths,
    /// normalized like discovered paths) that is `path` itself (a suite file named on the command line: its file
    /// name) or a directory holding it (the rest of the path). A path under no root is returned as it is.
    package static func relativePath(_ path: String, roots: [String]) -> String {
        var best: String?
        for root in roots {
            if root == path {
                return (path as NSString).lastPathComponent
            }
            let prefix = root == "/" ? "/" : root + "/"
            if root != ".", path.hasPrefix(prefix), best.map({ root.count > $0.count }) ?? true { best = root }
        }
        guard let best else { return path }
        return String(path.dropFirst(best == "/" ? 1 : best.count + 1))
    }

    /// The report file name for this shard: `junit-<i>-of-<N>.xml`.
    package var reportFileName: String { "junit-\(index)-of-\(count).xml" }

    /// The shard index in a `junit-<i>-of-<N>.xml` (or `report-<i>-of-<N>.html`, …) name, or nil for other names.
    static func shardIndex(fromFileName name: String) -> Int? { shard(fromFileName: name)?.index }

    /// The shard `i/N` a `<anything>-<i>-of-<N>.<ext>` name gives (junit-2-of-3.xml, report-2-of-3.html), or nil.
    static func shard(fromFileName name: String) -> (index: Int, count: Int)? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let parts = name[..<dot].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[parts.count - 2] == "of", let index = Int(parts[parts.count - 3]),
            let count = Int(parts[parts.count - 1])
        else { return nil }
        return (index, count)
    }

    /// `i/N`.
    package var description: String { "\(index)/\(count)" }
}
