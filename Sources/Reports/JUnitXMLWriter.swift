import Foundation
import PushModel

/// Renders a `TestReport` as JUnit XML (flat `testsuites > testsuite > testcase`).
///
/// The output validates against the windyroad strict Ant schema relaxed only where documented in
/// `Tests/ReportsTests/Schema/junit-pushcheck.xsd`. Rendering is pure; `write(_:to:)` is the only I/O.
///
/// Choices:
/// - Totals on `testsuites` and `testsuite` are computed from the cases at render time.
/// - `time` is seconds with exactly three decimals, computed without locale or exponent.
/// - `timestamp` is UTC `YYYY-MM-DDTHH:MM:SS` without a zone, as the strict schema demands.
/// - `package=""` on every suite (the schema requires it; empty keeps Jenkins from prefixing the name)
///   and `id` counts from 0.
/// - Run-wide properties are written first in every suite's `<properties>`, then the suite's own,
///   with exact duplicates dropped.
/// - A case's earlier attempts follow its outcome element: `flakyFailure`/`flakyError` when it finally
///   passed, `rerunFailure`/`rerunError` when it finally failed or errored (Surefire's convention).
package enum JUnitXMLWriter {
    /// The XML document for `report`.
    package static func render(_ report: TestReport) -> String {
        var out = ""
        document(report, into: &out) { _, _, _ in false }
        return out
    }

    /// The XML document for `rendered.report`, with the cases already rendered copied as they are (read back from the
    /// run's spool: a failed read is a failed write of `path`).
    static func render(_ rendered: RenderedReport, path: String = "") throws(ReportsError) -> String {
        var out = ""
        try document(rendered, path: path, into: &out)
        return out
    }

    /// Renders `report` and writes it atomically to `url` (temporary file in the same directory, then rename).
    package static func write(_ report: TestReport, to url: URL) throws(ReportsError) {
        try AtomicFile.write(to: url) { (writer: inout AtomicFile.Writer) in
            document(report, into: &writer) { _, _, _ in false }
        }
    }

    /// `write` of `rendered.report`, with the cases already rendered copied as they are. The document goes to the file
    /// as it is made: a run of thousands of scenarios never holds its whole report in memory.
    static func write(_ rendered: RenderedReport, to url: URL) throws(ReportsError) {
        try AtomicFile.write(to: url) { (writer: inout AtomicFile.Writer) throws(ReportsError) in
            try document(rendered, path: url.path, into: &writer)
        }
    }

    private static func document<Output: ReportOutput>(
        _ rendered: RenderedReport, path: String, into out: inout Output
    ) throws(ReportsError) {
        try document(rendered.report, into: &out) { (suite, index, out: inout Output) throws(ReportsError) -> Bool in
            guard let done = rendered.rendered(suite: suite, case: index) else { return false }
            out.append(bytes: try done.junit.bytes(writing: path))
            return true
        }
    }

    /// The document, piece by piece; `renderedCase(suite, index, &out)` appends a case made earlier and says whether
    /// there was one (the others are rendered here).
    private static func document<Output: ReportOutput, Failure: Error>(
        _ report: TestReport, into out: inout Output,
        renderedCase: (_ suite: Int, _ index: Int, _ out: inout Output) throws(Failure) -> Bool
    ) throws(Failure) {
        var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let totals = report.totals
        head +=
            "<testsuites"
            + attributes([
                ("name", report.name.isEmpty ? "pushcheck" : report.name),
                ("tests", String(totals.tests)),
                ("failures", String(totals.failures)),
                ("errors", String(totals.errors)),
                ("skipped", String(totals.skipped)),
                ("time", formatSeconds(totals.time)),
            ])
        if report.suites.isEmpty && report.properties.isEmpty {
            out.append(head + "/>\n")
            return
        }
        out.append(head + ">\n")
        if report.suites.isEmpty {
            // An empty shard: a suite `pushcheck` without cases carries the run's properties (`shard i/N` for merge-reports;
            // the schema has no properties on <testsuites>).
            let carrier = TestSuiteReport(name: "pushcheck", timestamp: report.timestamp, hostname: report.hostname)
            try renderSuite(carrier, id: 0, runProperties: report.properties, into: &out, renderedCase: renderedCase)
            out.append("</testsuites>\n")
            return
        }
        for (id, suite) in report.suites.enumerated() {
            try renderSuite(suite, id: id, runProperties: report.properties, into: &out, renderedCase: renderedCase)
        }
        out.append("</testsuites>\n")
    }

    /// Seconds as `%.3f` in the POSIX locale, never in exponent notation; negative and non-finite become 0.
    static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0.000" }
        let millis = (seconds * 1000).rounded()
        guard millis < 9.0e15 else { return "9000000000000.000" }
        let whole = Int64(millis)
        let fraction = String(whole % 1000)
        return "\(whole / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC, without a zone designator.
    static func formatTimestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(paddedYear)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    private static func renderSuite<Output: ReportOutput, Failure: Error>(
        _ suite: TestSuiteReport, id: Int, runProperties: [ReportProperty], into output: inout Output,
        renderedCase: (_ suite: Int, _ index: Int, _ out: inout Output) throws(Failure) -> Bool
    ) throws(Failure) {
        let totals = suite.totals
        var attrs: [(String, String)] = [
            ("name", nonBlank(suite.name, or: "unnamed")),
            ("package", ""),
            ("id", String(id)),
            ("tests", String(totals.tests)),
            ("failures", String(totals.failures)),
            ("errors", String(totals.errors)),
            ("skipped", String(totals.skipped)),
            ("time", formatSeconds(totals.time)),
            ("timestamp", formatTimestamp(suite.timestamp)),
            ("hostname", nonBlank(suite.hostname, or: "localhost")),
        ]
        if let file = suite.file { attrs.append(("file", file)) }
        var out = "  <testsuite" + attributes(attrs) + ">\n"

        var seen = Set<ReportProperty>()
        let properties = (runProperties + suite.properties).filter { seen.insert($0).inserted }
        if properties.isEmpty {
            out += "    <properties/>\n"
        } else {
            out += "    <properties>\n"
            for property in properties {
                out +=
                    "      <property"
                    + attributes([
                        ("name", nonBlank(property.name, or: "unnamed")),
                        ("value", property.value),
                    ]) + "/>\n"
            }
            out += "    </properties>\n"
        }
        output.append(out)
        for (index, testCase) in suite.cases.enumerated() {
            if try !renderedCase(id, index, &output) { output.append(renderCase(testCase)) }
        }
        output.append(
            "    " + element("system-out", text: suite.systemOut) + "    "
                + element("system-err", text: suite.systemErr)
                + "  </testsuite>\n")
    }

    /// The `<testcase>` element of `testCase`.
    static func renderCase(_ testCase: TestCaseReport) -> String {
        var out = ""
        out.reserveCapacity(testCase.systemOut.utf8.count + testCase.systemErr.utf8.count + 512)
        renderCase(testCase, into: &out)
        return out
    }

    /// Appends each piece to `out` as it goes (the transcript, most of a case, used to be copied into four strings
    /// on its way: the escaped text, the element, the indented line, the body).
    private static func renderCase(_ testCase: TestCaseReport, into out: inout String) {
        var attrs: [(String, String)] = [
            ("name", nonBlank(testCase.name, or: "unnamed")),
            ("classname", nonBlank(testCase.classname, or: "unnamed")),
            ("time", formatSeconds(testCase.time)),
        ]
        if let file = testCase.file { attrs.append(("file", file)) }
        if let line = testCase.line, line > 0 { attrs.append(("line", String(line))) }

        var passed = false
        if case .passed = testCase.outcome { passed = true }
        out += "    <testcase" + attributes(attrs)
        guard !passed || !testCase.retries.isEmpty || !testCase.systemOut.isEmpty || !testCase.systemErr.isEmpty
        else {
            out += "/>\n"
            return
        }
        out += ">\n"
        switch testCase.outcome {
        case .passed:
            break
        case let .failure(problem):
            out += "      " + problemElement("failure", problem)
        case let .error(problem):
            out += "      " + problemElement("error", problem)
        case let .skipped(message):
            out += "      <skipped" + attributes([("message", message)]) + "/>\n"
        }
        for attempt in testCase.retries {
            out += retryElement(attempt, finallyPassed: passed)
        }
        if !testCase.systemOut.isEmpty {
            out += "      "
            element("system-out", text: testCase.systemOut, into: &out)
        }
        if !testCase.systemErr.isEmpty {
            out += "      "
            element("system-err", text: testCase.systemErr, into: &out)
        }
        out += "    </testcase>\n"
    }

    private static func problemElement(_ name: String, _ problem: ProblemReport) -> String {
        let open = "<\(name)" + attributes([("message", problem.message), ("type", nonBlank(problem.type, or: name))])
        if problem.detail.isEmpty { return open + "/>\n" }
        return open + ">" + XMLText.escapeText(problem.detail) + "</\(name)>\n"
    }

    private static func retryElement(_ attempt: RetryAttempt, finallyPassed: Bool) -> String {
        let name: String
        switch (attempt.kind, finallyPassed) {
        case (.failure, true): name = "flakyFailure"
        case (.error, true): name = "flakyError"
        case (.failure, false): name = "rerunFailure"
        case (.error, false): name = "rerunError"
        }
        let problem = attempt.problem
        var out =
            "      <\(name)"
            + attributes([
                ("message", problem.message),
                ("type", nonBlank(problem.type, or: "failure")),
            ]) + ">\n"
        out += "        " + element("stackTrace", text: problem.detail)
        if !attempt.systemOut.isEmpty { out += "        " + element("system-out", text: attempt.systemOut) }
        if !attempt.systemErr.isEmpty { out += "        " + element("system-err", text: attempt.systemErr) }
        return out + "      </\(name)>\n"
    }

    private static func element(_ name: String, text: String) -> String {
        var out = ""
        element(name, text: text, into: &out)
        return out
    }

    private static func element(_ name: String, text: String, into out: inout String) {
        if text.isEmpty {
            out += "<\(name)/>\n"
            return
        }
        out += "<\(name)>"
        out += XMLText.escapeText(text)
        out += "</\(name)>\n"
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(XMLText.escapeAttribute($0.1))\"" }.joined()
    }

    /// The schema types these attributes as non-empty tokens; whitespace-only collapses to empty.
    private static func nonBlank(_ value: String, or fallback: String) -> String {
        XMLText.sanitize(value).unicodeScalars.allSatisfy(\.isFoundationWhitespaceOrNewline) ? fallback : value
    }
}
