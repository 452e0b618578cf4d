import Foundation
import PushModel

/// The HTML report's data: one run as versioned JSON, embedded in the page and read back by `merge-reports`.
///
/// Schema (`format` = `"pushcheck-report"`, `version` = 1; a reader refuses another major version and ignores
/// fields it does not know, so fields may be added without a new version):
/// ```
/// { "format": "pushcheck-report", "version": 1, "generator": "pushcheck 0.9",
///   "name": "pushcheck", "timestamp": "2026-01-01T00:00:00Z", "hostname": "ci-7",
///   "wall_seconds": 12.5,             // the run's wall time (merged: the longest shard); absent when unknown
///   "seed": "1", "shard": "1/3",      // copies of the properties of those names, for display
///   "properties": [{"name": "seed", "value": "1"}, …],
///   "totals": {"tests": 3, "passed": 1, "failures": 1, "errors": 0, "skipped": 1, "flaky": 0, "time": 4.2},
///   "suites": [{ "name": "Suites/a.yaml", "file": "Suites/a.yaml", "timestamp": "…", "hostname": "ci-7",
///     "properties": […],
///     "system_out": "", "system_err": "",
///     "cases": [{ "id": "Suites/a.yaml::opens the order",   // the URL fragment is #<id>, percent-encoded
///       "name": "opens the order", "classname": "Suites/a.yaml", "file": "Suites/a.yaml", "line": 12,
///       "time": 0.31, "tags": ["smoke"],
///       "outcome": "passed" | "failed" | "error" | "skipped", "flaky": false,
///       "problem": {"message": …, "type": "assertion" | "timeout" | …, "detail": …},   // failed, error
///       "skipped": "reason",                                                           // skipped
///       "failures": [{"message", "expected", "actual", "file", "line", "column", "events",
///                     "hop": "apns" | …, "trace_index": 3, "diff": "- a: 1\n+ a: 2"}],     // failed checks
///       "retries": [{"kind": "failure" | "error", "problem": {…}, "transcript": "…", "stderr": "…"}],
///       "transcript": "…", "stderr": "…",
///       "trace": [TraceEvent…] }] }] }
/// ```
/// A trace event: `kind` (`request`, `response`, `delivery`, `dropped`, `callback`, `extension`, `presented`,
/// `action`, `navigation`, `page`, `note`), `from`/`to` (a `TraceHop` raw value), `label`, and optionally
/// `device`, `at_ms`, `duration_ms`, `status`, `reason`, `headers` [{name, value}], `body`, `jwt` {header, claims}
/// (decoded, never the signature), `dropped`, `notification`, `navigation`, `page`, `step_line`, `notes`.
/// The same document is printed by `ReportData.encode`; `Tests/ReportsTests/ReportDataTests.swift` checks the
/// round trip.
package enum ReportData {
    /// The `format` field.
    package static let format = "pushcheck-report"
    /// The major version this code writes and reads.
    package static let version = 1

    /// Run-wide facts the HTML report shows that a `TestReport` does not hold.
    package struct RunFacts: Sendable, Equatable {
        /// The run's wall time in seconds (scenarios run in parallel, so this is not the sum of their times).
        package var wallSeconds: Double?
        /// `pushcheck <version>`.
        package var generator: String

        package init(wallSeconds: Double? = nil, generator: String = "pushcheck") {
            self.wallSeconds = wallSeconds
            self.generator = generator
        }
    }

    /// The document for `report`.
    package static func encode(_ report: TestReport, facts: RunFacts = RunFacts()) -> JSONValue {
        var o = members(report, facts: facts)
        o["suites"] = .array(report.suites.map(suiteJSON))
        return .object(o)
    }

    /// A byte serialized JSON never holds (control characters are escaped): `headAndTail` puts it where a member's
    /// value goes.
    static let placeholder: UInt8 = 0

    /// The document for `report` with `placeholder` for the value of `suites` (what `ReportDataStream` writes
    /// around the suites).
    static func headAndTail(_ report: TestReport, facts: RunFacts) -> [UInt8] {
        var out: [UInt8] = []
        object(members(report, facts: facts), adding: "suites", into: &out)
        return out
    }

    /// A suite's object with `placeholder` for the value of `cases`.
    static func suiteHeadAndTail(_ suite: TestSuiteReport) -> [UInt8] {
        var out: [UInt8] = []
        object(suiteMembers(suite), adding: "cases", into: &out)
        return out
    }

    /// An object written with `placeholder` for one member: the bytes before and after it.
    static func split(_ bytes: [UInt8]) -> (head: [UInt8], tail: [UInt8]) {
        guard let at = bytes.firstIndex(of: placeholder) else { return (bytes, []) }
        return (Array(bytes[..<at]), Array(bytes[(at + 1)...]))
    }

    /// `encode(report, facts:)` serialized, for the report of a run (`IncrementalReport`) whose finished cases are in
    /// `rendered.report` as summaries: their objects are the ones made when they finished, read back from the spool
    /// (a failed read, or a case rendered without its data, is a failed write of `path`).
    static func encodeBytes(_ rendered: RenderedReport, facts: RunFacts, path: String) throws(ReportsError) -> [UInt8] {
        let report = rendered.report
        let (head, tail) = split(headAndTail(report, facts: facts))
        var out = head
        out.append(UInt8(ascii: "["))
        for (s, suite) in report.suites.enumerated() {
            if s > 0 { out.append(UInt8(ascii: ",")) }
            let (suiteHead, suiteTail) = split(suiteHeadAndTail(suite))
            out += suiteHead
            out.append(UInt8(ascii: "["))
            for (c, testCase) in suite.cases.enumerated() {
                if c > 0 { out.append(UInt8(ascii: ",")) }
                guard let done = rendered.rendered(suite: s, case: c) else {
                    out += caseBytes(testCase)
                    continue
                }
                guard let data = done.data else {
                    throw .writeFailed(
                        path: path,
                        reason: "the run kept no report data for '\(testCase.name)' (its report was started without "
                            + "an HTML generator)")
                }
                out += try data.bytes(writing: path)
            }
            out.append(UInt8(ascii: "]"))
            out += suiteTail
        }
        out.append(UInt8(ascii: "]"))
        out += tail
        return out
    }

    /// `.object(o + [key: placeholder])` serialized, with the object writer `serialized()` uses (same order).
    private static func object(_ o: [String: JSONValue], adding key: String, into out: inout [UInt8]) {
        let members = Array(o)
        JSONValue.writeObject(keys: members.map(\.key) + [key], into: &out) { i, out in
            if i == members.count { out.append(placeholder) } else { members[i].value.write(into: &out) }
        }
    }

    /// The document's members but `suites`.
    private static func members(_ report: TestReport, facts: RunFacts) -> [String: JSONValue] {
        let totals = report.totals
        var o: [String: JSONValue] = [
            "format": .string(format), "version": .number(Double(version)), "generator": .string(facts.generator),
            "name": .string(report.name), "timestamp": .string(isoTime(report.timestamp)),
            "hostname": .string(report.hostname), "properties": properties(report.properties),
            "totals": [
                "tests": .number(Double(totals.tests)), "passed": .number(Double(totals.passed)),
                "failures": .number(Double(totals.failures)), "errors": .number(Double(totals.errors)),
                "skipped": .number(Double(totals.skipped)), "flaky": .number(Double(totals.flaky)),
                "time": .number(totals.time),
            ],
        ]
        o["wall_seconds"] = facts.wallSeconds.map(JSONValue.number)
        // One shard's run has one seed and one shard; a merged report has each shard's (distinct values only):
        // `seeds` and `shards` then say all of them, where the first alone would misstate the run.
        let seeds = distinctValues(report.properties, named: "seed")
        let shards = distinctValues(report.properties, named: "shard")
        if seeds.count == 1 {
            o["seed"] = .string(seeds[0])
        } else if seeds.count > 1 {
            o["seeds"] = .array(seeds.map(JSONValue.string))
        }
        if shards.count == 1 {
            o["shard"] = .string(shards[0])
        } else if shards.count > 1 {
            o["shards"] = .string(shardsSummary(shards))
        }
        return o
    }

    private static func distinctValues(_ properties: [ReportProperty], named name: String) -> [String] {
        var seen = Set<String>()
        return properties.filter { $0.name == name && seen.insert($0.value).inserted }.map(\.value)
    }

    /// `["1/3", "2/3", "3/3"]` → `1–3 of 3`; `["1/4", "3/4"]` → `1, 3 of 4`; anything else is listed as given.
    static func shardsSummary(_ shards: [String]) -> String {
        let parsed = shards.compactMap { text -> (Int, Int)? in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
            return (i, n)
        }
        guard parsed.count == shards.count, let total = parsed.first?.1, parsed.allSatisfy({ $0.1 == total }) else {
            return shards.joined(separator: ", ")
        }
        let indices = Set(parsed.map(\.0)).sorted()
        if indices.count > 2, indices.last! - indices.first! == indices.count - 1 {
            return "\(indices.first!)–\(indices.last!) of \(total)"
        }
        return indices.map(String.init).joined(separator: ", ") + " of \(total)"
    }

    /// `suite::name`: the case's id in the data and its URL fragment.
    static func caseID(_ testCase: TestCaseReport) -> String { testCase.classname + "::" + testCase.name }

    static func suiteJSON(_ suite: TestSuiteReport) -> JSONValue {
        var o = suiteMembers(suite)
        o["cases"] = .array(suite.cases.map(caseJSON))
        return .object(o)
    }

    /// A suite's members but `cases`.
    private static func suiteMembers(_ suite: TestSuiteReport) -> [String: JSONValue] {
        var o: [String: JSONValue] = [
            "name": .string(suite.name), "timestamp": .string(isoTime(suite.timestamp)),
            "hostname": .string(suite.hostname), "properties": properties(suite.properties),
            "system_out": .string(suite.systemOut), "system_err": .string(suite.systemErr),
        ]
        o["file"] = suite.file.map(JSONValue.string)
        o["title"] = suite.title.map(JSONValue.string)
        return o
    }

    static func caseJSON(_ c: TestCaseReport) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(caseID(c)), "name": .string(c.name), "classname": .string(c.classname),
            "time": .number(c.time), "tags": .array(c.tags.map(JSONValue.string)), "flaky": .bool(c.isFlaky),
            "transcript": .string(c.systemOut), "stderr": .string(c.systemErr),
            "failures": .array(c.checks.map(checkJSON)), "retries": .array(c.retries.map(retryJSON)),
            "trace": .array(c.trace.map(\.reportJSON)),
        ]
        o["file"] = c.file.map(JSONValue.string)
        o["line"] = c.line.map { .number(Double($0)) }
        switch c.outcome {
        case .passed: o["outcome"] = "passed"
        case .failure(let p):
            o["outcome"] = "failed"
            o["problem"] = problemJSON(p)
        case .error(let p):
            o["outcome"] = "error"
            o["problem"] = problemJSON(p)
        case .skipped(let message):
            o["outcome"] = "skipped"
            o["skipped"] = .string(message)
        }
        return .object(o)
    }

    static func problemJSON(_ p: ProblemReport) -> JSONValue {
        ["message": .string(p.message), "type": .string(p.type), "detail": .string(p.detail)]
    }

    static func checkJSON(_ f: CheckFailureReport) -> JSONValue {
        var o: [String: JSONValue] = [
            "message": .string(f.message), "expected": .string(f.expected), "actual": .string(f.actual),
            "file": .string(f.file), "line": .number(Double(f.line)), "column": .number(Double(f.column)),
            "events": .string(f.events),
        ]
        o["hop"] = f.hop.map { .string($0.rawValue) }
        o["trace_index"] = f.traceIndex.map { .number(Double($0)) }
        o["diff"] = f.diff.map(JSONValue.string)
        return .object(o)
    }

    static func retryJSON(_ r: RetryAttempt) -> JSONValue {
        [
            "kind": .string(r.kind == .failure ? "failure" : "error"), "problem": problemJSON(r.problem),
            "transcript": .string(r.systemOut), "stderr": .string(r.systemErr),
        ]
    }

    static func properties(_ list: [ReportProperty]) -> JSONValue {
        .array(list.map { ["name": .string($0.name), "value": .string($0.value)] })
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC).
    static func isoTime(_ date: Date) -> String { JUnitXMLWriter.formatTimestamp(date) + "Z" }
}
