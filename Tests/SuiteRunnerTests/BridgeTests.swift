import Foundation
import PushcheckTestSupport
@testable import Reports
@testable import ScenarioChecks
@testable import ScenarioRun
import Testing
@testable import SuiteRunner

@Suite struct BridgeTests {
    @Test func executorResultsMapToReportOutcomes() {
        let failures = [
            AssertionFailure(
                message: "expect status", expected: "200", actual: "400", file: "Suites/a.yaml", line: 9, column: 5,
                events: "gateway → 400"),
            AssertionFailure(
                message: "expect reason", expected: "none", actual: "BadDeviceToken", file: "Suites/a.yaml", line: 9,
                column: 20, events: ""),
        ]
        let failed = AttemptResult(
            ScenarioResult(status: .failed(failures), transcript: "t", duration: .milliseconds(1500)))
        guard case let .failure(problem) = failed.outcome else { Issue.record("expected failure"); return }
        #expect(problem.message == "expect status (and 1 more)")
        #expect(problem.type == "assertion")
        #expect(problem.detail.contains("Suites/a.yaml:9:5: expect status\n  expected: 200\n  actual:   400"))
        #expect(problem.detail.contains("Suites/a.yaml:9:20: expect reason"))
        #expect(failed.transcript == "t" && failed.seconds == 1.5)

        let errored = AttemptResult(
            ScenarioResult(
                status: .error(kind: .command, message: "crashed", detail: "d"), transcript: "", duration: .zero))
        #expect(errored.outcome == .error(ProblemReport(message: "crashed", type: "command", detail: "d")))
        #expect(
            AttemptResult(ScenarioResult(status: .skipped("later"), transcript: "", duration: .zero)).outcome
                == .skipped(message: "later"))
        #expect(AttemptResult(ScenarioResult(status: .passed, transcript: "", duration: .zero)).outcome == .passed)
    }

    @Test func loadedSuitesKeepFileOrderAndHandles() throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        let a = try dir.write(
            "a.yaml",
            "scenarios:\n  - name: first\n    tags: [x]\n    steps: [{ run: \"true\" }]\n  - name: second\n    skip: later\n    steps: []\n"
        )
        let b = try dir.write("b.yaml", "scenarios:\n  - name: third\n    steps: [{ run: \"true\" }]\n")
        let (loaded, errors) = LoadedSuites.load(files: [a, b, dir.file("missing.yaml")])
        #expect(errors.count == 1)
        #expect(loaded.items.map(\.name) == ["first", "second", "third"])
        #expect(loaded.items.map(\.classname) == [a, a, b])
        #expect(loaded.items[0].tags == ["x"] && loaded.items[0].line == 2)
        #expect(loaded.items[1].skipReason == "later")
        let (suite, scenario) = try #require(loaded.scenario(for: loaded.items[2]))
        #expect(suite.path == b && scenario.name == "third")
        #expect(loaded.scenarioNames == [["first", "second"], ["third"]])
        // A finished scenario is let go of; the others stay.
        loaded.release(loaded.items[2])
        #expect(loaded.scenario(for: loaded.items[2]) == nil)
        #expect(loaded.scenario(for: loaded.items[0])?.1.name == "first")
    }
}

extension BridgeTests {
    /// What the selection leaves out never runs, so `prepare` lets go of it at once; what it keeps stays loaded until
    /// the run is done with it.
    @Test func prepareLetsGoOfWhatTheSelectionLeavesOut() throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        let suite = try dir.write(
            "a.yaml",
            "scenarios:\n" + (1...5).map { "  - name: s\($0)\n    steps: [{ run: \"true\" }]\n" }.joined())
        let prepared = try SuiteRun.prepare(
            RunConfiguration(paths: [suite], selection: Selection(filter: "s3"), environment: [:]))
        #expect(prepared.selected.map(\.name) == ["s3"])
        #expect(prepared.loaded.items.count == 5)
        let kept = prepared.loaded.items.filter { prepared.loaded.scenario(for: $0) != nil }.map(\.name)
        #expect(kept == ["s3"])
        #expect(prepared.loaded.scenarioNames == [["s1", "s2", "s3", "s4", "s5"]])
    }
}
