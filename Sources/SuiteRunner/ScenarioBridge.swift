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
/// hold every one of them until its end. Past the first `decodedScenarios` of a run, a scenario is not even held
/// decoded until it runs: loading checks it and keeps where it is written, and `scenario(for:)` decodes it again.
package struct LoadedSuites: Sendable {
    /// How many scenarios a run keeps decoded from loading on (the first ones, which run first): a few megabytes.
    /// Each one past them is decoded twice, when the suite loads and when it runs (tens of microseconds).
    static let decodedScenarios = 1000

    /// Suite files in discovery order, each without its scenarios (`scenario(for:)` gives them).
    package let suites: [Suite]
    /// Every scenario of every suite, in file order.
    package let items: [RunItem]
    /// Per item, its suite's index in `suites`.
    private let suiteOf: [Int]
    private let store: ScenarioStore

    /// Loads every file; collects every load error (not only the first file's). `parsed`: documents of files
    /// already read (`SuiteLoader.examine`), handed over. `decodedScenarios`: how many stay decoded (nil:
    /// `LoadedSuites.decodedScenarios`); `deferAbove`: the size from which a file not in `parsed` has its scenarios
    /// deferred (`SuiteLoader.deferAbove`).
    package static func load(
        files: [String], parsed: consuming [String: YAMLNode] = [:], decodedScenarios: Int? = nil,
        deferAbove: Int = SuiteLoader.deferAbove
    ) -> (loaded: LoadedSuites, errors: [SourceError]) {
        let decodedScenarios = decodedScenarios ?? Self.decodedScenarios
        var suites: [(Suite, [LoadedScenario])] = []
        var errors: [SourceError] = []
        var decoded = 0
        for file in files {
            do {
                // Handed over (taken out of `parsed`): the loader lets go of the document as it decodes it.
                let loaded = try SuiteLoader.load(
                    path: file, root: parsed.removeValue(forKey: file),
                    keepingDecoded: max(0, decodedScenarios - decoded),
                    // Once the run keeps all it will decoded, any file read here defers its scenarios.
                    deferAbove: decoded >= decodedScenarios ? 0 : deferAbove)
                decoded += loaded.scenarios.count { $0.decoded != nil }
                suites.append(loaded)
            } catch {
                errors.append(error)
            }
        }
        return (LoadedSuites(loaded: suites), errors)
    }

    /// Wraps already-loaded suites.
    package init(suites loadedSuites: [Suite]) {
        self.init(loaded: loadedSuites.map { ($0, $0.scenarios.map(LoadedScenario.decoded)) })
    }

    private init(loaded: [(suite: Suite, scenarios: [LoadedScenario])]) {
        var suites: [Suite] = []
        var items: [RunItem] = []
        var suiteOf: [Int] = []
        var scenarios: [StoredScenario?] = []
        // Arrays of their final size: grown by appending, they ended up to twice that (a run keeps them to its end).
        let total = loaded.reduce(0) { $0 + $1.scenarios.count }
        items.reserveCapacity(total)
        suiteOf.reserveCapacity(total)
        scenarios.reserveCapacity(total)
        // Equal tag lists share one array (a suite's scenarios mostly repeat a few): one array a list, not a scenario.
        var tagLists = Set<[String]>()
        for (suiteIndex, (suite, loadedScenarios)) in loaded.enumerated() {
            for loadedScenario in loadedScenarios {
                // The item keeps what the run plans with; the store, the scenario or where it is written.
                let facts: (name: String, tags: [String], file: String, line: Int, skip: String?)
                switch loadedScenario {
                case .decoded(let s):
                    facts = (s.name, s.tags, s.file, s.line, s.skipReason)
                    scenarios.append(.decoded(s))
                case .deferred(let s):
                    facts = (s.name, s.tags, s.file, s.line, s.skipReason)
                    scenarios.append(.deferred(s.source))
                }
                items.append(
                    RunItem(
                        classname: suite.path, name: facts.name, tags: tagLists.insert(facts.tags).memberAfterInsert,
                        file: facts.file, line: facts.line,
                        skipReason: facts.skip, handle: items.count))
                suiteOf.append(suiteIndex)
            }
            suites.append(
                Suite(
                    path: suite.path, name: suite.name, scenarios: [], world: suite.world, variables: suite.variables))
        }
        self.suites = suites
        self.items = items
        self.suiteOf = suiteOf
        self.store = ScenarioStore(scenarios)
    }

    /// The suite and scenario behind an item; nil once the item was released. A deferred scenario is decoded here
    /// (and kept, for its retries, until it is released); decoding it again fails only if its checks changed since
    /// loading, which would be a bug.
    package func scenario(for item: RunItem) throws(SourceError) -> (Suite, Scenario)? {
        let suite = suites[suiteOf[item.handle]]
        guard
            let scenario = try store.scenario(
                item.handle,
                decode: { source throws(SourceError) in
                    try SuiteLoader.decode(source, named: item.name, skip: item.skipReason, in: suite)
                })
        else { return nil }
        return (suite, scenario)
    }

    /// Each suite's scenario names, in file order (from the items: the run keeps them once).
    var scenarioNames: [[String]] {
        var names = Array(repeating: [String](), count: suites.count)
        for item in items { names[suiteOf[item.handle]].append(item.name) }
        return names
    }

    /// Lets go of the item's scenario (its last attempt is over): `scenario(for:)` gives nil from then on.
    func release(_ item: RunItem) { store.release(item.handle) }

    /// How many scenarios are held decoded now (for tests).
    var decodedCount: Int { store.decodedCount }
}

/// A scenario as a run holds it: decoded, or where it is written (the facts a run plans with are in its `RunItem`).
private enum StoredScenario: Sendable {
    case decoded(Scenario)
    case deferred(ScenarioSource)

    var decoded: Scenario? {
        if case .decoded(let scenario) = self { return scenario }
        return nil
    }
}

/// The loaded scenarios by item handle, each until it is released.
private final class ScenarioStore: Sendable {
    /// Every this many releases, the freed pages go back to the system (`FreedMemory`): the scenarios were
    /// allocated by the loading threads, whose arenas the threads running scenarios do not allocate from.
    static let releasesPerPurge = 1000

    private let scenarios: Mutex<(all: [StoredScenario?], released: Int)>

    init(_ scenarios: [StoredScenario?]) { self.scenarios = Mutex((scenarios, 0)) }

    /// The scenario of `handle`; a deferred one is decoded by `decode` (outside the lock) and kept decoded.
    func scenario(
        _ handle: Int, decode: (ScenarioSource) throws(SourceError) -> Scenario
    ) throws(SourceError) -> Scenario? {
        switch scenarios.withLock({ $0.all[handle] }) {
        case nil: return nil
        case .decoded(let scenario)?: return scenario
        case .deferred(let deferred)?:
            let scenario = try decode(deferred)
            scenarios.withLock { s in
                if s.all[handle] != nil { s.all[handle] = .decoded(scenario) }
            }
            return scenario
        }
    }

    var decodedCount: Int { scenarios.withLock { $0.all.count { $0?.decoded != nil } } }

    func release(_ handle: Int) {
        let (released, purge) = scenarios.withLock { s -> (StoredScenario?, Bool) in
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
