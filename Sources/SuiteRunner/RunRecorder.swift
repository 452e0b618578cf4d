import Dispatch
import Foundation
import Reports
import Synchronization

/// Where finished scenarios go: the JUnit file (an `IncrementalReport`, normally with coalesced writes)
/// and the console, plus (`keepingFinished`) an in-memory list for `finishedCases()` (of each case's `summary` when a
/// report holds the case: its transcripts and trace are then in the report's files, not kept for the whole run). A
/// report that cannot be written shows up in `finish()` (the run ends with exit code 3), not mid-run.
package final class RunRecorder: Sendable {
    private let report: IncrementalReport?
    private let console: ConsoleReporter?
    private let cases = Mutex<[TestCaseReport]>([])
    private let keepingFinished: Bool
    /// Renders finished scenarios into the report (their JUnit element, the HTML report's data) in finishing order,
    /// off the scenario's task: a job starts its next scenario meanwhile instead of rendering first (9 % of the
    /// samples of `make bench`'s runner bench, on that task before).
    private let rendering = DispatchQueue(label: "pushcheck.run-recorder")

    /// Records into `report` and `console` (either may be nil, e.g. in tests). `keepingFinished`: keep every finished
    /// case for `finishedCases()` (a run's own recorder does not: its report and console hold what they need, and a
    /// case kept for each scenario grew a run's memory with its length).
    package init(report: IncrementalReport?, console: ConsoleReporter?, keepingFinished: Bool = true) {
        self.report = report
        self.console = console
        self.keepingFinished = keepingFinished
    }

    /// A scenario started.
    package func started(_ item: RunItem) {
        console?.caseStarted(suite: item.classname, name: item.name)
        report?.caseStarted(suite: item.classname, name: item.name)
    }

    /// A scenario finished (or was skipped without starting).
    package func finished(_ testCase: TestCaseReport) {
        if keepingFinished { cases.withLock { $0.append(report == nil ? testCase : testCase.summary) } }
        guard let report else {
            console?.caseFinished(testCase)
            return
        }
        // The console shows a result once the report on disk holds it (see IncrementalReport.caseFinished), from the
        // case's summary (all it prints): the full case, transcripts and trace, is let go of once it is rendered,
        // not held until the next write of the report (up to a second, and hundreds of cases, in a long run).
        let console = self.console
        let summary = testCase.summary
        rendering.async { report.caseFinished(testCase) { console?.caseFinished(summary) } }
    }

    /// Every finished scenario, in finishing order, once all of them are in the report.
    func finishedCases() async -> [TestCaseReport] {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in rendering.async { done.resume() } }
        return cases.withLock { $0 }
    }
}
