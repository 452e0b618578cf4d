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

    /// Creates a planned suite.
    package init(name: String, file: String? = nil, properties: [ReportProperty] = [], cases: [PlannedCase]) {
        self.name = name
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
    private struct Key: Hashable {
        var suite: String
        var name: String
    }

    private let header: TestReport
    private let plan: [PlannedSuite]
    /// Every planned scenario (a look-up per finished scenario rather than a scan of the plan).
    private let plannedKeys: Set<Key>
    private var results: [Key: TestCaseReport] = [:]
    /// What each result rendered to when it was recorded (by the thread that finished it, not by the writer).
    private var rendered: [Key: RenderedCase] = [:]
    private var started: [Key: Date] = [:]
    /// Finished scenarios that were not in the plan, in finishing order.
    private var extraCases: [Key] = []

    /// Scenario names must be unique within a suite (`.duplicateCase` otherwise): classname + name
    /// identify a case (GitLab keeps only the first of duplicates; merge rejects them).
    init(header: TestReport, plan: [PlannedSuite]) throws(ReportsError) {
        for suite in plan {
            var names = Set<String>()
            for planned in suite.cases where !names.insert(planned.name).inserted {
                throw .duplicateCase(
                    classname: suite.name, name: planned.name, path: suite.file ?? suite.name, line: planned.line ?? 0,
                    firstPath: suite.file ?? suite.name)
            }
        }
        self.header = header
        self.plan = plan
        plannedKeys = Set(plan.flatMap { suite in suite.cases.map { Key(suite: suite.name, name: $0.name) } })
    }

    /// Notes that a scenario started.
    mutating func recordStart(suite: String, name: String, at date: Date) {
        started[Key(suite: suite, name: name)] = date
    }

    /// Records a finished scenario; one not in the plan is appended to its suite (or a new suite). `rendered` is
    /// what the writers make of it (`RenderedCase.init`), kept beside it; the case is then kept as its `summary` (what
    /// the transcripts and trace were rendered to is on the spool).
    mutating func recordFinish(_ testCase: TestCaseReport, rendered: RenderedCase? = nil) {
        let key = Key(suite: testCase.classname, name: testCase.name)
        if results[key] == nil, !plannedKeys.contains(key) { extraCases.append(key) }
        results[key] = rendered == nil ? testCase : testCase.summary
        self.rendered[key] = rendered
    }

    /// Number of planned scenarios that have not finished.
    var unfinishedCount: Int {
        plan.reduce(0) { total, suite in
            total + suite.cases.filter { results[Key(suite: suite.name, name: $0.name)] == nil }.count
        }
    }

    /// The report as it stands, following the content rules above.
    func snapshot() -> TestReport { renderedSnapshot().report }

    /// `snapshot()` with what each finished case rendered to, where it is in the report.
    func renderedSnapshot() -> RenderedReport {
        var report = header
        var cases: [[RenderedCase?]] = []
        var unfinished = 0
        var total = 0
        for planned in plan {
            var suite = TestSuiteReport(
                name: planned.name, file: planned.file, timestamp: header.timestamp, hostname: header.hostname,
                properties: planned.properties)
            let starts = planned.cases.compactMap { started[Key(suite: planned.name, name: $0.name)] }
            suite.timestamp = starts.min() ?? header.timestamp
            var suiteRendered: [RenderedCase?] = []
            suiteRendered.reserveCapacity(planned.cases.count)
            suite.cases.reserveCapacity(planned.cases.count)
            for plannedCase in planned.cases {
                let key = Key(suite: planned.name, name: plannedCase.name)
                total += 1
                if let result = results[key] {
                    suite.cases.append(result)
                    suiteRendered.append(rendered[key])
                } else {
                    unfinished += 1
                    suite.cases.append(Self.placeholder(for: plannedCase, suite: planned, started: started[key] != nil))
                    suiteRendered.append(nil)
                }
            }
            report.suites.append(suite)
            cases.append(suiteRendered)
        }
        for key in extraCases {
            guard let result = results[key] else { continue }
            total += 1
            if let index = report.suites.firstIndex(where: { $0.name == key.suite }) {
                report.suites[index].cases.append(result)
                cases[index].append(rendered[key])
            } else {
                report.suites.append(
                    TestSuiteReport(
                        name: key.suite, timestamp: started[key] ?? header.timestamp, hostname: header.hostname,
                        cases: [result]))
                cases.append([rendered[key]])
            }
        }
        if unfinished > 0 {
            let marker = ReportProperty("pushcheck.incomplete", "\(unfinished) of \(total) scenarios not finished")
            for index in report.suites.indices { report.suites[index].properties.append(marker) }
        }
        return RenderedReport(report: report, cases: cases, data: nil)
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
