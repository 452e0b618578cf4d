import Foundation
import PushcheckTestSupport
@testable import Reports
import Testing

@Suite(.serialized) struct InterruptAndMergeTests {
    /// Ctrl-C during a slow `run` step: the report on disk keeps the finished scenario, marks the running
    /// one as an interrupted error and the unstarted ones as not run, and is valid JUnit.
    @Test func sigintKeepsFinishedScenariosAndMarksTheRest() throws {
        let ws = try CLIWorkspace(["suites/slow.yaml": SampleSuites.slow])
        defer { ws.remove() }
        // The first line printed is the result of `quick`; `slow` starts right after it.
        let child = try ws.startSlowSuiteAfterQuick()
        // Wait until the report on disk shows `slow` as started (a started, unfinished scenario is
        // written as an interrupted error), so the signal lands while it runs.
        let deadline = Date().addingTimeInterval(20)
        var running = false
        while !running, Date() < deadline {
            usleep(50_000)
            if let snapshot = try? ws.readReport(), case let .error(p)? = outcome(named: "slow", in: snapshot) {
                running = p.type == "interrupted"
            }
        }
        #expect(running, "slow never showed as running in the report")
        let status = child.stop(signal: SIGINT, timeout: 20)
        #expect(status == 130, "exit \(String(describing: status)); stderr: \(child.stderr)")
        // The console says what the report says of the two that never started (it said "not finished").
        let console = child.remainingOutput()
        #expect(console.contains("interrupted: 2 scenarios not run (skipped in the report)"), "\(console)")
        let report = try ws.readReport()
        #expect(outcome(named: "quick", in: report) == .passed)
        guard case let .error(problem)? = outcome(named: "slow", in: report) else {
            Issue.record(
                "slow should be an interrupted error: \(String(describing: outcome(named: "slow", in: report)))")
            return
        }
        #expect(problem.type == "interrupted")
        #expect(outcome(named: "later1", in: report) == .skipped(message: "not run: interrupted"))
        #expect(outcome(named: "later2", in: report) == .skipped(message: "not run: interrupted"))
        #expect(
            report.suites.first?.properties.contains(
                ReportProperty("pushcheck.incomplete", "2 of 4 scenarios not finished")) == true)
        try SchemaCheck.expectValid(ws.report)
    }

    /// Every shard of 3 written by `--shard`, merged: the same scenarios and totals as one unsharded run.
    @Test func shardsMergeToTheSameTotals() throws {
        let suites = (1...4).reduce(into: [String: String]()) { dict, n in
            dict["suites/s\(n).yaml"] =
                "scenarios:\n"
                + (1...4).map { i in
                    "  - name: scenario \(i)\n    steps:\n      - run: \"\(i == 2 && n == 3 ? "false" : "true")\"\n        expect: { exit: 0 }\n"
                }.joined()
        }
        let ws = try CLIWorkspace(suites)
        defer { ws.remove() }
        let whole = try ws.run()
        #expect(whole.status == 1)
        let single = try ws.readReport()
        var shardFiles: [String] = []
        var listed: [String] = []
        for i in 1...3 {
            let file = ws.dir.file("Reports/junit-\(i)-of-3.xml")
            let out = try ws.pushcheck(["run", ws.dir.file("suites"), "--shard", "\(i)/3", "--junit", file])
            #expect([0, 1].contains(out.status), "\(out)")
            let shard = try ws.pushcheck(["run", ws.dir.file("suites"), "--shard", "\(i)/3", "--list"]).stdout
                .split(separator: "\n").map(String.init)
            #expect((5...6).contains(shard.count), "16 over 3 shards: 6, 5, 5; got \(shard.count)")
            listed += shard
            shardFiles.append(file)
            try SchemaCheck.expectValid(file)
        }
        #expect(listed.count == 16 && Set(listed).count == 16, "shards are disjoint and complete")
        let merged = ws.dir.file("Reports/merged.xml")
        let out = try ws.pushcheck(["merge-reports", merged] + shardFiles.reversed())
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.contains("15 passed, 1 failed, 0 skipped"))
        let report = try ws.readReport(merged)
        #expect(report.totals.tests == single.totals.tests)
        #expect(report.totals.failures == 1 && report.totals.errors == 0)
        #expect(
            Set(report.allCases.map { $0.classname + "::" + $0.name })
                == Set(single.allCases.map { $0.classname + "::" + $0.name }))
        try SchemaCheck.expectValid(merged)
        let xml = try String(contentsOfFile: merged, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="pushcheck" tests="16" failures="1" errors="0" skipped="0""#))

        let twice = try ws.pushcheck(["merge-reports", ws.dir.file("Reports/twice.xml"), shardFiles[0], shardFiles[0]])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("appears twice"))
        #expect(try ws.pushcheck(["merge-reports", merged]).status == 2)
    }

    /// More shards than scenarios: the empty shard exits 0 saying why (it exited 5 and failed CI); a selection that
    /// matches nothing still exits 5. Two scenarios over two shards are one each (the hash split gave 0 and 2).
    /// merge-reports without every shard of N fails, naming the missing one.
    @Test func anEmptyShardPassesAndMergingWithoutAShardFails() throws {
        let ws = try CLIWorkspace([
            "suites/s.yaml": "scenarios:\n  - name: one\n    steps: [ { run: \"true\" } ]\n"
                + "  - name: two\n    steps: [ { run: \"true\" } ]\n"
        ])
        defer { ws.remove() }
        let suites = ws.dir.file("suites")
        for i in 1...2 {
            let list = try ws.pushcheck(["run", suites, "--shard", "\(i)/2", "--list"])
            #expect(list.stdout.split(separator: "\n").count == 1, "\(list)")
        }
        var files: [String] = []
        for i in 1...3 {
            files.append(ws.dir.file("Reports/junit-\(i)-of-3.xml"))
            let out = try ws.pushcheck(["run", suites, "--shard", "\(i)/3", "--junit", files[i - 1]])
            #expect(out.status == 0, "\(out)")
            if i == 3 {
                #expect(out.stderr.contains("shard 3/3 has no scenarios (the selection has 2 for 3 shards)"), "\(out)")
            }
        }
        let nothing = try ws.pushcheck(["run", suites, "--shard", "1/3", "--filter", "zz"])
        #expect(nothing.status == 5, "\(nothing)")
        let list = try ws.pushcheck(["run", suites, "--list", "--filter", "zz"])
        #expect(list.status == 5 && !list.stderr.contains("report"), "--list writes no report: \(list)")
        #expect(list.stderr.contains("pushcheck run: no scenario matches the selection"), "\(list)")

        let merged = ws.dir.file("Reports/merged.xml")
        let partial = try ws.pushcheck(["merge-reports", merged, files[0], files[2]])
        #expect(partial.status == 2, "\(partial)")
        #expect(partial.stderr.contains("shard 2/3 is missing"), "\(partial)")
        let whole = try ws.pushcheck(["merge-reports", merged] + files)
        #expect(whole.status == 0 && whole.stdout.contains("2 passed"), "\(whole)")
    }

    /// Custom report names: the empty shard's report records `shard 3/3` itself (in a suite without cases, which the
    /// merge leaves out), so a complete set merges (it was "shard 3/3 is missing"), and the report is valid JUnit.
    @Test func anEmptyShardsCustomNamedReportCompletesTheMerge() throws {
        let ws = try CLIWorkspace([
            "suites/s.yaml": "scenarios:\n  - name: one\n    steps: [ { run: \"true\" } ]\n"
                + "  - name: two\n    steps: [ { run: \"true\" } ]\n"
        ])
        defer { ws.remove() }
        let files = (1...3).map { ws.dir.file("r\($0).xml") }
        for i in 1...3 {
            let out = try ws.pushcheck(["run", ws.dir.file("suites"), "--shard", "\(i)/3", "--junit", files[i - 1]])
            #expect(out.status == 0, "\(out)")
        }
        let empty = try String(contentsOfFile: files[2], encoding: .utf8)
        #expect(empty.contains("<property name=\"shard\" value=\"3/3\"/>"), "\(empty)")
        try SchemaCheck.expectValid(files[2])
        let merged = ws.dir.file("m.xml")
        let whole = try ws.pushcheck(["merge-reports", merged] + files)
        #expect(whole.status == 0 && whole.stdout.contains("2 passed"), "\(whole)")
        try SchemaCheck.expectValid(merged)
        let xml = try String(contentsOfFile: merged, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testsuite ").count == 2, "the empty shard adds no suite: \(xml)")
        let partial = try ws.pushcheck(["merge-reports", merged, files[0]])
        #expect(partial.status == 2, "\(partial)")
        #expect(partial.stderr.contains("shards 2/3, 3/3 are missing (their scenarios"), "\(partial)")
    }

    /// A missing input was "cannot read the report: The operation could not be completed. The file doesn’t exist..":
    /// it is "no such file", and a glob the shell left unexpanded says so.
    @Test func aMissingReportIsNamedAndAnUnexpandedGlobSaid() throws {
        let ws = try CLIWorkspace(["suites/s.yaml": "scenarios:\n  - name: one\n    steps: [ { run: \"true\" } ]\n"])
        defer { ws.remove() }
        let glob = try ws.pushcheck(["merge-reports", ws.dir.file("out.xml"), "Reports/report-*-of-5.html"])
        #expect(glob.status == 2, "\(glob)")
        #expect(
            glob.stderr
                == "pushcheck merge-reports: no such file: Reports/report-*-of-5.html (the shell did not expand this "
                + "pattern: no file matches it)\n", "\(glob)")
        let missing = try ws.pushcheck(["merge-reports", ws.dir.file("out.xml"), "nope.xml"])
        #expect(
            missing.status == 2 && missing.stderr == "pushcheck merge-reports: no such file: nope.xml\n", "\(missing)")
    }
}
