import Foundation
import PushcheckTestSupport
import SuiteFormat
@testable import Reports
@testable import ScenarioChecks
@testable import ScenarioRun
import Testing
@testable import SuiteRunner

@Suite struct BridgeTests {
    /// A suite of scenarios named `names`, each running `true`.
    static func suiteText(_ names: [String]) -> String {
        "scenarios:\n" + names.map { "  - name: \($0)\n    steps: [{ run: \"true\" }]\n" }.joined()
    }

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
        let (suite, scenario) = try #require(try loaded.scenario(for: loaded.items[2]))
        #expect(suite.path == b && scenario.name == "third")
        #expect(loaded.scenarioNames == [["first", "second"], ["third"]])
        // A finished scenario is let go of; the others stay.
        loaded.release(loaded.items[2])
        #expect(try loaded.scenario(for: loaded.items[2]) == nil)
        #expect(try loaded.scenario(for: loaded.items[0])?.1.name == "first")
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
            Self.suiteText((1...5).map { "s\($0)" }))
        let prepared = try SuiteRun.prepare(
            RunConfiguration(paths: [suite], selection: Selection(filter: "s3"), environment: [:]))
        #expect(prepared.selected.map(\.name) == ["s3"])
        #expect(prepared.loaded.items.count == 5)
        let kept = prepared.loaded.items.filter { (try? prepared.loaded.scenario(for: $0)) ?? nil != nil }.map(\.name)
        #expect(kept == ["s3"])
        #expect(prepared.loaded.scenarioNames == [["s1", "s2", "s3", "s4", "s5"]])
    }
}

extension BridgeTests {
    /// Past a run's first `decodedScenarios`, a scenario is checked when its suite loads, then held as where it is
    /// written until it runs: `scenario(for:)` decodes it again, the same scenario as loading it whole gives.
    @Test func scenariosPastTheDecodedOnesAreDecodedAgainWhenTheyRun() throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        let a = try dir.write(
            "a.yaml",
            """
            variables: { greeting: Hello }
            scenarios:
              - name: one
                steps: [{ run: "true" }]
              - name: two
                tags: [t]
                parameters: { state: [background, foreground] }
                steps:
                  - state: ${scenario.state}
                  - send: { to: iphone, payload: { aps: { alert: "${greeting}" } } }
                    expect: { status: 200 }
              - { name: three, skip: not now, steps: [tap] }

            """)
        let b = try dir.write("b.yaml", "scenarios:\n  - name: four\n    steps: [{ run: \"true\" }]\n")
        let whole = LoadedSuites(suites: [try SuiteLoader.load(path: a), try SuiteLoader.load(path: b)])
        let (loaded, errors) = LoadedSuites.load(files: [a, b], decodedScenarios: 2, deferAbove: 0)
        #expect(errors.isEmpty)
        #expect(loaded.items.map(\.name) == whole.items.map(\.name))
        #expect(loaded.items.map(\.line) == whole.items.map(\.line))
        #expect(loaded.items.map(\.tags) == whole.items.map(\.tags))
        #expect(loaded.items.map(\.skipReason) == whole.items.map(\.skipReason))
        #expect(
            loaded.items.map(\.name) == ["one", "two [state=background]", "two [state=foreground]", "three", "four"])
        #expect(loaded.decodedCount == 2)
        for item in loaded.items.reversed() {
            let (suite, scenario) = try #require(try loaded.scenario(for: item))
            let (_, expected) = try #require(try whole.scenario(for: item))
            #expect(suite.path == expected.file && scenario.name == expected.name)
            #expect(scenario.parameters == expected.parameters && scenario.skipReason == expected.skipReason)
            #expect(String(reflecting: scenario.steps) == String(reflecting: expected.steps))
        }
        // Decoded for their attempts, let go of after the last.
        #expect(loaded.decodedCount == 5)
        loaded.release(loaded.items[4])
        #expect(try loaded.scenario(for: loaded.items[4]) == nil)
        #expect(loaded.decodedCount == 4)
    }
}

extension BridgeTests {
    /// A run whose scenarios are decoded again when they run writes the report a run that kept them decoded writes:
    /// the same results, failures at the same `file:line:col`.
    @Test func aRunOfDeferredScenariosWritesTheSameReport() async throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        let suite = try dir.write(
            "deferred.yaml",
            """
            name: deferred
            scenarios:
              - name: delivered
                steps:
                  - send: { to: iphone, payload: { aps: { alert: "hi" } } }
                    expect: { status: 200, delivered: true }
              - name: by state
                parameters: { state: [background, not-running] }
                steps:
                  - state: ${scenario.state}
                  - send: { to: iphone, payload: { aps: { alert: "hi" } } }
                    expect: { status: 200 }
              - name: wrong status
                steps:
                  - send: { to: iphone, payload: { aps: { alert: "hi" } } }
                    expect: { status: 410 }
              - { name: later, skip: not today, steps: [tap] }

            """)
        func report(decoded: Int) async throws -> String {
            var configuration = RunConfiguration(
                paths: [suite], junitPath: dir.file("junit-\(decoded).xml"), environment: [:])
            configuration.decodedScenarios = decoded
            configuration.deferAbove = 0
            let prepared = try SuiteRun.prepare(configuration)
            #expect(prepared.loaded.decodedCount == min(decoded, 5))
            _ = try await SuiteRun.execute(prepared, console: nil)
            let xml = try String(contentsOfFile: configuration.junitPath, encoding: .utf8)
            // Times and timestamps differ from run to run.
            return xml.replacingOccurrences(
                of: #"(time|timestamp)="[^"]*""#, with: #"$1="""#, options: .regularExpression)
        }
        let kept = try await report(decoded: 1000)
        let deferred = try await report(decoded: 1)
        #expect(deferred == kept)
        #expect(kept.contains(#"tests="5""#) && kept.contains("deferred.yaml:15:"))
    }
}

