import Dispatch
import Foundation
import Synchronization

/// When an `IncrementalReport` rewrites its file. Every write is the whole report, atomically
/// (temporary file + fsync + rename), so a reader never sees a partial file.
package enum WritePolicy: Sendable, Equatable {
    /// Rewrite on every start and finish. The file is never behind, but a run of n scenarios costs
    /// O(n²): 1,000 scenarios took about three minutes.
    case everyChange
    /// Rewrite in the background at most once per `minimumInterval`, stretched to 20× the last write's
    /// duration so that writing a large report never takes more than ~5% of the run; always on `flush()`
    /// and `finish()`. Ctrl-C's path calls one of those, so nothing finished is lost; a hard kill loses at
    /// most the results since the last write.
    case coalesced(minimumInterval: Duration = .milliseconds(250))
}

/// Keeps a JUnit file on disk that is always complete XML and holds the finished scenarios.
///
/// Scenarios that have not finished appear as:
/// - `<error type="interrupted" message="interrupted while running">` if they had started — the scenario
///   did run and did not complete, which must turn CI red;
/// - `<skipped message="not run: interrupted">` if they never started — nothing about them is known.
/// While anything is unfinished, every suite also carries the property
/// `pushcheck.incomplete` = `"<k> of <n> scenarios not finished"`, so a reader can tell a cut-off report
/// from a complete one. How often the file is rewritten is the `WritePolicy`; writes are serialised and
/// each renders the state at its start, so a newer snapshot is never overwritten by an older one.
package final class IncrementalReport: Sendable {
    private struct State {
        var progress: ReportProgress
        /// Changed since the last write began.
        var dirty = false
        var backgroundWriteScheduled = false
        var writeError: ReportsError?
        /// How long the last write took (the coalesced interval stretches to 20× this).
        var lastWriteDuration: Duration = .zero
        var writeCount = 0
        /// Run after the next write completes (it holds the scenarios they announce).
        var afterWrite: [@Sendable () -> Void] = []
    }

    private let url: URL
    private let policy: WritePolicy
    /// The HTML report's data, deflated as cases finish (when the run writes one).
    private let htmlData: SharedReportDataStream?
    /// What finished cases were rendered to, out of memory until the report is written.
    private let spool: ReportSpool
    private let state: Mutex<State>
    /// Serialises writes (held while rendering and writing; `state` is only held to take a snapshot).
    private let writer = Mutex(())

    /// Starts a report at `url` with the run's `name`, `timestamp`, `hostname` and `properties` and the
    /// planned suites, rewritten as `policy` says. Writes the initial snapshot (every scenario `not run`)
    /// immediately. Scenario names must be unique within a suite (`.duplicateCase` otherwise). Each finished case
    /// is rendered by the caller of `caseFinished`: its JUnit element, kept for rewrites, and for a run that writes an
    /// HTML report (`htmlGenerator`: its `ReportData.RunFacts.generator`) its data, deflated in plan order
    /// (`ReportDataStream`; `finishRendered()` hands both to the writers).
    package convenience init(
        url: URL, name: String = "pushcheck", timestamp: Date = Date(), hostname: String,
        properties: [ReportProperty] = [], plan: [PlannedSuite], policy: WritePolicy = .everyChange,
        htmlGenerator: String? = nil
    ) throws(ReportsError) {
        try self.init(
            url: url, name: name, timestamp: timestamp, hostname: hostname, properties: properties, plan: plan,
            policy: policy, htmlGenerator: htmlGenerator, dataSpoolChunk: 1 << 16)
    }

    /// `init(url:…)`, the HTML report's deflated data going to the spool `dataSpoolChunk` bytes or more at a time.
    init(
        url: URL, name: String = "pushcheck", timestamp: Date = Date(), hostname: String,
        properties: [ReportProperty] = [], plan: [PlannedSuite], policy: WritePolicy = .everyChange,
        htmlGenerator: String? = nil, dataSpoolChunk: Int
    ) throws(ReportsError) {
        let header = TestReport(name: name, timestamp: timestamp, hostname: hostname, properties: properties)
        let index = try PlanIndex(plan)
        let progress = ReportProgress(header: header, plan: plan, index: index)
        self.url = url
        self.policy = policy
        let spool = ReportSpool(directory: url.deletingLastPathComponent().path)
        htmlData = htmlGenerator.map {
            SharedReportDataStream(
                ReportDataStream(
                    header: header, plan: plan, index: index, generator: $0, spool: spool, spoolChunk: dataSpoolChunk))
        }
        self.spool = spool
        state = Mutex(State(progress: progress))
        try flush()
    }

    /// Records that a scenario started, so that if the process dies after the next write the scenario
    /// shows as an interrupted error rather than as not run. A failed write is kept in `writeError`.
    package func caseStarted(suite: String, name: String, at date: Date = Date()) {
        htmlData?.started(suite: suite, name: name, at: date)
        record { $0.progress.recordStart(suite: suite, name: name, at: date) }
    }

    /// Records a finished scenario. A scenario not in the plan is appended to its suite (or to a new
    /// suite named after its classname). A failed write is kept in `writeError`. What the reports need of its
    /// transcripts and trace goes to the spool here; the report keeps the case's `summary`.
    ///
    /// `written` runs once a write that contains this scenario has finished (or failed): the console
    /// announces a result only when it is on disk, so a `kill -9` never loses a scenario the console
    /// already showed. With `.coalesced` that delays the announcement by at most one write interval.
    package func caseFinished(_ testCase: TestCaseReport, written: (@Sendable () -> Void)? = nil) {
        let data = htmlData.map { _ in ReportData.caseBytes(testCase) }
        let rendered = RenderedCase(testCase, data: data, spool: spool)
        if let data { htmlData?.finished(suite: testCase.classname, name: testCase.name, json: data) }
        record {
            $0.progress.recordFinish(testCase, rendered: rendered)
            if let written { $0.afterWrite.append(written) }
        }
    }

    /// Writes the current snapshot now (e.g. from an interrupt's cleanup path).
    package func flush() throws(ReportsError) {
        _ = try write()
    }

    /// Writes the final report and returns it: what is on disk, with each finished case as its `summary` (its
    /// transcripts and trace are in the file).
    @discardableResult
    package func finish() throws(ReportsError) -> TestReport {
        try write().report
    }

    /// `finish()`, with what was made of the cases (for `HTMLReport.write`).
    package func finishRendered() throws(ReportsError) -> RenderedReport {
        let written = try write()
        return RenderedReport(report: written.report, cases: written.cases, spool: spool, data: htmlData)
    }

    /// The report as it stands: finished scenarios as their `summary`, the rest marked as described above.
    package func snapshot() -> TestReport {
        snapshotRendered().report
    }

    /// `snapshot()`, with what was made of the cases.
    package func snapshotRendered() -> RenderedReport {
        let snapshot = state.withLock { $0.progress.renderedSnapshot(spool: spool) }
        return RenderedReport(report: snapshot.report, cases: snapshot.cases, spool: spool, data: htmlData)
    }

    /// Number of finished cases kept as the plan's facts and their time (for tests).
    var passedAsPlannedCount: Int {
        state.withLock { $0.progress.passedAsPlannedCount }
    }

    /// Number of planned scenarios that have not finished.
    var unfinishedCount: Int {
        state.withLock { $0.progress.unfinishedCount }
    }

    /// The first failure of a write made after `caseStarted`/`caseFinished` (immediately or in the
    /// background); `flush()` and `finish()` throw theirs instead. The last good snapshot stays on disk.
    var writeError: ReportsError? {
        state.withLock { $0.writeError }
    }

    /// Completed writes, the initial one included.
    var writeCount: Int {
        state.withLock { $0.writeCount }
    }

    private func record(_ change: (inout State) -> Void) {
        guard case let .coalesced(minimumInterval) = policy else {
            state.withLock { change(&$0) }
            writeRecordingError()
            return
        }
        let delay = state.withLock { state -> Duration? in
            change(&state)
            state.dirty = true
            guard !state.backgroundWriteScheduled else { return nil }
            state.backgroundWriteScheduled = true
            return max(minimumInterval, state.lastWriteDuration * 20)
        }
        guard let delay else { return }
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            let dirty = state.withLock { state -> Bool in
                state.backgroundWriteScheduled = false
                return state.dirty
            }
            if dirty { writeRecordingError() }
        }
    }

    private func writeRecordingError() {
        do throws(ReportsError) {
            _ = try write()
        } catch {
            state.withLock { if $0.writeError == nil { $0.writeError = error } }
        }
    }

    private func write() throws(ReportsError) -> RenderedReport {
        try writer.withLock { (_: inout ()) throws(ReportsError) -> RenderedReport in
            let start = ContinuousClock.now
            let (report, announcements) = state.withLock { state -> (RenderedReport, [@Sendable () -> Void]) in
                state.dirty = false
                defer { state.afterWrite = [] }
                return (state.progress.renderedSnapshot(spool: spool), state.afterWrite)
            }
            // Announced even when the write fails: the failure surfaces in `finish()` (exit 3).
            defer { for announce in announcements { announce() } }
            try JUnitXMLWriter.write(report, to: url)
            let elapsed = ContinuousClock.now - start
            state.withLock {
                $0.lastWriteDuration = elapsed
                $0.writeCount += 1
            }
            return report
        }
    }
}
