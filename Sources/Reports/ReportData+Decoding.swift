import Foundation
import PushModel

extension ReportData {
    /// Reads a report document back (`merge-reports --html`): the run as a `TestReport` and its facts. Totals are
    /// not read (they are recomputed from the cases). `path` names the file in errors.
    package static func decode(_ json: JSONValue, path: String) throws(ReportsError) -> (TestReport, RunFacts) {
        func invalid(_ reason: String) -> ReportsError { .invalidReportData(path: path, line: 0, reason: reason) }
        guard let o = json.objectValue, o["format"]?.stringValue == format else {
            throw invalid("the embedded data is not a \(format) document (no \"format\": \"\(format)\")")
        }
        guard let v = o["version"]?.intValue, v == version else {
            throw invalid(
                "report data version \(o["version"].map { $0.serialized() } ?? "none") is not \(version); "
                    + "merge shards written by the same pushcheck version")
        }
        var suites: [TestSuiteReport] = []
        for (i, s) in (o["suites"]?.arrayValue ?? []).enumerated() {
            guard let decoded = suite(s) else { throw invalid("suites[\(i)] has no name or a case without one") }
            suites.append(decoded)
        }
        let timestamp = o["timestamp"]?.stringValue.flatMap(JUnitXMLReader.parseTimestamp) ?? Date()
        let report = TestReport(
            name: o["name"]?.stringValue ?? "pushcheck", timestamp: timestamp,
            hostname: o["hostname"]?.stringValue ?? "localhost", properties: properties(o["properties"]),
            suites: suites)
        let facts = RunFacts(
            wallSeconds: o["wall_seconds"]?.doubleValue, generator: o["generator"]?.stringValue ?? "pushcheck")
        return (report, facts)
    }

    static func suite(_ json: JSONValue) -> TestSuiteReport? {
        guard let o = json.objectValue, let name = o["name"]?.stringValue else { return nil }
        var cases: [TestCaseReport] = []
        for c in o["cases"]?.arrayValue ?? [] {
            guard let decoded = testCase(c) else { return nil }
            cases.append(decoded)
        }
        return TestSuiteReport(
            name: name, file: o["file"]?.stringValue,
            timestamp: o["timestamp"]?.stringValue.flatMap(JUnitXMLReader.parseTimestamp) ?? Date(),
            hostname: o["hostname"]?.stringValue ?? "localhost", properties: properties(o["properties"]), cases: cases,
            systemOut: o["system_out"]?.stringValue ?? "", systemErr: o["system_err"]?.stringValue ?? "",
            title: o["title"]?.stringValue)
    }

    static func testCase(_ json: JSONValue) -> TestCaseReport? {
        guard let o = json.objectValue, let name = o["name"]?.stringValue,
            let classname = o["classname"]?.stringValue
        else { return nil }
        let outcome: CaseOutcome
        switch o["outcome"]?.stringValue {
        case "passed": outcome = .passed
        case "failed": outcome = .failure(problem(o["problem"]))
        case "error": outcome = .error(problem(o["problem"]))
        case "skipped": outcome = .skipped(message: o["skipped"]?.stringValue ?? "")
        default: return nil
        }
        let retries = (o["retries"]?.arrayValue ?? []).map { r in
            RetryAttempt(
                kind: r["kind"]?.stringValue == "failure" ? .failure : .error, problem: problem(r["problem"]),
                systemOut: r["transcript"]?.stringValue ?? "", systemErr: r["stderr"]?.stringValue ?? "")
        }
        let checks = (o["failures"]?.arrayValue ?? []).map { f in
            CheckFailureReport(
                message: f["message"]?.stringValue ?? "", expected: f["expected"]?.stringValue ?? "",
                actual: f["actual"]?.stringValue ?? "", file: f["file"]?.stringValue ?? "",
                line: f["line"]?.intValue ?? 0, column: f["column"]?.intValue ?? 0,
                events: f["events"]?.stringValue ?? "",
                hop: f["hop"]?.stringValue.flatMap(TraceHop.init(rawValue:)), traceIndex: f["trace_index"]?.intValue,
                diff: f["diff"]?.stringValue)
        }
        return TestCaseReport(
            classname: classname, name: name, file: o["file"]?.stringValue, line: o["line"]?.intValue,
            time: o["time"]?.doubleValue ?? 0, outcome: outcome, retries: retries,
            systemOut: o["transcript"]?.stringValue ?? "", systemErr: o["stderr"]?.stringValue ?? "",
            tags: (o["tags"]?.arrayValue ?? []).compactMap(\.stringValue), checks: checks,
            trace: (o["trace"]?.arrayValue ?? []).compactMap(TraceEvent.init(reportJSON:)))
    }

    static func problem(_ json: JSONValue?) -> ProblemReport {
        ProblemReport(
            message: json?["message"]?.stringValue ?? "", type: json?["type"]?.stringValue ?? "assertion",
            detail: json?["detail"]?.stringValue ?? "")
    }

    static func properties(_ json: JSONValue?) -> [ReportProperty] {
        (json?.arrayValue ?? []).compactMap { p in
            guard let n = p["name"]?.stringValue, !n.isEmpty else { return nil }
            return ReportProperty(n, p["value"]?.stringValue ?? "")
        }
    }
}
