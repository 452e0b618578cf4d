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
        var positions: [Key: Int] = [:]
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

    /// The positions of suite `s`'s cases.
    func positions(ofSuite s: Int) -> Range<Int> { first[s]..<first[s + 1] }
}
