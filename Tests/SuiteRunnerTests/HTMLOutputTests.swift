import Foundation
@testable import PushModel
import PushcheckTestSupport
@testable import Reports
import Testing

@testable import SuiteRunner

/// `run --html` and `merge-reports --html` through the real binary: the page holds what the runner knows (tags,
/// failed checks with their hop, transcripts), and a path that cannot be written is exit 3 like the JUnit file.
@Suite(.serialized) struct HTMLOutputTests {
    @Test func runWritesTheReportWithTagsAndFailedChecks() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing, "suites/b.yaml": SampleSuites.failing])
        defer { ws.remove() }
        let html = ws.dir.file("Reports/report.html")
        let out = try ws.run(["--html", html, "--seed", "3"])
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.contains("html report: \(html)"))
        let (report, facts) = try HTMLReport.read(contentsOf: URL(fileURLWithPath: html))
        #expect(report.totals.tests == 3 && report.totals.failures == 1)
        #expect(report.properties.contains(ReportProperty("seed", "3")))
        #expect(facts.generator.hasPrefix("pushcheck ") && (facts.wallSeconds ?? 0) > 0)
        let failed = try #require(report.allCases.first { $0.name == "fails" })
        #expect(failed.tags == ["broken"])
        let check = try #require(failed.checks.first)
        #expect(check.message == "expect exit" && check.expected == "0" && check.hop == .backend)
        // The run step's hops, and the failed exit check marked on the backend's exit.
        #expect(failed.trace.map(\.label) == ["run false", "exit 1"])
        #expect(failed.trace.map(\.from) == [.runner, .backend] && check.traceIndex == 1)
        #expect(check.file == ws.dir.file("suites/b.yaml") && check.line > 0 && check.column > 0)
        #expect(failed.systemOut.contains("scenario: fails"))
        #expect(report.allCases.first { $0.name == "also passes" }?.tags == ["smoke", "extra"])
        // The JUnit report is unchanged by --html (no tags or traces in it).
        let junit = try String(contentsOfFile: ws.report, encoding: .utf8)
        #expect(!junit.contains("broken"))
    }

    @Test func mergeReportsWritesHTMLFromHTMLShards() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing, "suites/b.yaml": SampleSuites.failing])
        defer { ws.remove() }
        for i in 1...2 {
            _ = try ws.run(["--shard", "\(i)/2", "--html", ws.dir.file("Reports/report-\(i)-of-2.html")])
        }
        let merged = ws.dir.file("Reports/merged.html")
        let out = try ws.pushcheck([
            "merge-reports", ws.dir.file("Reports/junit.xml"), ws.dir.file("Reports/report-2-of-2.html"),
            ws.dir.file("Reports/report-1-of-2.html"), "--html", merged,
        ])
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.contains("(3 scenarios in 2 suites)"))
        let (report, _) = try HTMLReport.read(contentsOf: URL(fileURLWithPath: merged))
        #expect(report.totals.tests == 3)
        #expect(report.allCases.first { $0.name == "fails" }?.checks.first?.hop == .backend)
        let junit = try JUnitXMLReader.read(contentsOf: URL(fileURLWithPath: ws.dir.file("Reports/junit.xml")))
        #expect(junit.totals.tests == 3)
    }

    @Test func anUnwritableHTMLPathIsAHarnessError() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let out = try ws.run(["--html", "/dev/full"])
        #expect(out.status == 3, "\(out)")
        #expect(out.stderr.contains("/dev/full"))
    }
}
