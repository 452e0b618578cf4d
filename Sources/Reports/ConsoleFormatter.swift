/// How the console output looks: colours and a live progress line (TTY) or neither (CI, pipes, logs).
package struct ConsoleMode: Sendable, Equatable {
    /// Use ANSI colours.
    package var colors: Bool
    /// Keep a redrawn progress line at the bottom (needs a terminal that understands `\r` + erase-line).
    var liveProgress: Bool
    /// Terminal width in columns, used to truncate the progress line.
    package var width: Int

    /// Creates a mode.
    package init(colors: Bool, liveProgress: Bool, width: Int = 80) {
        self.colors = colors
        self.liveProgress = liveProgress
        self.width = width
    }

    /// No ANSI at all: one line per scenario, then details and the summary.
    package static let plain = ConsoleMode(colors: false, liveProgress: false)

    /// Chooses the mode. Plain (no ANSI at all) unless the output is a terminal and `CI` is unset or empty
    /// and `TERM` is not `dumb`. On a terminal, `NO_COLOR` (non-empty, see no-color.org) turns colours off
    /// but keeps the live progress line.
    static func detect(isTerminal: Bool, environment: [String: String], width: Int? = nil) -> ConsoleMode {
        let ci = !(environment["CI"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        guard isTerminal, !ci, !dumb else { return .plain }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let columns = width ?? Int(environment["COLUMNS"] ?? "") ?? 80
        return ConsoleMode(colors: !noColor, liveProgress: true, width: max(columns, 20))
    }
}

/// Pure formatting of console output; `ConsoleReporter` does the writing.
///
/// Result symbols: `✓` passed, `✗` failed (assertion), `!` error (harness/runtime), `-` skipped.
/// The closing line is exactly `N passed, N failed, N skipped`, where *failed* counts failures and
/// errors. Retries: each scenario counts once, by its final attempt; a scenario that passed after
/// failed attempts counts as passed and is also listed in a `N flaky …` line before the summary.
package enum ConsoleFormatter {
    /// ANSI styles used in colour mode.
    enum Style: String {
        case green = "\u{1B}[32m"
        case red = "\u{1B}[31m"
        case yellow = "\u{1B}[33m"
        case dim = "\u{1B}[2m"
        case bold = "\u{1B}[1m"
    }

    /// The symbol for an outcome.
    static func symbol(for outcome: CaseOutcome) -> String {
        switch outcome {
        case .passed: return "✓"
        case .failure: return "✗"
        case .error: return "!"
        case .skipped: return "-"
        }
    }

    /// `✓ Suites/a.yaml › scenario (0.123s)`, with a retry note when there were earlier attempts
    /// and the skip reason for skipped scenarios.
    static func resultLine(_ testCase: TestCaseReport, mode: ConsoleMode) -> String {
        let style: Style
        switch testCase.outcome {
        case .passed: style = .green
        case .failure: style = .red
        case .error: style = .yellow
        case .skipped: style = .dim
        }
        var notes = [JUnitXMLWriter.formatSeconds(testCase.time) + "s"]
        let attempts = testCase.retries.count + 1
        if attempts > 1 {
            if case .passed = testCase.outcome {
                notes.append("flaky: passed on attempt \(attempts)")
            } else {
                notes.append("failed all \(attempts) attempts")
            }
        }
        if case let .skipped(message) = testCase.outcome, !message.isEmpty { notes.append(clean(message)) }
        let title = clean(testCase.classname) + " › " + clean(testCase.name)
        return paint(symbol(for: testCase.outcome), style, mode) + " " + title + " "
            + paint("(" + notes.joined(separator: ", ") + ")", .dim, mode)
    }

    /// The live progress line (TTY only): `[3/10] 1 failed · running Suites/a.yaml › name`, cut to the width.
    static func progressLine(
        finished: Int, total: Int, totals: ReportTotals, running: [String], mode: ConsoleMode
    ) -> String {
        var text = "[\(finished)/\(total)]"
        let failed = totals.failures + totals.errors
        if failed > 0 { text += " \(failed) failed" }
        if let current = running.first {
            text += " · running " + current
            if running.count > 1 { text += " (+\(running.count - 1))" }
        }
        text = truncate(clean(text), to: mode.width - 1)
        return failed > 0 ? paint(text, .red, mode) : paint(text, .dim, mode)
    }

    /// The block after the list: one numbered entry per failed or errored scenario with its location,
    /// message and the caller's detail (expected vs actual, caret snippet) indented. Empty when all passed.
    static func failureDetails(_ cases: [TestCaseReport], mode: ConsoleMode) -> String {
        var out = ""
        var number = 0
        for testCase in cases {
            let problem: ProblemReport
            let style: Style
            switch testCase.outcome {
            case let .failure(p): (problem, style) = (p, .red)
            case let .error(p): (problem, style) = (p, .yellow)
            case .passed, .skipped: continue
            }
            number += 1
            if number == 1 { out += "\n" + paint("Failures:", .bold, mode) + "\n" }
            out +=
                "\n\(number)) "
                + paint(
                    symbol(for: testCase.outcome) + " " + clean(testCase.classname)
                        + " › " + clean(testCase.name), style, mode) + "\n"
            if let file = testCase.file {
                out += "   at " + clean(file) + (testCase.line.map { ":\($0)" } ?? "") + "\n"
            }
            out += "   " + clean(problem.type) + ": " + clean(problem.message) + "\n"
            if !problem.detail.isEmpty { out += indent(clean(problem.detail), by: "   ") }
            if !testCase.retries.isEmpty {
                out +=
                    "   (\(testCase.retries.count + 1) attempts; earlier: "
                    + testCase.retries.map { clean($0.problem.message) }.joined(separator: "; ") + ")\n"
            }
        }
        return out
    }

    /// `N flaky (passed after retries): a › b, c › d` or nil when nothing was flaky.
    static func flakyLine(_ cases: [TestCaseReport], mode: ConsoleMode) -> String? {
        let flaky = cases.filter(\.isFlaky)
        guard !flaky.isEmpty else { return nil }
        let names = flaky.map { clean($0.classname) + " › " + clean($0.name) }
        return paint("\(flaky.count) flaky (passed after retries): ", .yellow, mode) + names.joined(separator: ", ")
    }

    /// Exactly `N passed, N failed, N skipped` (failed = failures + errors); no colour, so scripts can grep it.
    package static func summaryLine(_ totals: ReportTotals) -> String {
        "\(totals.passed) passed, \(totals.failures + totals.errors) failed, \(totals.skipped) skipped"
    }

    /// Erase the current terminal line and return the cursor to column 0.
    static let eraseLine = "\r\u{1B}[2K"

    static func paint(_ text: String, _ style: Style, _ mode: ConsoleMode) -> String {
        mode.colors ? style.rawValue + text + "\u{1B}[0m" : text
    }

    /// Caller text without ANSI or control characters (so plain mode really has no escapes and
    /// nothing the caller passes can move the cursor); tabs and newlines stay.
    static func clean(_ text: String) -> String {
        XMLText.sanitize(text)
    }

    static func indent(_ text: String, by prefix: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.isEmpty ? "\n" : prefix + $0 + "\n" }.joined()
    }

    static func truncate(_ text: String, to width: Int) -> String {
        guard text.count > width, width > 1 else { return text }
        return String(text.prefix(width - 1)) + "…"
    }
}
