import Foundation
import Reports
import Synchronization

/// Where finished scenarios go: the incremental JUnit file (rewritten atomically, so Ctrl-C or a crash
/// leaves every finished scenario on disk) and the console, plus an in-memory list for the summary.
/// A report that cannot be written is remembered (the run ends with exit code 3), not fatal mid-run.
public final class RunRecorder: Sendable {
    private struct State {
        var finished: [TestCaseReport] = []
        var writeError: ReportsError?
    }

    private let report: IncrementalReport?
    private let console: ConsoleReporter?
    private let state = Mutex(State())

    /// Records into `report` and `console` (either may be nil, e.g. in tests).
    public init(report: IncrementalReport?, console: ConsoleReporter?) {
        self.report = report
        self.console = console
    }

    /// A scenario started.
    public func started(_ item: RunItem) {
        console?.caseStarted(suite: item.classname, name: item.name)
        guard let report else { return }
        do { try report.caseStarted(suite: item.classname, name: item.name) } catch { remember(error) }
    }

    /// A scenario finished (or was skipped without starting).
    public func finished(_ testCase: TestCaseReport) {
        state.withLock { $0.finished.append(testCase) }
        console?.caseFinished(testCase)
        guard let report else { return }
        do { try report.caseFinished(testCase) } catch { remember(error) }
    }

    /// Every finished scenario, in finishing order.
    public var finishedCases: [TestCaseReport] { state.withLock { $0.finished } }

    /// The first report write failure, if any.
    public var writeError: ReportsError? { state.withLock { $0.writeError } }

    private func remember(_ error: ReportsError) {
        state.withLock { if $0.writeError == nil { $0.writeError = error } }
    }
}
