import Foundation
import Testing
@testable import Reports

/// The on-disk report while a run is in progress is what a Ctrl-C or crash leaves behind.
@Suite struct IncrementalReportTests {
    static let plan = [
        PlannedSuite(
            name: Fixtures.checkout, file: Fixtures.checkout, properties: [ReportProperty("shard", "1/2")],
            cases: [
                PlannedCase(name: "first", line: 3), PlannedCase(name: "second", line: 9),
                PlannedCase(name: "third", line: 15),
            ]),
        PlannedSuite(name: Fixtures.routing, cases: [PlannedCase(name: "only", line: 2)]),
    ]

    /// The two ways of keeping the file current; both must leave the same content behind.
    static let policies: [WritePolicy] = [.everyChange, .coalesced(minimumInterval: .seconds(3600))]

    private func start(in directory: URL, policy: WritePolicy = .everyChange) throws -> (IncrementalReport, URL) {
        let url = directory.appendingPathComponent("junit-1-of-2.xml")
        let report = try IncrementalReport(
            url: url, timestamp: Support.noon, hostname: "ci", properties: [ReportProperty("seed", "7")],
            plan: Self.plan,
            policy: policy)
        return (report, url)
    }

    @Test func fileExistsAndIsValidBeforeAnythingRuns() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, url) = try start(in: directory)
        let onDisk = try JUnitXMLReader.read(contentsOf: url)
        #expect(onDisk.totals.tests == 4)
        #expect(onDisk.totals.skipped == 4)
        try Support.expectValid(try String(contentsOf: url, encoding: .utf8), "initial snapshot")
    }

    /// Simulates an interruption after two scenarios finished and a third started: the file on disk
    /// (never finalised) has the finished ones as reported, the running one as an interrupted error,
    /// and the rest as not run. With coalesced writes the interrupt path's `flush()` is what writes it.
    @Test(arguments: policies) func interruptedRunLeavesFinishedCasesAndMarksTheRest(policy: WritePolicy) throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (report, url) = try start(in: directory, policy: policy)

        report.caseStarted(suite: Fixtures.checkout, name: "first", at: Support.noon.addingTimeInterval(1))
        report.caseFinished(Fixtures.passed(Fixtures.checkout, "first", line: 3, time: 0.5, out: "sent\n"))
        report.caseStarted(suite: Fixtures.checkout, name: "second", at: Support.noon.addingTimeInterval(2))
        report.caseFinished(
            TestCaseReport(
                classname: Fixtures.checkout, name: "second", file: Fixtures.checkout, line: 9, time: 0.7,
                outcome: .failure(Fixtures.assertionFailure)))
        report.caseStarted(suite: Fixtures.checkout, name: "third", at: Support.noon.addingTimeInterval(3))
        // … the process is killed here: nothing else is written (a coalesced report's interrupt path flushes).
        if policy != .everyChange { try report.flush() }

        let xml = try String(contentsOf: url, encoding: .utf8)
        try Support.expectGolden(xml, "interrupted.xml")
        try Support.expectValid(xml, "interrupted.xml")
        let onDisk = try JUnitXMLReader.read(contentsOf: url)
        let cases = onDisk.allCases
        #expect(cases.map(\.name) == ["first", "second", "third", "only"])
        #expect(cases[0].outcome == .passed)
        #expect(cases[0].systemOut == "sent\n")
        // In memory, the report keeps the case's summary; its transcript is on disk (and on the spool).
        #expect(report.snapshot().allCases[0].systemOut.isEmpty)
        #expect(cases[1].outcome == .failure(Fixtures.assertionFailure))
        guard case let .error(problem) = cases[2].outcome else {
            Issue.record("the running scenario should be an interrupted error, got \(cases[2].outcome)")
            return
        }
        #expect(problem.type == "interrupted")
        #expect(cases[3].outcome == .skipped(message: "not run: interrupted"))
        #expect(
            onDisk.suites[0].properties.contains(
                ReportProperty("pushcheck.incomplete", "2 of 4 scenarios not finished")))
        #expect(report.unfinishedCount == 2)
    }

    @Test(arguments: policies) func finishedRunHasNoPlaceholdersOrIncompleteMarker(policy: WritePolicy) throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (report, url) = try start(in: directory, policy: policy)
        for suite in Self.plan {
            for planned in suite.cases {
                report.caseStarted(suite: suite.name, name: planned.name)
                report.caseFinished(Fixtures.passed(suite.name, planned.name, line: planned.line ?? 1))
            }
        }
        // A scenario outside the plan (e.g. generated at run time) is kept, not dropped.
        report.caseFinished(Fixtures.passed(Fixtures.routing, "extra", line: 20))
        let final = try report.finish()
        #expect(final.totals.tests == 5)
        #expect(final.totals.passed == 5)
        let xml = try String(contentsOf: url, encoding: .utf8)
        #expect(xml == JUnitXMLWriter.render(final))
        #expect(!xml.contains("pushcheck.incomplete"))
        #expect(!xml.contains("interrupted"))
        try Support.expectValid(xml, "finished incremental report")
    }

    @Test func duplicateScenarioNamesAreRejected() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = [
            PlannedSuite(
                name: Fixtures.checkout,
                cases: [PlannedCase(name: "same", line: 3), PlannedCase(name: "same", line: 8)])
        ]
        #expect(
            throws: ReportsError.duplicateCase(
                classname: Fixtures.checkout, name: "same", path: Fixtures.checkout, line: 8,
                firstPath: Fixtures.checkout)
        ) {
            try IncrementalReport(url: directory.appendingPathComponent("junit.xml"), hostname: "h", plan: plan)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // Classname and name identify a case across the plan too: a suite planned twice may not repeat a name.
        let twice = [
            PlannedSuite(name: Fixtures.checkout, cases: [PlannedCase(name: "same", line: 3)]),
            PlannedSuite(name: Fixtures.checkout, cases: [PlannedCase(name: "other"), PlannedCase(name: "same")]),
        ]
        #expect(
            throws: ReportsError.duplicateCase(
                classname: Fixtures.checkout, name: "same", path: Fixtures.checkout, line: 0,
                firstPath: Fixtures.checkout)
        ) {
            try IncrementalReport(url: directory.appendingPathComponent("junit.xml"), hostname: "h", plan: twice)
        }
    }

    @Test(arguments: policies) func concurrentFinishesAreAllOnDisk(policy: WritePolicy) async throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = (0..<40).map { "scenario \($0)" }
        let url = directory.appendingPathComponent("junit.xml")
        let report = try IncrementalReport(
            url: url, timestamp: Support.noon, hostname: "ci",
            plan: [PlannedSuite(name: Fixtures.checkout, cases: names.map { PlannedCase(name: $0) })], policy: policy)
        await withTaskGroup(of: Void.self) { group in
            for name in names {
                group.addTask { report.caseFinished(Fixtures.passed(Fixtures.checkout, name, line: 1)) }
            }
        }
        if policy != .everyChange { try report.flush() }
        #expect(report.writeError == nil)
        let onDisk = try JUnitXMLReader.read(contentsOf: url)
        #expect(onDisk.totals.passed == 40)
        #expect(onDisk.allCases.map(\.name) == names)  // plan order, not finish order
    }
}
