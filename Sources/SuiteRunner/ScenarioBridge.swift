import Foundation
import PushModel
import Reports
import ScenarioChecks
import ScenarioRun
import SuiteFormat
import YAMLSource

/// The suites of a run after discovery and loading, with every scenario as a `RunItem` whose `handle`
/// indexes `entries`.
package struct LoadedSuites: Sendable {
    /// Suite files in discovery order.
    package let suites: [Suite]
    /// Every scenario of every suite, in file order.
    package let items: [RunItem]
    private let entries: [(suite: Int, scenario: Int)]

    /// Loads every file; collects every load error (not only the first file's). `parsed`: documents of files
    /// already read (`SuiteLoader.examine`).
    package static func load(
        files: [String], parsed: [String: YAMLNode] = [:]
    ) -> (loaded: LoadedSuites, errors: [SourceError]) {
        var suites: [Suite] = []
        var errors: [SourceError] = []
        for file in files {
            do {
                suites.append(try SuiteLoader.load(path: file, root: parsed[file]))
            } catch {
                errors.append(error)
            }
        }
        return (LoadedSuites(suites: suites), errors)
    }

    /// Wraps already-loaded suites.
    package init(suites: [Suite]) {
        self.suites = suites
        var items: [RunItem] = []
        var entries: [(Int, Int)] = []
        for (suiteIndex, suite) in suites.enumerated() {
            for (scenarioIndex, scenario) in suite.scenarios.enumerated() {
                items.append(
                    RunItem(
                        classname: suite.path, name: scenario.name, tags: scenario.tags, file: scenario.file,
                        line: scenario.line, skipReason: scenario.skipReason, handle: entries.count))
                entries.append((suiteIndex, scenarioIndex))
            }
        }
        self.items = items
        self.entries = entries
    }

    /// The suite and scenario behind an item.
    package func scenario(for item: RunItem) -> (Suite, Scenario) {
        let entry = entries[item.handle]
        let suite = suites[entry.suite]
        return (suite, suite.scenarios[entry.scenario])
    }
}

extension AttemptResult {
    /// The report view of an executor result: assertion failures become one `failure` (every failed check
    /// in the detail, with expected/actual and the relevant events), harness faults an `error`.
    package init(_ result: ScenarioResult) {
        let outcome: CaseOutcome
        var checks: [CheckFailureReport] = []
        switch result.status {
        case .passed:
            outcome = .passed
        case let .failed(failures):
            let first = failures.first
            var message = first?.message ?? "assertion failed"
            if failures.count > 1 { message += " (and \(failures.count - 1) more)" }
            outcome = .failure(
                ProblemReport(
                    message: message, type: "assertion",
                    detail: failures.map(\.description).joined(separator: "\n\n")))
            checks = failures.map { f in
                CheckFailureReport(
                    message: f.message, expected: f.expected, actual: f.actual, file: f.file, line: f.line,
                    column: f.column, events: f.events, hop: f.focus?.hop, traceIndex: f.traceIndex, diff: f.diff)
            }
        case let .error(kind, message, detail):
            outcome = .error(ProblemReport(message: message, kind: kind, detail: detail))
        case let .skipped(reason):
            outcome = .skipped(message: reason)
        }
        self.init(
            outcome: outcome, transcript: result.transcript, seconds: result.duration.seconds, checks: checks,
            trace: result.trace)
    }
}
