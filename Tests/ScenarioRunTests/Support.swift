import Foundation
import HTTPServer
@testable import PushCrypto
import PushcheckTestSupport
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing
@testable import YAMLSource

/// Paths and helpers shared by the ScenarioRun tests.
enum Support {
    static let root = SuiteFiles.root
    static let suites = SuiteFiles.suites

    /// A path inside the test process's scratch directory.
    static func scratch(_ name: String) throws -> String { try SuiteFiles.scratch(name) }

    /// Writes `text` to a fresh file in a temp directory and returns its path.
    static func write(_ text: String, name: String = "suite.yaml", extra: [String: String] = [:]) throws -> String {
        try SuiteFiles.write(text, name: name, extra: extra)
    }

    /// Loads a suite, failing the test with the rendered error.
    static func load(_ path: String) throws -> Suite {
        do { return try SuiteLoader.load(path: path) } catch {
            Issue.record("\(error.rendered(color: false))")
            throw error
        }
    }

    /// The SourceError loading `text` gives (nil when it loads).
    static func loadError(_ text: String, extra: [String: String] = [:]) throws -> SourceError? {
        try SuiteFiles.error(loading: text, extra: extra) { (path: String) throws(SourceError) in
            _ = try SuiteLoader.load(path: path)
        }
    }

    /// Runs every scenario of a suite; returns (scenario, result) pairs.
    static func run(_ suite: Suite, environment: RunEnvironment = RunEnvironment()) async -> [(
        Scenario, ScenarioResult
    )] {
        var out: [(Scenario, ScenarioResult)] = []
        for s in suite.scenarios { out.append((s, await ScenarioExecutor.run(s, in: suite, environment: environment))) }
        return out
    }

    static func describe(_ r: ScenarioResult) -> String {
        switch r.status {
        case .passed: return "passed"
        case .skipped(let s): return "skipped: \(s)"
        case .failed(let f):
            return "failed:\n" + f.map(\.description).joined(separator: "\n") + "\n--- transcript\n" + r.transcript
        case .error(let t, let m, let d): return "error \(t.rawValue): \(m)\n\(d)\n--- transcript\n" + r.transcript
        }
    }

    static func passed(_ r: ScenarioResult) -> Bool { if case .passed = r.status { true } else { false } }

    static func failures(_ r: ScenarioResult) -> [AssertionFailure] {
        if case .failed(let f) = r.status { f } else { [] }
    }
}

extension Support {
    /// Runs one scenario whose `steps:` are `steps` (indented as list items at column 1) in the news-app world
    /// (or `world`), against the test fixture server.
    static func runSteps(
        _ steps: String, world: String? = nil, environment: RunEnvironment = FixturePages.environment
    ) async throws -> (Scenario, ScenarioResult) {
        let body = steps.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(
            separator: "\n")
        let text =
            (world ?? "world:\n  include: \(suites)/apps/news-app.yaml") + "\nscenarios:\n  - name: t\n    steps:\n"
            + body + "\n"
        let path = try write(text)
        let suite = try load(path)
        let scenario = try #require(suite.scenarios.first)
        return (scenario, await ScenarioExecutor.run(scenario, in: suite, environment: environment))
    }

    /// A failure's actual value without the `[read: …]` note on what the check read (the state or the window).
    static func withoutReadNote(_ actual: String) -> String {
        guard actual.hasSuffix("]"), let r = actual.range(of: " [read: ", options: .backwards) else { return actual }
        return String(actual[..<r.lowerBound])
    }

    /// The single failure of a result (records an issue otherwise).
    static func onlyFailure(_ r: ScenarioResult, sourceLocation: SourceLocation = #_sourceLocation) -> AssertionFailure?
    {
        let f = failures(r)
        #expect(f.count == 1, "expected one failure: \(describe(r))", sourceLocation: sourceLocation)
        return f.first
    }
}
