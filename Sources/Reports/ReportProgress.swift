import Foundation
import PushModel

/// A scenario the run intends to execute.
package struct PlannedCase: Sendable, Equatable {
    /// Scenario name.
    package var name: String
    /// 1-based line of the scenario in the suite file, if known.
    package var line: Int?

    /// Creates a planned scenario.
    package init(name: String, line: Int? = nil) {
        self.name = name
        self.line = line
    }
}

/// A suite the run intends to execute, with its scenarios in order.
package struct PlannedSuite: Sendable, Equatable {
    /// Suite path (`Suites/checkout.yaml`); becomes the testsuite name and every case's classname.
    package var name: String
    /// Suite file, if it should be stated besides the name.
    package var file: String?
    /// Suite properties.
    package var properties: [ReportProperty]
    /// Scenarios in run order.
    package var cases: [PlannedCase]
    /// The suite's `name:` (`TestSuiteReport.title`).
    package var title: String?

    /// Creates a planned suite.
    package init(
        name: String, file: String? = nil, properties: [ReportProperty] = [], cases: [PlannedCase], title: String? = nil
    ) {
        self.name = name
        self.title = title
        self.file = file
        self.properties = properties
        self.cases = cases
    }
}

/// What is known about a run in progress — the plan, which scenarios started, which finished — and the
/// report that follows from it. No I/O: `IncrementalReport` decides when to write `snapshot()`.
///
/// Content rules: finished scenarios appear as reported, in plan order; unfinished ones as
/// `<error type="interrupted">` if they had started and `<skipped message="not run: interrupted">` if
/// not; while anything is unfinished every suite carries `pushcheck.incomplete`.
struct ReportProgress {
    private typealias Key = PlanIndex.Key

    /// What is known of one case: its result once it finished, what that rendered to, and when it started. 48 bytes
    /// (`RenderedCase?` and `Date?` took 88 with their optionals' padding).
    private struct Slot {
        var result: Finished?
        var rendered = RenderedCase.notRendered
        /// The start's `timeIntervalSinceReferenceDate`; NaN until it started.
        private var startedAt = Double.nan

        var started: Date? {
            get { startedAt.isNaN ? nil : Date(timeIntervalSinceReferenceDate: startedAt) }
            set { startedAt = newValue?.timeIntervalSinceReferenceDate ?? .nan }
        }
    }

    /// A finished case as a slot keeps it.
    private enum Finished {
        /// A rendered case that passed at its first attempt, named and placed as the plan says: all its summary holds
        /// that the plan does not (most cases of a run; a boxed summary was 200 bytes and more a case).
        case passed(time: Double, tags: [String])
        /// Any other case: its summary once rendered, the whole case otherwise (behind a reference: most slots of a run
        /// in progress have no result).
        case other(Boxed<TestCaseReport>)

        /// `testCase` (its `summary` once `rendered`), planned as `planned` in `suite` when it is in the plan. A
        /// `.passed` case keeps the summary's tag list as it is: the runner's cases carry their `RunItem`'s, which
        /// `LoadedSuites` made one array per equal list.
        init(_ testCase: TestCaseReport, rendered: Bool, planned: (suite: PlannedSuite, case: PlannedCase)?) {
            guard rendered else {
                self = .other(Boxed(testCase))
                return
            }
            let summary = testCase.summary
            if let planned, case .passed = summary.outcome,
                summary == Self.passed(time: summary.time, tags: summary.tags, planned.case, in: planned.suite)
            {
                self = .passed(time: summary.time, tags: summary.tags)
            } else {
                self = .other(Boxed(summary))
            }
        }

        /// The case, planned as `planned` in `suite` (`.passed` is only made for a planned case).
        func value(_ planned: PlannedCase, in suite: PlannedSuite) -> TestCaseReport {
            switch self {
            case .passed(let time, let tags): Self.passed(time: time, tags: tags, planned, in: suite)
            case .other(let box): box.value
            }
        }

        /// The case of an unplanned scenario (always `.other`).
        var unplannedValue: TestCaseReport? {
            if case .other(let box) = self { return box.value }
            return nil
        }

        /// The summary of a case that passed at its first attempt, as the plan names and places it.
        private static func passed(time: Double, tags: [String], _ planned: PlannedCase, in suite: PlannedSuite)
            -> TestCaseReport
        {
            TestCaseReport(
                classname: suite.name, name: planned.name, file: suite.file ?? suite.name, line: planned.line,
                time: time, outcome: .passed, tags: tags)
        }
    }

    private let header: TestReport
    private let plan: [PlannedSuite]
    /// Where each planned scenario's slot is in `slots` (a look-up per finished scenario rather than a scan of the
    /// plan).
    private let index: PlanIndex
    /// The planned scenarios' slots, in plan order: one array where there were a dictionary of results, one of what
    /// they rendered to, one of start times and a set of planned names, each keyed by suite and name (a run of 20,000
    /// scenarios held 11 MB in them).
    private var slots: [Slot]
    /// Finished scenarios that were not in the plan, in finishing order, and their slots.
    private var extraCases: [Key] = []
    private var extraSlots: [Key: Slot] = [:]

    /// The progress of a run of `plan` (indexed by `index`, made from it).
    init(header: TestReport, plan: [PlannedSuite], index: PlanIndex) {
        self.header = header
        self.plan = plan
        self.index = index
        slots = Array(repeating: Slot(), count: index.count)
    }

