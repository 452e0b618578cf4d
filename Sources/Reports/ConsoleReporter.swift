import Foundation
import Synchronization

/// Prints scenario results as they finish, then failure details and the summary.
///
/// All text comes from `ConsoleFormatter`; this class only keeps the counters and writes. In live
/// mode the progress line is erased before each result line and redrawn after it, so results scroll
/// above a single status line. Safe to call from several threads (state is behind a `Mutex` and each
/// call writes its text in one piece).
package final class ConsoleReporter: Sendable {
    private struct State {
        /// The finished cases the closing lines name (failed, errored or flaky), as their `summary`; a passing or
        /// skipped case is only counted (a run of 10,000 scenarios kept 10,000 summaries for a handful of failures).
        var named: [TestCaseReport] = []
        var finishedCount = 0
        var totals = ReportTotals()
        var running: [String] = []
        var progressShown = false
    }

    private let total: Int
    private let mode: ConsoleMode
    private let sink: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// A reporter for `total` planned scenarios writing through `sink` (standard output by default).
    package init(
        total: Int, mode: ConsoleMode, sink: @escaping @Sendable (String) -> Void = ConsoleReporter.standardOutput
    ) {
        self.total = total
        self.mode = mode
        self.sink = sink
    }

    /// Notes that a scenario started (shown on the progress line in live mode).
    package func caseStarted(suite: String, name: String) {
        guard mode.liveProgress else { return }
        let text = state.withLock { state -> String in
            state.running.append(suite + " › " + name)
            return redrawProgress(&state)
        }
        sink(text)
    }

    /// Prints the result line of a finished scenario.
    package func caseFinished(_ testCase: TestCaseReport) {
        let text = state.withLock { state -> String in
            state.finishedCount += 1
            switch testCase.outcome {
            case .failure, .error: state.named.append(testCase.summary)
            case .passed where testCase.isFlaky: state.named.append(testCase.summary)
            case .passed, .skipped: break
            }
            state.totals.add(testCase)
            if let index = state.running.firstIndex(of: testCase.classname + " › " + testCase.name) {
                state.running.remove(at: index)
            }
            var out = state.progressShown ? ConsoleFormatter.eraseLine : ""
            state.progressShown = false
            out += ConsoleFormatter.resultLine(testCase, mode: mode) + "\n"
            if mode.liveProgress { out += redrawProgress(&state) }
            return out
        }
        sink(text)
    }

    /// Prints the failure details, the flaky line and the closing `N passed, N failed, N skipped`;
    /// returns the totals (for the exit code).
    @discardableResult
    package func finish() -> ReportTotals {
        let (text, totals) = state.withLock { state -> (String, ReportTotals) in
            var out = state.progressShown ? ConsoleFormatter.eraseLine : ""
            state.progressShown = false
            out += ConsoleFormatter.failureDetails(state.named, mode: mode)
            out += "\n"
            if let flaky = ConsoleFormatter.flakyLine(state.named, mode: mode) { out += flaky + "\n" }
            out += ConsoleFormatter.summaryLine(state.totals) + "\n"
            return (out, state.totals)
        }
        sink(text)
        return totals
    }

    private func redrawProgress(_ state: inout State) -> String {
        let prefix = state.progressShown ? ConsoleFormatter.eraseLine : ""
        state.progressShown = true
        return prefix
            + ConsoleFormatter.progressLine(
                finished: state.finishedCount, total: total, totals: state.totals, running: state.running, mode: mode)
    }

    /// Writes to standard output unbuffered (one `write(2)` loop per call).
    package static let standardOutput: @Sendable (String) -> Void = { text in
        var text = text
        _ = text.withUTF8 { FileWrite.all(UnsafeRawBufferPointer($0), to: STDOUT_FILENO) }
    }

    /// The mode for standard output in this process: terminal check, `CI`, `NO_COLOR`, `TERM`, width.
    package static func detectStandardOutputMode(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ConsoleMode
    {
        var size = winsize()
        let width: Int? = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return ConsoleMode.detect(isTerminal: isatty(STDOUT_FILENO) != 0, environment: environment, width: width)
    }
}
