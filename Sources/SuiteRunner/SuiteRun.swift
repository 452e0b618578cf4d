import Foundation
import Reports
import ScenarioChecks
import ScenarioRun
import SuiteFormat
import YAMLSource

/// A run after discovery, loading and selection: what `--list` prints and what `execute` runs.
package struct PreparedRun: Sendable {
    /// The configuration it was prepared from.
    package let configuration: RunConfiguration
    /// Every discovered suite, loaded.
    package let loaded: LoadedSuites
    /// The scenarios this run executes, in file order.
    package let selected: [RunItem]
}

/// How a run ended.
package struct RunSummary: Sendable {
    /// The final report (also on disk at `reportPath`).
    package let report: TestReport
    /// Where the report was written.
    package let reportPath: String
    /// Where the HTML report was written: nil when none was asked for or writing it failed (`reportError`).
    package var htmlPath: String?
    /// True when Ctrl-C (cancellation) stopped the run before every scenario finished.
    package let interrupted: Bool
    /// Set when some report write failed (the last successful snapshot is on disk).
    package let reportError: ReportsError?
    /// Selected scenarios that did not finish (interrupted while running or never started).
    package let unfinished: Int
    /// Snapshots written, updated, obsolete or removed by this run.
    package internal(set) var snapshots = SnapshotSummary()

    /// 0 all passed (skips allowed), 1 a scenario failed an assertion, 3 a scenario errored (timeout,
    /// crashed command, unreachable page) or the report could not be written, 130 interrupted.
    package var exitCode: Int32 {
        if interrupted { return 130 }
        if reportError != nil { return 3 }
        let totals = report.totals
        if totals.errors > 0 { return 3 }
        if totals.failures > 0 || snapshots.obsoleteFailsRun { return 1 }
        return 0
    }
}

