import Testing
@testable import Reports

/// `PlanIndex` finds every planned case at its position through the plan, and nothing else.
@Suite struct PlanIndexTests {
    /// Suites of different sizes (one empty, one large enough to make the table grow and collide), with names that
    /// repeat across suites and suite names that are prefixes of each other.
    static let plan: [PlannedSuite] = [
        PlannedSuite(name: "Suites/a.yaml", cases: [PlannedCase(name: "one"), PlannedCase(name: "two")]),
        PlannedSuite(name: "Suites/empty.yaml", cases: []),
        PlannedSuite(name: "Suites/a.yaml.d", cases: [PlannedCase(name: "one"), PlannedCase(name: "")]),
        PlannedSuite(
            name: "Suites/big.yaml", cases: (0..<3000).map { PlannedCase(name: "scenario \($0) with a longer name") }),
        PlannedSuite(name: "Suites/last.yaml", cases: [PlannedCase(name: "one")]),
    ]

    @Test func everyCaseIsAtItsPositionInPlanOrder() throws {
        let index = try PlanIndex(Self.plan)
        #expect(index.count == 3005)
        var position = 0
        for (s, suite) in Self.plan.enumerated() {
            #expect(index.positions(ofSuite: s) == position..<position + suite.cases.count)
            for (c, planned) in suite.cases.enumerated() {
                #expect(index.position(suite: suite.name, name: planned.name) == position)
                #expect(index.suiteAndCase(at: position) == (s, c))
                position += 1
            }
        }
    }

    @Test func unplannedCasesAreNotFound() throws {
        let index = try PlanIndex(Self.plan)
        #expect(index.position(suite: "Suites/a.yaml", name: "three") == nil)
        #expect(index.position(suite: "Suites/empty.yaml", name: "one") == nil)
        #expect(index.position(suite: "Suites/a.yaml", name: "") == nil)
        #expect(index.position(suite: "Suites/big.yaml", name: "scenario 3000 with a longer name") == nil)
        #expect(index.position(suite: "Suites/other.yaml", name: "one") == nil)
        let empty = try PlanIndex([])
        #expect(empty.count == 0)
        #expect(empty.position(suite: "Suites/a.yaml", name: "one") == nil)
    }

    @Test func aNameTwiceInOneSuiteIsADuplicate() {
        var plan = Self.plan
        plan[3].cases.append(PlannedCase(name: "scenario 1234 with a longer name", line: 77))
        #expect(
            throws: ReportsError.duplicateCase(
                classname: "Suites/big.yaml", name: "scenario 1234 with a longer name", path: "Suites/big.yaml",
                line: 77, firstPath: "Suites/big.yaml")
        ) { try PlanIndex(plan) }
    }
}
