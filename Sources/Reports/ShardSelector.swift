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

/// Picks this shard's scenarios: a scenario belongs to shard `i` of `N` when
/// `fmix64(fnv1a64(suitePath ‖ 0x00 ‖ scenarioName)) % N == i - 1`.
///
/// The MurmurHash3 finalizer `fmix64` is applied because FNV-1a alone mixes the last bytes poorly:
/// `fnv1a64 % 4` depends only on the low two bits of each byte, so "check a" and "check e" (0x61, 0x65)
/// would always share a shard.
///
/// The split depends only on the two strings (UTF-8 bytes, FNV-1a 64-bit, not Swift's per-process
/// seeded `Hasher`), so every machine agrees on it and a scenario stays on its shard while others are
/// added or removed. Pass `suitePath` as the repository-relative path (`Suites/checkout.yaml`) so the
/// split does not depend on the checkout directory. Shards are disjoint and together cover every
/// scenario; they are balanced only statistically.
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

    /// True when the scenario `scenarioName` of the suite at `suitePath` runs on this shard.
    package func includes(suitePath: String, scenarioName: String) -> Bool {
        Self.shard(suitePath: suitePath, scenarioName: scenarioName, count: count) == index
    }

    /// The 1-based shard of `count` that owns the scenario.
    package static func shard(suitePath: String, scenarioName: String, count: Int) -> Int {
        let hash = StableHash.fmix64(fnv1a64(Array(suitePath.utf8) + [0] + Array(scenarioName.utf8)))
        return Int(hash % UInt64(max(count, 1))) + 1
    }

    /// The report file name for this shard: `junit-<i>-of-<N>.xml`.
    package var reportFileName: String { "junit-\(index)-of-\(count).xml" }

    /// The shard index in a `junit-<i>-of-<N>.xml` (or `report-<i>-of-<N>.html`, …) name, or nil for other names.
    static func shardIndex(fromFileName name: String) -> Int? {
        // `<anything>-<i>-of-<N>.<ext>`: junit-2-of-3.xml, report-2-of-3.html.
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let parts = name[..<dot].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[parts.count - 2] == "of", let index = Int(parts[parts.count - 3]),
            Int(parts[parts.count - 1]) != nil
        else { return nil }
        return index
    }

    /// `i/N`.
    package var description: String { "\(index)/\(count)" }

    /// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3): the shard key's hash.
    package static func fnv1a64(_ bytes: [UInt8]) -> UInt64 { StableHash.fnv1a64(bytes) }
}
