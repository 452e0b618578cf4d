import Foundation
import PushcheckTestSupport
@testable import Reports
import Testing

/// `pushcheck run` as users call it: the real binary on small suites, checking exit codes, console
/// output and the JUnit file (validated with xmllint against the relaxed XSD).
@Suite(.serialized) struct RunCommandTests {
    @Test func allPassingExitsZeroWithSummaryAndValidReport() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing, "suites/pages/ignored.yaml": "not: a suite"])
        defer { ws.remove() }
        let out = try ws.run(["--seed", "7"])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("2 passed, 0 failed, 0 skipped\n"))
        #expect(out.stdout.contains("✓ \(ws.dir.file("suites/a.yaml")) › passes ("))
        try SchemaCheck.expectValid(ws.report)
        let report = try ws.readReport()
        #expect(report.suites.count == 1)
        let suite = try #require(report.suites.first)
        #expect(suite.name == ws.dir.file("suites/a.yaml"))
        #expect(suite.properties.contains(ReportProperty("seed", "7")))
        #expect(suite.properties.contains(ReportProperty("shard", "1/1")))
        #expect(suite.properties.contains { $0.name == "pushcheck.version" })
        #expect(!suite.properties.contains { $0.name == "pushcheck.incomplete" })
        let first = try #require(suite.cases.first)
        #expect(first.classname == suite.name && first.file == suite.name && first.line == 2)
        #expect(first.systemOut.contains("scenario: passes"))
        let xml = try String(contentsOfFile: ws.report, encoding: .utf8)
        #expect(xml.range(of: #"time="\d+\.\d{3}""#, options: .regularExpression) != nil)
    }

    /// The runner's own sends go to its gateways on loopback, never through the environment's proxy: a proxy set
    /// for the backend under test (serve's CONNECT proxy, or a CI-wide `HTTPS_PROXY`) cannot reach them. The proxy
    /// here is a port nothing listens on, so a send that used it would fail.
    @Test func sendsToTheRunnersGatewaysBypassTheEnvironmentsProxy() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SnapshotCLITests.suite("order_id")])
        defer { ws.remove() }
        let dead = "http://127.0.0.1:9"
        let out = try runTool(
            pushcheckExecutable(), ["run", ws.dir.file("suites"), "--junit", ws.report, "-u"],
            environment: ["HTTPS_PROXY": dead, "https_proxy": dead, "ALL_PROXY": dead, "CI": ""], timeout: 60)
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("1 passed, 0 failed, 0 skipped"), "\(out)")
    }

    /// A zero timeout said "expects a duration such as 30s…, got '0s'" (0s is one); a missing path and an empty
    /// directory were said without the `pushcheck run:` prefix every other error of the command has.
    @Test func zeroTimeoutsAndMissingSuitesSayWhatIsWrong() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing])
        defer { ws.remove() }
        for option in ["--step-timeout", "--scenario-timeout"] {
            let zero = try ws.run([option, "0s"])
            #expect(zero.status == 2, "\(zero)")
            #expect(zero.stderr.contains("option '\(option)' must be a positive duration"), "\(zero)")
            #expect(zero.stderr.contains("(nothing finishes within 0)"), "\(zero)")
            let negative = try ws.run([option, "-1s"])
            #expect(negative.status == 2, "\(negative)")
            #expect(negative.stderr.contains("positive duration (a time limit cannot be negative)"), "\(negative)")
        }
        let missing = try ws.pushcheck(["run", ws.dir.file("nope")])
        #expect(
            missing.status == 2 && missing.stderr.hasPrefix("pushcheck run: \(ws.dir.file("nope")): no such"),
            "\(missing)")
        try FileManager.default.createDirectory(atPath: ws.dir.file("empty"), withIntermediateDirectories: true)
        let empty = try ws.pushcheck(["run", ws.dir.file("empty")])
        #expect(empty.status == 2 && empty.stderr.hasPrefix("pushcheck run: no suite files in "), "\(empty)")
    }

    /// A suite in a one-letter directory, named relative to the working directory (`run q/a.yaml`), crashed the run
    /// with SIGILL before anything ran: Foundation's `deletingLastPathComponent` traps on `q` (`PathText`).
    @Test func aSuiteInAOneLetterDirectoryRuns() throws {
        let ws = try CLIWorkspace(["q/a.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let out = try runTool(
            "/bin/sh",
            ["-c", #"cd "$1" && exec "$2" run q/a.yaml --junit r.xml"#, "sh", ws.dir.path, pushcheckExecutable()],
            environment: ["CI": "1"], timeout: 60)
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("2 passed, 0 failed, 0 skipped"), "\(out)")
    }

    /// pushcheck ignores SIGPIPE and its threads block most signals; a `run:` command inherits neither.
    @Test func runCommandsStartWithAnEmptySignalMaskAndDefaultDispositions() throws {
        let ws = try CLIWorkspace([
            "suites/sig.yaml": """
            scenarios:
              - name: signals
                steps:
                  - run: grep -E '^Sig(Blk|Ign)' /proc/self/status
                    expect: { stdout: "SigBlk:\\t0000000000000000\\nSigIgn:\\t0000000000000000\\n" }
            """
        ])
        defer { ws.remove() }
        let r = try ws.run([])
        #expect(r.status == 0, "\(r)")
    }

    @Test func exitCodesFollowTheWorstOutcome() throws {
        let ws = try CLIWorkspace([
            "suites/a.yaml": SampleSuites.passing, "suites/b.yaml": SampleSuites.failing,
            "suites/c.yaml": SampleSuites.crashing,
        ])
        defer { ws.remove() }
        let failed = try ws.run(["--filter", "b.yaml"])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout.contains("0 passed, 1 failed, 0 skipped"))
        #expect(failed.stdout.contains("Failures:") && failed.stdout.contains("expected: 0"))
        let crashed = try ws.run([])
        #expect(crashed.status == 3, "\(crashed)")
        #expect(crashed.stdout.contains("2 passed, 2 failed, 0 skipped"))
        let report = try ws.readReport()
        guard case let .error(problem)? = outcome(named: "crashes", in: report) else {
            Issue.record("crash should be an <error>")
            return
        }
        #expect(problem.type == "command")
        guard case .failure? = outcome(named: "fails", in: report) else {
            Issue.record("fails should be a <failure>"); return
        }
        try SchemaCheck.expectValid(ws.report)
    }

    @Test func loadErrorsAreAllReportedWithExitTwo() throws {
        let ws = try CLIWorkspace([
            "suites/a.yaml": SampleSuites.passing,
            "suites/b.yaml": "scenarios:\n  - name: x\n    stpes: []\n",
            "suites/c.yaml": "scenarios:\n  - name: y\n    steps:\n      - sned: {}\n",
        ])
        defer { ws.remove() }
        let out = try ws.run()
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("b.yaml:3:5"), "\(out.stderr)")
        #expect(out.stderr.contains("c.yaml:4"), "\(out.stderr)")
        #expect(out.stderr.contains("2 suite files with errors"))
        // Nothing ran, and the report says why: one <testsuite> per broken file, its error as an <error>.
        let report = try ws.readReport()
        #expect(report.suites.map(\.name) == [ws.dir.file("suites/b.yaml"), ws.dir.file("suites/c.yaml")])
        #expect(report.totals.tests == 2 && report.totals.errors == 2, "\(report.totals)")
        try SchemaCheck.expectValid(ws.report)
    }

    /// A suite-file error after a green run: the previous run's JUnit and HTML reports are replaced by ones holding
    /// the error (a CI job must not upload the stale green ones), still exit 2.
    @Test func aSuiteFileErrorReplacesThePreviousReports() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let html = ws.dir.file("Reports/report.html")
        let green = try ws.run(["--html", html])
        #expect(green.status == 0, "\(green)")
        try "scenarios:\n  - name: x\n    stpes: []\n".write(
            toFile: ws.dir.file("suites/a.yaml"), atomically: true, encoding: .utf8)
        let out = try ws.run(["--html", html])
        #expect(out.status == 2, "\(out)")
        #expect(out.stdout.contains("report: \(ws.report)"), "\(out.stdout)")
        let report = try ws.readReport()
        #expect(report.totals.tests == 1 && report.totals.errors == 1, "\(report.totals)")
        let suite = try #require(report.suites.first)
        #expect(suite.name == ws.dir.file("suites/a.yaml") && suite.file == suite.name)
        let testCase = try #require(suite.cases.first)
        #expect(testCase.file == suite.name && testCase.line == 3)
        guard case let .error(problem) = testCase.outcome else {
            Issue.record("the broken file should be an <error>: \(testCase.outcome)")
            return
        }
        #expect(problem.message.hasPrefix("\(ws.dir.file("suites/a.yaml")):3:5: unknown key 'stpes'"), "\(problem)")
        #expect(problem.type == "suite-file")
        try SchemaCheck.expectValid(ws.report)
        let (page, _) = try HTMLReport.read(contentsOf: URL(fileURLWithPath: html))
        #expect(page.totals.errors == 1 && page.totals.passed == 0, "\(page.totals)")

        // Sharded, one shard holds the error, so the merged report has it once.
        var shards: [String] = []
        for i in 1...2 {
            shards.append(ws.dir.file("Reports/junit-\(i)-of-2.xml"))
            let shard = try ws.pushcheck(["run", ws.dir.file("suites"), "--shard", "\(i)/2", "--junit", shards[i - 1]])
            #expect(shard.status == 2, "\(shard)")
            try SchemaCheck.expectValid(shards[i - 1])
        }
        let merged = try ws.pushcheck(["merge-reports", ws.dir.file("Reports/merged.xml")] + shards)
        #expect(merged.status == 1, "\(merged)")
        #expect(try ws.readReport(ws.dir.file("Reports/merged.xml")).totals.errors == 1)
    }

    @Test func usageErrorsExitTwo() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing])
        defer { ws.remove() }
        #expect(try ws.run(["--shard", "3/2"]).status == 2)
        #expect(try ws.run(["--jobs", "0"]).status == 2)
        #expect(try ws.run(["--scenario-timeout", "soon"]).status == 2)
        #expect(try ws.pushcheck(["run", ws.dir.file("missing")]).status == 2)
    }

    /// `--pages` naming no directory: exit 2 naming it, before anything runs (every page would be a 404).
    @Test func aMissingPagesDirectoryIsAUsageError() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing])
        defer { ws.remove() }
        for pages in [ws.dir.file("nope"), ws.dir.file("suites/a.yaml")] {
            let out = try ws.run(["--pages", pages])
            #expect(out.status == 2, "\(out)")
            #expect(out.stderr.contains("option '--pages': '\(pages)' is not a directory"), "\(out.stderr)")
            #expect(!FileManager.default.fileExists(atPath: ws.report), "nothing may run")
        }
    }

    /// `scenarios: []` with no selection option: exit 5 saying the suites hold no scenarios, not that a selection
    /// nobody gave matched nothing.
    @Test func suitesWithoutScenariosSayNotSelection() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": "scenarios: []\n", "suites/b.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let out = try ws.pushcheck(["run", ws.dir.file("suites/a.yaml"), "--junit", ws.report])
        #expect(out.status == 5, "\(out)")
        #expect(out.stderr.contains("pushcheck run: the suites hold no scenarios"), "\(out.stderr)")
        #expect(!out.stderr.contains("--filter"), "\(out.stderr)")
        let filtered = try ws.run(["--filter", "nothing like it"])
        #expect(filtered.status == 5, "\(filtered)")
        #expect(filtered.stderr.contains("no scenario matches the selection"), "\(filtered.stderr)")
    }

    @Test func listFilterAndTags() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.passing, "suites/b.yaml": SampleSuites.failing])
        defer { ws.remove() }
        let a = ws.dir.file("suites/a.yaml"), b = ws.dir.file("suites/b.yaml")
        let all = try ws.run(["--list"])
        #expect(all.status == 0)
        #expect(all.stdout == "\(a)::passes\n\(a)::also passes\n\(b)::fails\n")
        #expect(try ws.run(["--list", "--tags", "extra,broken"]).stdout == "\(a)::also passes\n\(b)::fails\n")
        #expect(try ws.run(["--list", "--exclude-tags", "smoke"]).stdout == "\(b)::fails\n")
        #expect(try ws.run(["--list", "--filter", "also"]).stdout == "\(a)::also passes\n")
        #expect(!FileManager.default.fileExists(atPath: ws.report))
    }

    @Test func retriesShowFlakyAndRerunAttempts() throws {
        let ws = try CLIWorkspace([:])
        defer { ws.remove() }
        try FileManager.default.createDirectory(atPath: ws.dir.file("suites"), withIntermediateDirectories: true)
        try ws.dir.write("suites/flaky.yaml", SampleSuites.flaky(flagFile: ws.dir.file("flag")))
        try ws.dir.write("suites/b.yaml", SampleSuites.failing)
        let out = try ws.run(["--retries", "2"])
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.contains("1 flaky (passed after retries)"))
        let xml = try String(contentsOfFile: ws.report, encoding: .utf8)
        #expect(xml.components(separatedBy: "<flakyFailure").count == 2)
        #expect(xml.components(separatedBy: "<rerunFailure").count == 3)
        let report = try ws.readReport()
        let flaky = try #require(report.allCases.first { $0.name == "flaky" })
        #expect(flaky.outcome == .passed && flaky.retries.count == 1)
        try SchemaCheck.expectValid(ws.report)
    }

    @Test func scenarioTimeoutIsATimeoutError() throws {
        let ws = try CLIWorkspace(["suites/slow.yaml": SampleSuites.slow])
        defer { ws.remove() }
        let out = try ws.run(["--filter", "slow", "--scenario-timeout", "300ms"], timeout: 30)
        #expect(out.status == 3, "\(out)")
        let report = try ws.readReport()
        guard case let .error(problem)? = outcome(named: "slow", in: report) else {
            Issue.record("expected error"); return
        }
        #expect(problem.type == "timeout")
        #expect(problem.message.contains("300ms"))
        try SchemaCheck.expectValid(ws.report)
    }

    @Test func failFastSkipsWhatWasNotStarted() throws {
        let ws = try CLIWorkspace(["suites/a.yaml": SampleSuites.failing, "suites/b.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let out = try ws.run(["--jobs", "1", "--fail-fast"])
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.contains("0 passed, 1 failed, 2 skipped"))
        let report = try ws.readReport()
        #expect(
            outcome(named: "passes", in: report)
                == .skipped(message: "not run: --fail-fast stopped the run after a failure"))
        try SchemaCheck.expectValid(ws.report)
    }
}