extension BridgeTests {
    /// A deferred scenario is what loading found: a `requires:` file made after loading does not change its skip.
    @Test func aDeferredScenarioKeepsWhatLoadingFoundOfItsRequiredFile() throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        let suite = try dir.write(
            "r.yaml",
            "scenarios:\n  - name: first\n    steps: [{ run: \"true\" }]\n"
                + "  - name: needs\n    requires: { file: made.txt }\n    steps: [{ run: \"true\" }]\n")
        let (loaded, errors) = LoadedSuites.load(files: [suite], decodedScenarios: 1, deferAbove: 0)
        #expect(errors.isEmpty && loaded.decodedCount == 1)
        _ = try dir.write("made.txt", "now here")
        let (_, scenario) = try #require(try loaded.scenario(for: loaded.items[1]))
        #expect(scenario.skipReason == "requires made.txt, which is not there")
        #expect(loaded.items[1].skipReason == scenario.skipReason)
    }
}

extension BridgeTests {
    /// Every scenario of the repository's suites (parameters, includes, snapshots, FCM, Android…), decoded again from
    /// its deferred item, is the scenario loading keeps decoded.
    @Test func everyRepositoryScenarioDecodesAgainAsItLoaded() throws {
        func prepared(decoded: Int) throws -> PreparedRun {
            var configuration = RunConfiguration(paths: [SuiteFiles.suites], environment: [:])
            configuration.decodedScenarios = decoded
            configuration.deferAbove = 0
            return try SuiteRun.prepare(configuration)
        }
        let kept = try prepared(decoded: 100_000)
        let deferred = try prepared(decoded: 0)
        #expect(kept.loaded.items.count > 100)
        // A suite with an anchor, an alias or a tag in a scenario keeps its scenarios decoded.
        #expect(deferred.loaded.decodedCount < kept.loaded.items.count / 4)
        #expect(deferred.loaded.items == kept.loaded.items)
        for item in kept.loaded.items {
            let (_, expected) = try #require(try kept.loaded.scenario(for: item))
            let (suite, scenario) = try #require(try deferred.loaded.scenario(for: item))
            #expect(suite.path == item.classname && scenario.name == expected.name && scenario.line == expected.line)
            #expect(scenario.parameters == expected.parameters && scenario.skipReason == expected.skipReason)
            // Steps are not Equatable, and their JSON objects print in each dictionary's own order: the steps' kinds
            // and positions here, the nodes they decode from in `DeferredItemTests`.
            #expect(scenario.steps.map(\.keyword) == expected.steps.map(\.keyword), "\(item.id)")
            #expect(scenario.steps.map(\.range) == expected.steps.map(\.range), "\(item.id)")
        }
    }
}

extension BridgeTests {
    /// Small files defer their scenarios too once the run has read as many as it keeps decoded: a suite of many small
    /// files holds what one big file would.
    @Test func smallFilesDeferOnceTheRunHasReadWhatItKeepsDecoded() throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        for file in ["a", "b", "c"] {
            _ = try dir.write(
                "\(file).yaml",
                Self.suiteText((1...3).map { "\(file)\($0)" }))
        }
        var configuration = RunConfiguration(paths: [dir.path], environment: [:])
        configuration.decodedScenarios = 4
        let prepared = try SuiteRun.prepare(configuration)
        #expect(prepared.loaded.items.count == 9)
        // The first two files were read whole (under 1 MiB, before 4 scenarios were read): their 6 stay decoded; the
        // third file's are deferred.
        #expect(prepared.loaded.decodedCount == 6)
        for item in prepared.loaded.items {
            #expect(try prepared.loaded.scenario(for: item)?.1.name == item.name)
        }
    }
}

extension BridgeTests {
    /// Files named one by one (not discovered) defer the same way.
    @Test func namedFilesDeferOnceTheRunKeepsAllItWillDecoded() throws {
        let dir = try TempDirectory("pushcheck-bridge")
        defer { dir.remove() }
        let files = try ["a", "b", "c"].map { file in
            try dir.write(
                "\(file).yaml",
                Self.suiteText((1...3).map { "\(file)\($0)" }))
        }
        let (loaded, errors) = LoadedSuites.load(files: files, decodedScenarios: 4)
        #expect(errors.isEmpty && loaded.items.count == 9)
        #expect(loaded.decodedCount == 6)
        for item in loaded.items { #expect(try loaded.scenario(for: item)?.1.name == item.name) }
    }
}
