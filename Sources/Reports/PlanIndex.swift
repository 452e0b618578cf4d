/// Where each planned scenario is in a run's plan, by suite and name: one position per case, counted through the plan
/// in order (suite after suite). Shared by what follows a run's progress (`ReportProgress`) and what deflates its HTML
/// report's data as it goes (`ReportDataStream`): each kept a dictionary of every case before.
///
/// The names are not copied: a position's suite and case names are read back from the plan. The table holds, per
/// case, its position and 32 bits of its key's hash in one `UInt64`, in open addressing at most 3/4 full: 11 to 21
/// bytes a case (13 for 20,000 cases), where a `[Key: Int]` took about 75 (two `String`s and an `Int` per entry).
final class PlanIndex: Sendable {
    struct Key: Hashable, Sendable {
        var suite: String
        var name: String
    }

    private let plan: [PlannedSuite]
    /// Suite `s`'s cases are at `first[s]..<first[s + 1]`; the last entry is `count`.
    private let first: [Int]
    /// `capacity` slots (a power of two): 0 is empty, otherwise the hash's high 32 bits over `position + 1`.
    private let table: [UInt64]

    /// The index of `plan`. Classname and name identify a case, so they must be unique in the plan (`.duplicateCase`
    /// otherwise; GitLab keeps only the first of duplicates, merge rejects them).
    init(_ plan: [PlannedSuite]) throws(ReportsError) {
        var first: [Int] = []
        first.reserveCapacity(plan.count + 1)
        var count = 0
        for suite in plan {
            first.append(count)
            count += suite.cases.count
        }
        first.append(count)
        precondition(count < Int(UInt32.max), "a plan of \(count) cases")
        var capacity = 8
        while capacity * 3 < count * 4 { capacity *= 2 }
        var table = [UInt64](repeating: 0, count: capacity)
        var position = 0
        for suite in plan {
            for planned in suite.cases {
                let hash = Self.hash(suite: suite.name, name: planned.name)
                let (slot, found) = Self.probe(
                    table, hash: hash, suite: suite.name, name: planned.name, plan: plan, first: first)
                guard found == nil else {
                    throw .duplicateCase(
                        classname: suite.name, name: planned.name, path: suite.file ?? suite.name,
                        line: planned.line ?? 0, firstPath: suite.file ?? suite.name)
                }
                table[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(position + 1)
                position += 1
            }
        }
        self.plan = plan
        self.first = first
        self.table = table
    }

    /// How many cases the plan has.
    var count: Int { first[first.count - 1] }

    /// The position of a planned case; nil for one not in the plan.
    func position(suite: String, name: String) -> Int? {
        Self.probe(table, hash: Self.hash(suite: suite, name: name), suite: suite, name: name, plan: plan, first: first)
            .position
    }

    /// Where `suite` and `name` (of hash `hash`) are in `table`: their slot and position, or the empty slot where
    /// they would go. The names are compared only where the hash's high 32 bits match.
    private static func probe(
        _ table: [UInt64], hash: UInt64, suite: String, name: String, plan: [PlannedSuite], first: [Int]
    ) -> (slot: Int, position: Int?) {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while table[slot] != 0 {
            if table[slot] >> 32 == hash >> 32 {
                let position = Int(UInt32(truncatingIfNeeded: table[slot])) - 1
                let (s, c) = suiteAndCase(at: position, first: first)
                if plan[s].name == suite, plan[s].cases[c].name == name { return (slot, position) }
            }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// The suite and the case within it at `position` (a planned case's).
    func suiteAndCase(at position: Int) -> (suite: Int, case: Int) {
        Self.suiteAndCase(at: position, first: first)
    }

    /// The positions of suite `s`'s cases.
    func positions(ofSuite s: Int) -> Range<Int> { first[s]..<first[s + 1] }

    private static func suiteAndCase(at position: Int, first: [Int]) -> (suite: Int, case: Int) {
        // The last suite whose first case is at or before `position` (an empty suite's first is its successor's).
        var low = 0
        var high = first.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if first[middle] <= position { low = middle } else { high = middle }
        }
        return (low, position - first[low])
    }

    private static func hash(suite: String, name: String) -> UInt64 {
        UInt64(bitPattern: Int64(Key(suite: suite, name: name).hashValue))
    }
}
