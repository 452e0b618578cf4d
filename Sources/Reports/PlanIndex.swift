/// Where each planned scenario is in a run's plan, by suite and name: one position per case, counted through the plan
/// in order (suite after suite). Shared by what follows a run's progress (`ReportProgress`) and what deflates its HTML
/// report's data as it goes (`ReportDataStream`): each kept a dictionary of every case before.
final class PlanIndex: Sendable {
    struct Key: Hashable, Sendable {
        var suite: String
        var name: String
    }

    /// Every planned case's position.
    private let positions: [Key: Int]
    /// Suite `s`'s cases are at `first[s]..<first[s + 1]`; the last entry is `count`.
    private let first: [Int]

    /// The index of `plan`. Classname and name identify a case, so they must be unique in the plan (`.duplicateCase`
    /// otherwise; GitLab keeps only the first of duplicates, merge rejects them).
    init(_ plan: [PlannedSuite]) throws(ReportsError) {
        // Sized for the plan up front: grown by inserting, it rehashed at each doubling and ended up to twice as large.
        var positions = [Key: Int](minimumCapacity: plan.reduce(0) { $0 + $1.cases.count })
        var first: [Int] = []
        var count = 0
        for suite in plan {
            first.append(count)
            for planned in suite.cases {
                guard positions.updateValue(count, forKey: Key(suite: suite.name, name: planned.name)) == nil else {
                    throw .duplicateCase(
                        classname: suite.name, name: planned.name, path: suite.file ?? suite.name,
                        line: planned.line ?? 0, firstPath: suite.file ?? suite.name)
                }
                count += 1
            }
        }
        first.append(count)
        self.positions = positions
        self.first = first
    }

    /// How many cases the plan has.
    var count: Int { first[first.count - 1] }

    /// The position of a planned case; nil for one not in the plan.
    func position(suite: String, name: String) -> Int? { positions[Key(suite: suite, name: name)] }

    /// The suite and the case within it at `position` (a planned case's).
    func suiteAndCase(at position: Int) -> (suite: Int, case: Int) {
        // The last suite whose first case is at or before `position` (an empty suite's first is its successor's).
        var low = 0
        var high = first.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if first[middle] <= position { low = middle } else { high = middle }
        }
        return (low, position - first[low])
    }

    /// The positions of suite `s`'s cases.
    func positions(ofSuite s: Int) -> Range<Int> { first[s]..<first[s + 1] }
}
