import Foundation
import PushcheckTestSupport
import Reports
import Testing
@testable import SuiteRunner

@Suite struct CoalescingReportTests {
    static let plan = [
        PlannedSuite(name: "Suites/a.yaml", file: "Suites/a.yaml", cases: [PlannedCase(name: "one", line: 3), PlannedCase(name: "two", line: 9)]),
        PlannedSuite(name: "Suites/b.yaml", file: "Suites/b.yaml", cases: [PlannedCase(name: "three", line: 2)]),
    ]

    @Test func marksUnfinishedScenariosAndWritesOnFinish() throws {
        let dir = try TempDirectory("coalescing")
        defer { dir.remove() }
        let url = URL(fileURLWithPath: dir.file("junit.xml"))
        let report = try CoalescingReport(
            url: url, hostname: "host", properties: [ReportProperty("seed", "1")], plan: Self.plan, interval: .seconds(30))
        // The initial snapshot is on disk at once: everything not run.
        let initial = try JUnitXMLReader.read(contentsOf: url)
        #expect(initial.allCases.map(\.outcome) == Array(repeating: .skipped(message: "not run: interrupted"), count: 3))

        report.caseStarted(suite: "Suites/a.yaml", name: "one")
        report.caseStarted(suite: "Suites/a.yaml", name: "two")
        report.caseFinished(TestCaseReport(classname: "Suites/a.yaml", name: "one", file: "Suites/a.yaml", line: 3, time: 0.5, outcome: .passed))
        // Coalesced: nothing new is written before the interval…
        #expect(try JUnitXMLReader.read(contentsOf: url).allCases.first?.outcome == .skipped(message: "not run: interrupted"))
        // …but a flush (what Ctrl-C's path calls) writes everything finished so far.
        try report.flush()
        let snapshot = try JUnitXMLReader.read(contentsOf: url)
        #expect(snapshot.allCases.map(\.name) == ["one", "two", "three"])
        #expect(snapshot.allCases[0].outcome == .passed)
        guard case let .error(problem) = snapshot.allCases[1].outcome else { Issue.record("two: interrupted error"); return }
        #expect(problem.type == "interrupted")
        #expect(snapshot.allCases[2].outcome == .skipped(message: "not run: interrupted"))
        #expect(snapshot.suites[0].properties.contains(ReportProperty("pushcheck.incomplete", "2 of 3 scenarios not finished")))
        let xml = try String(contentsOf: url, encoding: .utf8)
        let schema = try JUnitSchema(xsdPath: SchemaCheck.xsd)
        #expect(schema.violations(inXML: xml).isEmpty)

        for name in ["two"] {
            report.caseFinished(TestCaseReport(classname: "Suites/a.yaml", name: name, time: 0.1, outcome: .failure(ProblemReport(message: "m", type: "assertion"))))
        }
        report.caseFinished(TestCaseReport(classname: "Suites/b.yaml", name: "three", time: 0, outcome: .skipped(message: "needs FCM")))
        let final = try report.finish()
        #expect(final.totals.tests == 3 && final.totals.failures == 1 && final.totals.skipped == 1)
        let onDisk = try JUnitXMLReader.read(contentsOf: url)
        #expect(!onDisk.suites.flatMap(\.properties).contains { $0.name == "pushcheck.incomplete" })
        #expect(onDisk.totals == final.totals)
    }

    @Test func backgroundWritesHappenWithoutFlush() async throws {
        let dir = try TempDirectory("coalescing")
        defer { dir.remove() }
        let url = URL(fileURLWithPath: dir.file("junit.xml"))
        let report = try CoalescingReport(url: url, hostname: "host", plan: Self.plan, interval: .milliseconds(50))
        report.caseFinished(TestCaseReport(classname: "Suites/b.yaml", name: "three", time: 0, outcome: .passed))
        let deadline = ContinuousClock.now + .seconds(10)
        var seen = false
        while !seen, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            seen = (try? JUnitXMLReader.read(contentsOf: url))?.allCases.last?.outcome == .passed
        }
        #expect(seen, "the coalesced write reached the disk")
        #expect(report.backgroundError == nil)
    }

    @Test func duplicateScenarioNamesAreRejected() {
        let plan = [PlannedSuite(name: "Suites/a.yaml", cases: [PlannedCase(name: "x"), PlannedCase(name: "x")])]
        #expect(throws: ReportsError.self) {
            try CoalescingReport(url: URL(fileURLWithPath: "/nonexistent/junit.xml"), hostname: "h", plan: plan)
        }
    }
}
