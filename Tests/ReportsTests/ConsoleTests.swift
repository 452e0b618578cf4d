import Foundation
import Synchronization
import Testing
@testable import Reports

/// Collects everything a reporter writes.
final class CapturedOutput: Sendable {
    private let text = Mutex("")
    var value: String { text.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { chunk in self.text.withLock { $0 += chunk } } }
}

@Suite struct ConsoleTests {
    static let tty = ConsoleMode(colors: true, liveProgress: true, width: 60)

    @Test func modeDetection() {
        #expect(ConsoleMode.detect(isTerminal: false, environment: [:]) == .plain)
        #expect(ConsoleMode.detect(isTerminal: true, environment: ["CI": "true"]) == .plain)
        #expect(ConsoleMode.detect(isTerminal: true, environment: ["TERM": "dumb"]) == .plain)
        #expect(
            ConsoleMode.detect(isTerminal: true, environment: [:], width: 120)
                == ConsoleMode(colors: true, liveProgress: true, width: 120))
        #expect(ConsoleMode.detect(isTerminal: true, environment: ["CI": ""], width: 100).colors)
        #expect(
            ConsoleMode.detect(isTerminal: true, environment: ["NO_COLOR": "1"], width: 100)
                == ConsoleMode(colors: false, liveProgress: true, width: 100))
        #expect(ConsoleMode.detect(isTerminal: true, environment: ["NO_COLOR": ""], width: 100).colors)
        #expect(ConsoleMode.detect(isTerminal: true, environment: ["COLUMNS": "132"]).width == 132)
    }

    /// The whole plain-mode transcript of a run, against a golden file; it must hold no escape at all.
    @Test func plainModeTranscript() throws {
        let output = CapturedOutput()
        let cases = Fixtures.mixed().allCases + Fixtures.retried().allCases
        let reporter = ConsoleReporter(total: cases.count, mode: .plain, sink: output.sink)
        for testCase in cases {
            reporter.caseStarted(suite: testCase.classname, name: testCase.name)
            reporter.caseFinished(testCase)
        }
        let totals = reporter.finish()
        #expect(totals.tests == 6)
        try Support.expectGolden(output.value, "console-plain.txt")
        #expect(!output.value.contains("\u{1B}"))
        #expect(!output.value.contains("\r"))
        #expect(output.value.hasSuffix("\n2 passed, 3 failed, 1 skipped\n"))
    }

    @Test func resultLinesForEveryOutcome() {
        let mixed = Fixtures.mixed().allCases
        #expect(
            ConsoleFormatter.resultLine(mixed[0], mode: .plain)
                == "✓ Suites/checkout.yaml › order confirmation opens the order (0.400s)")
        #expect(
            ConsoleFormatter.resultLine(mixed[1], mode: .plain)
                == "✗ Suites/checkout.yaml › tap on alert routes to order (1.235s)")
        #expect(
            ConsoleFormatter.resultLine(mixed[2], mode: .plain)
                == "- Suites/checkout.yaml › refund <silent> push & badge (0.000s, tag 'refunds' excluded)")
        #expect(
            ConsoleFormatter.resultLine(mixed[3], mode: .plain)
                == "! Suites/routing.yaml › deep link \"settings\" (5.000s)")
        let retried = Fixtures.retried().allCases
        #expect(
            ConsoleFormatter.resultLine(retried[0], mode: .plain)
                == "✓ Suites/checkout.yaml › badge count updates (0.300s, flaky: passed on attempt 3)")
        #expect(
            ConsoleFormatter.resultLine(retried[1], mode: .plain)
                == "✗ Suites/checkout.yaml › silent push wakes the app (0.900s, failed all 3 attempts)")
        #expect(
            ConsoleFormatter.resultLine(mixed[0], mode: Self.tty)
                == "\u{1B}[32m✓\u{1B}[0m Suites/checkout.yaml › order confirmation opens the order \u{1B}[2m(0.400s)\u{1B}[0m"
        )
    }

    @Test func callerTextCannotSmuggleEscapesIntoPlainOutput() {
        let sneaky = TestCaseReport(
            classname: "Suites/\u{1B}[31mx.yaml", name: "a\u{1B}[2Jb", time: 0,
            outcome: .failure(
                ProblemReport(message: "\u{1B}[1mbold", type: "assertion", detail: "\u{1B}[32mexpected\u{1B}[0m: 1")))
        let line = ConsoleFormatter.resultLine(sneaky, mode: .plain)
        let details = ConsoleFormatter.failureDetails([sneaky], mode: .plain)
        #expect(line == "✗ Suites/x.yaml › ab (0.000s)")
        #expect(!details.contains("\u{1B}"))
        #expect(details.contains("   expected: 1\n"))
    }

    /// In TTY mode results scroll above one progress line that is erased and redrawn.
    @Test func ttyModeRedrawsOneProgressLine() {
        let output = CapturedOutput()
        let mixed = Fixtures.mixed().allCases
        let reporter = ConsoleReporter(total: 2, mode: Self.tty, sink: output.sink)
        reporter.caseStarted(suite: mixed[0].classname, name: mixed[0].name)
        reporter.caseFinished(mixed[0])
        reporter.caseStarted(suite: mixed[1].classname, name: mixed[1].name)
        reporter.caseFinished(mixed[1])
        reporter.finish()

        let erase = "\r\u{1B}[2K"
        let text = output.value
        // Started: progress line, no newline.
        #expect(text.hasPrefix("\u{1B}[2m[0/2] · running Suites/checkout.yaml › order confirmation …\u{1B}[0m"))
        // Each result erases the progress line first, then redraws it.
        #expect(text.contains(erase + "\u{1B}[32m✓\u{1B}[0m Suites/checkout.yaml › order confirmation"))
        #expect(text.contains("\n\u{1B}[2m[1/2]\u{1B}[0m"))
        #expect(text.contains("\u{1B}[31m[2/2] 1 failed\u{1B}[0m"))
        // The progress line is erased before the details and the summary, which stays uncoloured.
        #expect(text.contains("[2/2] 1 failed\u{1B}[0m" + erase + "\n\u{1B}[1mFailures:\u{1B}[0m\n"))
        #expect(text.hasSuffix("\n1 passed, 1 failed, 0 skipped\n"))
        // No line of the progress display is wider than the terminal.
        for segment in text.components(separatedBy: erase) where segment.contains("running") {
            let visible = segment.replacingOccurrences(of: "\u{1B}[2m", with: "").replacingOccurrences(
                of: "\u{1B}[0m", with: "")
            #expect(visible.count <= 59, "progress line too wide: \(visible)")
        }
    }

    @Test func summaryCountsErrorsAsFailedAndRetriesOnce() {
        var totals = ReportTotals(cases: Fixtures.mixed().allCases + Fixtures.retried().allCases)
        #expect(ConsoleFormatter.summaryLine(totals) == "2 passed, 3 failed, 1 skipped")
        totals = ReportTotals()
        #expect(ConsoleFormatter.summaryLine(totals) == "0 passed, 0 failed, 0 skipped")
        #expect(
            ConsoleFormatter.flakyLine(Fixtures.retried().allCases, mode: .plain)
                == "1 flaky (passed after retries): Suites/checkout.yaml › badge count updates")
        #expect(ConsoleFormatter.flakyLine(Fixtures.mixed().allCases, mode: .plain) == nil)
    }
}
