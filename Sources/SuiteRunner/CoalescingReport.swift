import Dispatch
import Foundation
import Reports
import Synchronization

/// The run's JUnit file, kept on disk while scenarios finish, with writes coalesced.
///
/// `IncrementalReport` rewrites the whole file (render + fsync + rename) on every start and finish, which
/// is O(n²) over a run: 1,000 scenarios took about three minutes in `make bench`. This keeps the same
/// content rules — finished scenarios as reported; unfinished ones as `<error type="interrupted">` if they
/// had started and `<skipped message="not run: interrupted">` if not; the `pushcheck.incomplete` property
/// while anything is unfinished — but writes at most once per `interval` (stretched to 20× the last
/// write's duration for large reports), and always on `finish()` and `flush()`. Ctrl-C goes through
/// `finish()`, so nothing finished is lost; a hard kill loses at most the results since the last write. Every write is atomic (`JUnitXMLWriter.write`: temp file + rename).
public final class CoalescingReport: Sendable {
    private struct Key: Hashable {
        var suite: String
        var name: String
    }

    private struct State {
        var header: TestReport
        var plan: [PlannedSuite]
        var results: [Key: TestCaseReport] = [:]
        var extra: [Key] = []
        var started: [Key: Date] = [:]
        var dirty = false
        var flushScheduled = false
        var lastError: ReportsError?
        /// How long the last write took; the next background write waits at least 20× that, so
        /// rendering a large report never takes more than ~5% of the run.
        var lastWriteDuration: Duration = .zero
    }

    private let url: URL
    private let interval: Duration
    private let state: Mutex<State>
    /// Serialises writes so an older snapshot never overwrites a newer one.
    private let writer = Mutex(())

    /// Starts the report at `url` and writes the initial snapshot (every scenario "not run").
    /// Scenario names must be unique within a suite (`.duplicateCase` otherwise).
    public init(
        url: URL, name: String = "pushcheck", timestamp: Date = Date(), hostname: String,
        properties: [ReportProperty] = [], plan: [PlannedSuite], interval: Duration = .milliseconds(250)
    ) throws(ReportsError) {
        for suite in plan {
            var names = Set<String>()
            for planned in suite.cases where !names.insert(planned.name).inserted {
                throw .duplicateCase(
                    classname: suite.name, name: planned.name, path: suite.file ?? suite.name, line: planned.line ?? 0,
                    firstPath: suite.file ?? suite.name)
            }
        }
        self.url = url
        self.interval = interval
        state = Mutex(State(header: TestReport(name: name, timestamp: timestamp, hostname: hostname, properties: properties), plan: plan))
        try flush()
    }

    /// Notes that a scenario started (an interrupted run then marks it as an interrupted error).
    public func caseStarted(suite: String, name: String, at date: Date = Date()) {
        state.withLock { $0.started[Key(suite: suite, name: name)] = date }
        changed()
    }

    /// Records a finished scenario. One not in the plan is appended to its suite.
    public func caseFinished(_ testCase: TestCaseReport) {
        state.withLock { state in
            let key = Key(suite: testCase.classname, name: testCase.name)
            let planned = state.plan.contains { $0.name == key.suite && $0.cases.contains { $0.name == key.name } }
            if !planned, state.results[key] == nil { state.extra.append(key) }
            state.results[key] = testCase
        }
        changed()
    }

    /// Writes the current snapshot now.
    public func flush() throws(ReportsError) {
        try writer.withLock { (_: inout ()) throws(ReportsError) in
            let start = ContinuousClock.now
            let report = state.withLock { state -> TestReport in
                state.dirty = false
                return Self.snapshot(of: state)
            }
            try JUnitXMLWriter.write(report, to: url)
            let elapsed = ContinuousClock.now - start
            state.withLock { $0.lastWriteDuration = elapsed }
        }
    }

    /// Writes the final snapshot and returns it.
    @discardableResult
    public func finish() throws(ReportsError) -> TestReport {
        try flush()
        return snapshot()
    }

    /// The report as it stands.
    public func snapshot() -> TestReport { state.withLock { Self.snapshot(of: $0) } }

    /// The first error from a background write, if any.
    public var backgroundError: ReportsError? { state.withLock { $0.lastError } }

    private func changed() {
        let delay = state.withLock { state -> Duration? in
            state.dirty = true
            guard !state.flushScheduled else { return nil }
            state.flushScheduled = true
            return max(interval, state.lastWriteDuration * 20)
        }
        guard let delay else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds))) { [self] in
            let dirty = state.withLock { state -> Bool in
                state.flushScheduled = false
                return state.dirty
            }
            guard dirty else { return }
            do throws(ReportsError) {
                try flush()
            } catch {
                state.withLock { if $0.lastError == nil { $0.lastError = error } }
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
                    suite.cases.append(placeholder(plannedCase, suite: planned, started: state.started[key] != nil))
                }
            }
            report.suites.append(suite)
        }
        for key in state.extra {
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

    /// Same wording as `IncrementalReport`, so readers see one convention.
    private static func placeholder(_ planned: PlannedCase, suite: PlannedSuite, started: Bool) -> TestCaseReport {
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