/// `pushcheck run` without the command line: discover, load, select, start the fixture server, schedule,
/// and keep the JUnit report on disk up to date.
package enum SuiteRun {
    /// Runs one scenario attempt; production passes `ScenarioExecutor.run`.
    package typealias Executor = @Sendable (Scenario, Suite, RunEnvironment) async -> ScenarioResult

    /// Discovers and loads the suites and applies the selection. Every load error is collected.
    package static func prepare(_ configuration: RunConfiguration) throws(RunError) -> PreparedRun {
        let files: [String]
        // Discovery parses the files it walks to tell suites from includes: loading takes those documents.
        var parsed: [String: YAMLNode] = [:]
        // Scenarios in the files read so far: once they pass what the run keeps decoded, every file defers its
        // scenarios whatever its size (a suite of many small files is as large as one big file).
        var scenariosSeen = 0
        do {
            files = try SuiteDiscovery.find(paths: configuration.paths) { path in
                let deferAbove = scenariosSeen >= configuration.decodedScenarios ? 0 : configuration.deferAbove
                let (isSuite, root) = SuiteLoader.examine(path: path, deferAbove: deferAbove)
                scenariosSeen += root?["scenarios"]?.items?.count ?? 0
                parsed[path] = root
                return isSuite
            }
        } catch {
            throw .discovery(error)
        }
        guard !files.isEmpty else { throw .noSuites(paths: configuration.paths) }
        if let conflict = ReportTargets.conflict(
            junit: configuration.junitPath, html: configuration.htmlPath, suites: files)
        {
            throw .reportPaths(conflict)
        }
        let (loaded, errors) = LoadedSuites.load(
            files: files, parsed: consume parsed, decodedScenarios: configuration.decodedScenarios,
            deferAbove: configuration.deferAbove)
        // The documents are garbage now, in the loading threads' arenas, where running the scenarios would not reuse
        // them.
        FreedMemory.release()
        guard errors.isEmpty else { throw .load(errors) }
        let selected = configuration.selection.apply(loaded.items, roots: configuration.suiteRoots)
        // What the selection leaves out never runs: let go of it now (`--filter` picking 10 of 10,000 keeps 10).
        let kept = Set(selected.map(\.handle))
        for item in loaded.items where !kept.contains(item.handle) { loaded.release(item) }
        return PreparedRun(configuration: configuration, loaded: loaded, selected: selected)
    }

    /// Runs the selected scenarios. Cancel the calling task (Ctrl-C) to stop: running scenarios are
    /// cancelled, the rest are not started, and the report still holds every finished scenario.
    /// `startUp`, begun before `prepare` (`RunStartUp.begin`), brings the fixture server; without it the fixture
    /// server starts here.
    package static func execute(
        _ prepared: PreparedRun, console: ConsoleReporter?, startUp: RunStartUp? = nil,
        executor: @escaping Executor = { await ScenarioExecutor.run($0, in: $1, environment: $2) }
    ) async throws(RunError) -> RunSummary {
        let configuration = prepared.configuration
        let started = ContinuousClock.now
        let fixture: FixtureServer
        if let startUp {
            switch await startUp.fixtureServer() {
            case .success(let server): fixture = server
            case .failure(let error): throw .fixture(error)
            }
        } else {
            do {
                fixture = try FixtureServer(pagesDirectory: configuration.pagesDirectory)
            } catch {
                throw .fixture(error)
            }
        }
        defer { fixture.stop() }

        let reportURL = URL(fileURLWithPath: configuration.junitPath)
        let htmlURL = configuration.htmlPath.map { URL(fileURLWithPath: $0) }
        let report: IncrementalReport
        do {
            try? FileManager.default.createDirectory(
                at: reportURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            report = try IncrementalReport(
                url: reportURL, hostname: TestReport.currentHostname(), properties: configuration.runProperties,
                plan: plan(prepared), policy: .coalesced(),
                htmlGenerator: configuration.htmlPath.map { _ in htmlGenerator(configuration) })
            // The HTML report's path is checked as the JUnit report's is, by writing a page there before anything
            // runs: a path that cannot be written fails now, not after the last scenario, and a run that dies leaves
            // no earlier run's page there.
            if let htmlURL {
                try? FileManager.default.createDirectory(
                    at: htmlURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                try HTMLReport.writeRunInProgress(scenarios: prepared.selected.count, to: htmlURL)
            }
        } catch {
            throw .report(error)
        }

        let snapshots = SnapshotStore(mode: configuration.snapshotMode)
        for (suite, names) in zip(prepared.loaded.suites, prepared.loaded.scenarioNames) {
            snapshots.register(suite: suite.path, scenarios: names)
        }
        let environment = RunEnvironment(
            fixtureHTTPURL: fixture.httpURL, fixtureHTTPSURL: fixture.httpsURL, fixtureCAPath: fixture.caPath,
            environment: configuration.environment, stepTimeout: configuration.stepTimeout, seed: configuration.seed,
            snapshots: snapshots, recordsTrace: configuration.htmlPath != nil)
        let loaded = prepared.loaded
        let scheduler = ScenarioScheduler(policy: configuration.policy) { item, attempt in
            let found: (Suite, Scenario)?
            do throws(SourceError) {
                found = try loaded.scenario(for: item)
            } catch {
                return AttemptResult(
                    outcome: .error(ProblemReport(message: error.rendered(color: false), type: "internal")))
            }
            guard let (suite, scenario) = found else {
                // Released only after its last attempt: reaching this is a bug of ours, reported as the case's error.
                return AttemptResult(
                    outcome: .error(
                        ProblemReport(
                            message:
                                "pushcheck released \(item.id) before its attempt \(attempt) (a bug: please report it)",
                            type: "internal")))
            }
            var attemptEnvironment = environment
            attemptEnvironment.attempt = attempt
            return AttemptResult(await executor(scenario, suite, attemptEnvironment))
        }
        let recorder = RunRecorder(report: report, console: console, keepingFinished: false)
        // Each scenario is let go of once it has finished: the run's memory then does not hold every loaded one.
        let outcome = await scheduler.run(prepared.selected, recorder: recorder) { loaded.release($0) }

        let final: RenderedReport
        var reportError: ReportsError?
        do {
            final = try report.finishRendered()
        } catch {
            final = report.snapshotRendered()
            reportError = error
        }
        var htmlWritten: String?
        if let htmlURL, let htmlPath = configuration.htmlPath {
            let facts = ReportData.RunFacts(
                wallSeconds: (ContinuousClock.now - started).seconds, generator: htmlGenerator(configuration))
            do {
                try HTMLReport.write(final, facts: facts, to: htmlURL)
                htmlWritten = htmlPath
            } catch {
                if reportError == nil { reportError = error }
            }
        }
        var summary = RunSummary(
            report: final.report, reportPath: configuration.junitPath, htmlPath: htmlWritten,
            interrupted: outcome.interrupted, reportError: reportError, unfinished: outcome.unfinished)
        // An interrupted run did not reach every snapshot: nothing it skipped is obsolete.
        summary.snapshots = snapshots.finish(
            suites: zip(loaded.suites, loaded.scenarioNames).map { ($0.path, $1) }, findObsolete: !outcome.interrupted)
        return summary
    }

    /// The HTML report's `generator`: `pushcheck <version>`.
    static func htmlGenerator(_ configuration: RunConfiguration) -> String {
        let version = configuration.properties.first { $0.name == "pushcheck.version" }?.value
        return "pushcheck" + (version.map { " " + $0 } ?? "")
    }

    /// One planned testsuite per suite file with selected scenarios, in discovery order.
    static func plan(_ prepared: PreparedRun) -> [PlannedSuite] {
        var order: [String] = []
        var cases: [String: [PlannedCase]] = [:]
        for item in prepared.selected {
            if cases[item.classname] == nil { order.append(item.classname) }
            cases[item.classname, default: []].append(
                PlannedCase(name: item.name, line: item.line > 0 ? item.line : nil))
        }
        let titles = Dictionary(prepared.loaded.suites.map { ($0.path, $0.name) }) { first, _ in first }
        return order.map { PlannedSuite(name: $0, file: $0, cases: cases[$0] ?? [], title: titles[$0]) }
    }
}
