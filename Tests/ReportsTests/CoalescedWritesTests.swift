import Foundation
import Testing
@testable import Reports

/// `WritePolicy.coalesced`: fewer writes than changes, a complete final write, and `flush()` (the
/// interrupt path) writes everything finished so far. No assertion here is about speed.
@Suite struct CoalescedWritesTests {
    static let plan = [
        PlannedSuite(
            name: Fixtures.checkout, file: Fixtures.checkout,
            cases: [PlannedCase(name: "one", line: 3), PlannedCase(name: "two", line: 9)]),
        PlannedSuite(name: Fixtures.routing, file: Fixtures.routing, cases: [PlannedCase(name: "three", line: 2)]),
    ]
    /// Long enough that no background write happens while a test runs.
    static let never = WritePolicy.coalesced(minimumInterval: .seconds(3600))
    static let notRun = CaseOutcome.skipped(message: "not run: interrupted")

    private func changeEveryCase(of report: IncrementalReport, in plan: [PlannedSuite]) -> Int {
        var changes = 0
        for suite in plan {
            for planned in suite.cases {
                report.caseStarted(suite: suite.name, name: planned.name)
                report.caseFinished(Fixtures.passed(suite.name, planned.name, line: planned.line ?? 1))
                changes += 2
            }
        }
        return changes
    }

    @Test func coalescedWritesFewerTimesThanThereAreChangesAndTheFinalWriteIsComplete() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = [PlannedSuite(name: Fixtures.checkout, cases: (1...50).map { PlannedCase(name: "scenario \($0)") })]

        let everyURL = directory.appendingPathComponent("every.xml")
        let every = try IncrementalReport(url: everyURL, hostname: "ci", plan: plan, policy: .everyChange)
        let everyChanges = changeEveryCase(of: every, in: plan)
        #expect(every.writeCount == 1 + everyChanges)

        let url = directory.appendingPathComponent("coalesced.xml")
        let report = try IncrementalReport(url: url, hostname: "ci", plan: plan, policy: Self.never)
        let changes = changeEveryCase(of: report, in: plan)
        #expect(changes == 100)
        #expect(report.writeCount == 1, "only the initial snapshot before finish")
        #expect(try JUnitXMLReader.read(contentsOf: url).allCases.allSatisfy { $0.outcome == Self.notRun })

        let final = try report.finish()
        #expect(report.writeCount == 2)
        #expect(final.totals.tests == 50 && final.totals.passed == 50)
        let xml = try String(contentsOf: url, encoding: .utf8)
        #expect(xml == JUnitXMLWriter.render(final))
        #expect(!xml.contains("pushcheck.incomplete"))
        try Support.expectValid(xml, "final coalesced report")
        #expect(report.writeError == nil)
    }

    /// Ctrl-C's path calls `flush()`: what finished is written, the running scenario is an interrupted
    /// error, the rest not run, and the incomplete marker is there until the final write.
    @Test func flushOnInterruptWritesWhatFinishedAndMarksTheRest() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("junit.xml")
        let report = try IncrementalReport(
            url: url, hostname: "host", properties: [ReportProperty("seed", "1")], plan: Self.plan, policy: Self.never)
        #expect(
            try JUnitXMLReader.read(contentsOf: url).allCases.map(\.outcome) == Array(repeating: Self.notRun, count: 3))

        report.caseStarted(suite: Fixtures.checkout, name: "one")
        report.caseStarted(suite: Fixtures.checkout, name: "two")
        report.caseFinished(Fixtures.passed(Fixtures.checkout, "one", line: 3))
        // Coalesced: nothing new is on disk before the interval…
        #expect(try JUnitXMLReader.read(contentsOf: url).allCases.first?.outcome == Self.notRun)
        // …but the interrupt path's flush writes everything finished so far.
        try report.flush()
        let snapshot = try JUnitXMLReader.read(contentsOf: url)
        #expect(snapshot.allCases.map(\.name) == ["one", "two", "three"])
        #expect(snapshot.allCases[0].outcome == .passed)
        guard case let .error(problem) = snapshot.allCases[1].outcome else {
            Issue.record("two should be an interrupted error, got \(snapshot.allCases[1].outcome)")
            return
        }
        #expect(problem.type == "interrupted")
        #expect(snapshot.allCases[2].outcome == Self.notRun)
        #expect(
            snapshot.suites[0].properties.contains(
                ReportProperty("pushcheck.incomplete", "2 of 3 scenarios not finished")))
        try Support.expectValid(try String(contentsOf: url, encoding: .utf8), "flushed coalesced report")

        report.caseFinished(
            TestCaseReport(
                classname: Fixtures.checkout, name: "two", time: 0.1, outcome: .failure(Fixtures.assertionFailure)))
        report.caseFinished(
            TestCaseReport(
                classname: Fixtures.routing, name: "three", time: 0, outcome: .skipped(message: "needs FCM")))
        let final = try report.finish()
        #expect(final.totals.tests == 3 && final.totals.failures == 1 && final.totals.skipped == 1)
        let onDisk = try JUnitXMLReader.read(contentsOf: url)
        #expect(!onDisk.suites.flatMap(\.properties).contains { $0.name == "pushcheck.incomplete" })
        #expect(onDisk.totals == final.totals)
    }

    @Test func backgroundWriteHappensWithoutFlush() async throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("junit.xml")
        let report = try IncrementalReport(
            url: url, hostname: "host", plan: Self.plan, policy: .coalesced(minimumInterval: .milliseconds(50)))
        report.caseFinished(Fixtures.passed(Fixtures.routing, "three", line: 2))
        let seen = try await poll { (try? JUnitXMLReader.read(contentsOf: url))?.allCases.last?.outcome == .passed }
        #expect(seen, "the coalesced write reached the disk within 10 s")
        #expect(report.writeError == nil)
    }

    /// A write that fails after a change is kept in `writeError` (immediately or from the background);
    /// `flush()` throws its own; the last good snapshot stays on disk.
    @Test(arguments: [WritePolicy.everyChange, .coalesced(minimumInterval: .milliseconds(50))])
    func failedWritesAreKeptInWriteError(policy: WritePolicy) async throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reports = directory.appendingPathComponent("Reports", isDirectory: true)
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let url = reports.appendingPathComponent("junit.xml")
        let report = try IncrementalReport(url: url, hostname: "host", plan: Self.plan, policy: policy)
        try FileManager.default.removeItem(at: reports)

        report.caseFinished(Fixtures.passed(Fixtures.routing, "three", line: 2))
        let failed = try await poll { report.writeError != nil }
        #expect(failed, "the failed write is reported within 10 s")
        guard case let .writeFailed(path, _) = report.writeError else {
            Issue.record("expected writeFailed, got \(String(describing: report.writeError))")
            return
        }
        #expect(path == url.path)
        #expect(throws: ReportsError.self) { try report.flush() }
    }

    /// Polls `condition` every 20 ms for at most 10 s.
    private func poll(_ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try condition()
    }
}
