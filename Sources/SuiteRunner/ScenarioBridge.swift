import Foundation
import PushModel
import Reports
import ScenarioChecks
import ScenarioRun
import SuiteFormat
import Synchronization
import YAMLSource

/// The suites of a run after discovery and loading, with every scenario as a `RunItem` whose `handle`
/// indexes the scenarios. The scenarios are kept apart from their suites, one per item, so that a run can let go of
/// each one as it finishes (`release`): a loaded scenario is several kilobytes, and a run's memory would otherwise
/// hold every one of them until its end.
package struct LoadedSuites: Sendable {
    /// Suite files in discovery order, each without its scenarios (`scenario(for:)` gives them).
    package let suites: [Suite]
    /// Each suite's scenario names, in file order.
    let scenarioNames: [[String]]
    /// Every scenario of every suite, in file order.
    package let items: [RunItem]
    /// Per item, its suite's index in `suites`.
    private let suiteOf: [Int]
    private let store: ScenarioStore

    /// Loads every file; collects every load error (not only the first file's). `parsed`: documents of files
    /// already read (`SuiteLoader.examine`), handed over.
    package static func load(
        files: [String], parsed: consuming [String: YAMLNode] = [:]
    ) -> (loaded: LoadedSuites, errors: [SourceError]) {
        var suites: [Suite] = []
        var errors: [SourceError] = []
        for file in files {
            do {
                // Handed over (taken out of `parsed`): the loader lets go of the document as it decodes it.
                suites.append(try SuiteLoader.load(path: file, root: parsed.removeValue(forKey: file)))
            } catch {
                errors.append(error)
            }
        }
        return (LoadedSuites(suites: suites), errors)
    }

    /// Wraps already-loaded suites.
    package init(suites loadedSuites: [Suite]) {
        var suites: [Suite] = []
        var names: [[String]] = []
        var items: [RunItem] = []
        var suiteOf: [Int] = []
        var scenarios: [Scenario?] = []
        for (suiteIndex, suite) in loadedSuites.enumerated() {
            for scenario in suite.scenarios {
                items.append(
                    RunItem(
                        classname: suite.path, name: scenario.name, tags: scenario.tags, file: scenario.file,
                        line: scenario.line, skipReason: scenario.skipReason, handle: items.count))
                suiteOf.append(suiteIndex)
                scenarios.append(scenario)
            }
            names.append(suite.scenarios.map(\.name))
            suites.append(
                Suite(
                    path: suite.path, name: suite.name, scenarios: [], world: suite.world, variables: suite.variables))
        }
        self.suites = suites
        self.scenarioNames = names
        self.items = items
        self.suiteOf = suiteOf
        self.store = ScenarioStore(scenarios)
    }

    /// The suite and scenario behind an item; nil once the item was released.
    package func scenario(for item: RunItem) -> (Suite, Scenario)? {
        guard let scenario = store.scenario(item.handle) else { return nil }
        return (suites[suiteOf[item.handle]], scenario)
    }

    /// Lets go of the item's scenario (its last attempt is over): `scenario(for:)` gives nil from then on.
    func release(_ item: RunItem) { store.release(item.handle) }
}

/// The loaded scenarios by item handle, each until it is released.
private final class ScenarioStore: Sendable {
    /// Every this many releases, the freed pages go back to the system (`FreedMemory`): the scenarios were
    /// allocated by the loading threads, whose arenas the threads running scenarios do not allocate from.
    static let releasesPerPurge = 1000

    private let scenarios: Mutex<(all: [Scenario?], released: Int)>

    init(_ scenarios: [Scenario?]) { self.scenarios = Mutex((scenarios, 0)) }

    func scenario(_ handle: Int) -> Scenario? { scenarios.withLock { $0.all[handle] } }

    func release(_ handle: Int) {
        let (released, purge) = scenarios.withLock { s -> (Scenario?, Bool) in
            defer { s.all[handle] = nil }
            guard s.all[handle] != nil else { return (nil, false) }
            s.released += 1
            return (s.all[handle], s.released % Self.releasesPerPurge == 0)
        }
        withExtendedLifetime(released) {}  // freed here, outside the lock
        if purge { FreedMemory.release() }
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
