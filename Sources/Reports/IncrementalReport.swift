import Foundation
import Synchronization

/// A scenario the run intends to execute.
public struct PlannedCase: Sendable, Equatable {
    /// Scenario name.
    public var name: String
    /// 1-based line of the scenario in the suite file, if known.
    public var line: Int?

    /// Creates a planned scenario.
    public init(name: String, line: Int? = nil) {
        self.name = name
        self.line = line
    }
}

/// A suite the run intends to execute, with its scenarios in order.
public struct PlannedSuite: Sendable, Equatable {
    /// Suite path (`Suites/checkout.yaml`); becomes the testsuite name and every case's classname.
    public var name: String
    /// Suite file, if it should be stated besides the name.
    public var file: String?
    /// Suite properties.
    public var properties: [ReportProperty]
    /// Scenarios in run order.
    public var cases: [PlannedCase]

    /// Creates a planned suite.
    public init(name: String, file: String? = nil, properties: [ReportProperty] = [], cases: [PlannedCase]) {
        self.name = name
        self.file = file
        self.properties = properties
        self.cases = cases
    }
}

/// Keeps a JUnit file on disk that is always complete XML and always holds every finished scenario.
///
/// After each finished scenario the whole report is rewritten atomically (temporary file + rename), so a
/// Ctrl-C, a crash or a kill leaves the last good snapshot. Scenarios that have not finished appear as:
/// - `<error type="interrupted" message="interrupted while running">` if they had started — the scenario
///   did run and did not complete, which must turn CI red;
/// - `<skipped message="not run: interrupted">` if they never started — nothing about them is known.
/// While anything is unfinished, every suite also carries the property
/// `pushcheck.incomplete` = `"<k> of <n> scenarios not finished"`, so a reader can tell a cut-off report
/// from a complete one. Writes happen under the lock so a newer snapshot is never overwritten by an older one.
public final class IncrementalReport: Sendable {
    private struct Key: Hashable {
        var suite: String
        var name: String
    }

    private struct State {
        var header: TestReport
        var plan: [PlannedSuite]
        var results: [Key: TestCaseReport] = [:]
        var started: [Key: Date] = [:]
        var extraCases: [Key] = []
    }

    private let url: URL
    private let state: Mutex<State>

    /// Starts a report at `url` with the run's `name`, `timestamp`, `hostname` and `properties` and the
    /// planned suites. Writes the initial snapshot (every scenario `not run`) immediately.
    /// Scenario names must be unique within a suite (`.duplicateCase` otherwise).
    public init(
        url: URL, name: String = "pushcheck", timestamp: Date = Date(), hostname: String,
        properties: [ReportProperty] = [], plan: [PlannedSuite]
    ) throws(ReportsError) {
        // classname + name identify a case (GitLab keeps only the first of duplicates; merge rejects them).
        for suite in plan {
            var names = Set<String>()
            for planned in suite.cases where !names.insert(planned.name).inserted {
                throw .duplicateCase(
                    classname: suite.name, name: planned.name, path: suite.file ?? suite.name, line: planned.line ?? 0,
                    firstPath: suite.file ?? suite.name)
            }
        }
        self.url = url
        let header = TestReport(name: name, timestamp: timestamp, hostname: hostname, properties: properties)
        state = Mutex(State(header: header, plan: plan))
        try flush()
    }

    /// Records that a scenario started and rewrites the file, so that if the process dies now the
    /// scenario shows as an interrupted error rather than as not run.
    public func caseStarted(suite: String, name: String, at date: Date = Date()) throws(ReportsError) {
        try state.withLock { (state: inout State) throws(ReportsError) in
            state.started[Key(suite: suite, name: name)] = date
            try JUnitXMLWriter.write(Self.snapshot(of: state), to: url)
        }
    }

    /// Records a finished scenario and rewrites the file. A scenario not in the plan is appended to its
    /// suite (or to a new suite named after its classname).
    public func caseFinished(_ testCase: TestCaseReport) throws(ReportsError) {
        try state.withLock { (state: inout State) throws(ReportsError) in
            let key = Key(suite: testCase.classname, name: testCase.name)
            let planned = state.plan.contains { $0.name == key.suite && $0.cases.contains { $0.name == key.name } }
            if !planned, state.results[key] == nil { state.extraCases.append(key) }
            state.results[key] = testCase
            try JUnitXMLWriter.write(Self.snapshot(of: state), to: url)
        }
    }

    /// Rewrites the file from the current state (e.g. from a signal handler's cleanup path).
    public func flush() throws(ReportsError) {
        try state.withLock { (state: inout State) throws(ReportsError) in
            try JUnitXMLWriter.write(Self.snapshot(of: state), to: url)
        }
    }

    /// The report as it stands: finished scenarios as reported, the rest marked as described above.
    public func snapshot() -> TestReport {
        state.withLock { Self.snapshot(of: $0) }
    }

    /// Writes the final report and returns it.
    @discardableResult
    public func finish() throws(ReportsError) -> TestReport {
        try state.withLock { (state: inout State) throws(ReportsError) -> TestReport in
            let report = Self.snapshot(of: state)
            try JUnitXMLWriter.write(report, to: url)
            return report
        }
    }

    /// Number of planned scenarios that have not finished.
    public var unfinishedCount: Int {
        state.withLock { state in
            state.plan.reduce(0) { total, suite in
                total + suite.cases.filter { state.results[Key(suite: suite.name, name: $0.name)] == nil }.count
            }
        }
    }

    private static func snapshot(of state: State) -> TestReport {
        var report = state.header
        var unfinished = 0
        var total = 0
        for planned in state.plan {
            var suite = TestSuiteReport(
                name: planned.name, file: planned.file, timestamp: state.header.timestamp,
                hostname: state.header.hostname, properties: planned.properties)
            let starts = planned.cases.compactMap { state.started[Key(suite: planned.name, name: $0.name)] }
            suite.timestamp = starts.min() ?? state.header.timestamp
            for plannedCase in planned.cases {
                let key = Key(suite: planned.name, name: plannedCase.name)
                total += 1
                if let result = state.results[key] {
                    suite.cases.append(result)
                } else {
                    unfinished += 1
                    suite.cases.append(placeholder(for: plannedCase, suite: planned, started: state.started[key] != nil))
                }
            }
            report.suites.append(suite)
        }
        for key in state.extraCases {
            guard let result = state.results[key] else { continue }
            total += 1
            if let index = report.suites.firstIndex(where: { $0.name == key.suite }) {
                report.suites[index].cases.append(result)
            } else {
                report.suites.append(TestSuiteReport(
                    name: key.suite, timestamp: state.started[key] ?? state.header.timestamp,
                    hostname: state.header.hostname, cases: [result]))
            }
        }
        if unfinished > 0 {
            let marker = ReportProperty("pushcheck.incomplete", "\(unfinished) of \(total) scenarios not finished")
            for index in report.suites.indices { report.suites[index].properties.append(marker) }
        }
        return report
    }

    private static func placeholder(for planned: PlannedCase, suite: PlannedSuite, started: Bool) -> TestCaseReport {
        let outcome: CaseOutcome =
            started
            ? .error(ProblemReport(
                message: "interrupted while running", type: "interrupted",
                detail: "pushcheck stopped (Ctrl-C, crash or kill) before this scenario finished."))
            : .skipped(message: "not run: interrupted")
        return TestCaseReport(
            classname: suite.name, name: planned.name, file: suite.file ?? suite.name, line: planned.line, time: 0,
            outcome: outcome)
    }
}