    /// `init(header:plan:index:)` with the plan's own index; `.duplicateCase` when a suite names a scenario twice.
    init(header: TestReport, plan: [PlannedSuite]) throws(ReportsError) {
        self.init(header: header, plan: plan, index: try PlanIndex(plan))
    }

    /// The slot of a scenario, planned or not.
    private subscript(key: Key) -> Slot {
        get { index.position(suite: key.suite, name: key.name).map { slots[$0] } ?? extraSlots[key] ?? Slot() }
        set {
            if let at = index.position(suite: key.suite, name: key.name) {
                slots[at] = newValue
            } else {
                extraSlots[key] = newValue
            }
        }
    }

    /// Notes that a scenario started.
    mutating func recordStart(suite: String, name: String, at date: Date) {
        self[Key(suite: suite, name: name)].started = date
    }

    /// Records a finished scenario; one not in the plan is appended to its suite (or a new suite). `rendered` is
    /// what the writers make of it (`RenderedCase.init`), kept beside it; the case is then kept as its `summary` (what
    /// the transcripts and trace were rendered to is on the spool).
    mutating func recordFinish(_ testCase: TestCaseReport, rendered: RenderedCase? = nil) {
        let key = Key(suite: testCase.classname, name: testCase.name)
        // One look-up of the case (the slot's subscript would look it up again to read and to write).
        let position = index.position(suite: key.suite, name: key.name)
        var slot = position.map { slots[$0] } ?? extraSlots[key] ?? Slot()
        if slot.result == nil, position == nil { extraCases.append(key) }
        let planned = position.map { position in
            let (s, c) = index.suiteAndCase(at: position)
            return (plan[s], plan[s].cases[c])
        }
        slot.result = Finished(testCase, rendered: rendered != nil, planned: planned)
        slot.rendered = rendered ?? .notRendered
        if let position { slots[position] = slot } else { extraSlots[key] = slot }
    }

    /// Number of planned scenarios that have not finished.
    var unfinishedCount: Int { slots.count { $0.result == nil } }

    /// Number of finished cases kept as the plan's facts and their time (`Finished.passed`; for tests).
    var passedAsPlannedCount: Int {
        slots.count {
            if case .passed = $0.result { return true }
            return false
        }
    }

    /// The report as it stands, following the content rules above.
    func snapshot() -> TestReport { renderedSnapshot(spool: nil).report }

    /// `snapshot()` with what each finished case rendered to (on `spool`, the one its `RenderedCase` was kept on),
    /// where it is in the report.
    func renderedSnapshot(spool: ReportSpool?) -> RenderedReport {
        var report = header
        var cases: [[RenderedCase]] = []
        var unfinished = 0
        var total = 0
        for (s, planned) in plan.enumerated() {
            var suite = TestSuiteReport(
                name: planned.name, file: planned.file, timestamp: header.timestamp, hostname: header.hostname,
                properties: planned.properties, title: planned.title)
            let suiteSlots = slots[index.positions(ofSuite: s)]
            suite.timestamp = suiteSlots.lazy.compactMap(\.started).min() ?? header.timestamp
            var suiteRendered: [RenderedCase] = []
            suiteRendered.reserveCapacity(planned.cases.count)
            suite.cases.reserveCapacity(planned.cases.count)
            for (plannedCase, slot) in zip(planned.cases, suiteSlots) {
                total += 1
                if let result = slot.result {
                    suite.cases.append(result.value(plannedCase, in: planned))
                    suiteRendered.append(slot.rendered)
                } else {
                    unfinished += 1
                    suite.cases.append(Self.placeholder(for: plannedCase, suite: planned, started: slot.started != nil))
                    suiteRendered.append(.notRendered)
                }
            }
            report.suites.append(suite)
            cases.append(suiteRendered)
        }
        for key in extraCases {
            guard let slot = extraSlots[key], let result = slot.result?.unplannedValue else { continue }
            total += 1
            if let index = report.suites.firstIndex(where: { $0.name == key.suite }) {
                report.suites[index].cases.append(result)
                cases[index].append(slot.rendered)
            } else {
                report.suites.append(
                    TestSuiteReport(
                        name: key.suite, timestamp: slot.started ?? header.timestamp, hostname: header.hostname,
                        cases: [result]))
                cases.append([slot.rendered])
            }
        }
        if unfinished > 0 {
            let marker = ReportProperty("pushcheck.incomplete", "\(unfinished) of \(total) scenarios not finished")
            for index in report.suites.indices { report.suites[index].properties.append(marker) }
        }
        return RenderedReport(report: report, cases: cases, spool: spool, data: nil)
    }

    private static func placeholder(for planned: PlannedCase, suite: PlannedSuite, started: Bool) -> TestCaseReport {
        let outcome: CaseOutcome =
            started
            ? .error(
                ProblemReport(
                    message: "interrupted while running", kind: .interrupted,
                    detail: "pushcheck stopped (Ctrl-C, crash or kill) before this scenario finished."))
            : .skipped(message: "not run: interrupted")
        return TestCaseReport(
            classname: suite.name, name: planned.name, file: suite.file ?? suite.name, line: planned.line, time: 0,
            outcome: outcome)
    }
}
