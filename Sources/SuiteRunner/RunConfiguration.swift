import Foundation
import PushModel
import Reports
import ScenarioChecks
import SuiteFormat

/// Everything `pushcheck run` decided from its arguments.
package struct RunConfiguration: Sendable {
    /// Files and directories to run (default `Suites`).
    package var paths: [String]
    /// Which scenarios run.
    package var selection: Selection
    /// Jobs, retries, timeouts, fail-fast.
    package var policy: RunPolicy
    /// Where the JUnit report goes.
    package var junitPath: String
    /// Where the self-contained HTML report goes (`--html`); nil writes none.
    package var htmlPath: String?
    /// Directory served by the fixture web server.
    package var pagesDirectory: String
    /// Per-step timeout handed to the executor.
    package var stepTimeout: Duration
    /// Run seed (tokens and other generated values are derived from it).
    package var seed: UInt64
    /// `${env.NAME}` values.
    package var environment: [String: String]
    /// Properties written into every testsuite (versions; seed and shard are added by the run).
    package var properties: [ReportProperty]
    /// What `snapshot` checks do: record new ones (default), update (`--update-snapshots`), or treat a
    /// missing one as a failure (`--ci`, or `CI` set to true/1 in `environment`).
    package var snapshotMode: SnapshotStore.Mode = .local
    /// How many scenarios stay decoded from loading on; those past them are decoded again when they run
    /// (`LoadedSuites.decodedScenarios`).
    var decodedScenarios = LoadedSuites.decodedScenarios
    /// The size from which a suite file's scenarios can be deferred (`SuiteLoader.deferAbove`).
    var deferAbove = SuiteLoader.deferAbove

    /// Creates a configuration; `junitPath` defaults to `Reports/junit.xml`, or `Reports/junit-<i>-of-<N>.xml`
    /// for a shard; `pagesDirectory` defaults to `pages/` inside the first directory path, else `Suites/pages`.
    package init(
        paths: [String] = ["Suites"], selection: Selection = Selection(), policy: RunPolicy = RunPolicy(),
        junitPath: String? = nil, pagesDirectory: String? = nil, stepTimeout: Duration = .seconds(30),
        seed: UInt64 = 0, environment: [String: String] = ProcessInfo.processInfo.environment,
        properties: [ReportProperty] = []
    ) {
        self.paths = paths.isEmpty ? ["Suites"] : paths
        self.selection = selection
        self.policy = policy
        self.junitPath = junitPath ?? Self.defaultJUnitPath(shard: selection.shard)
        self.pagesDirectory = pagesDirectory ?? Self.defaultPagesDirectory(paths: self.paths)
        self.stepTimeout = stepTimeout
        self.seed = seed
        self.environment = environment
        self.properties = properties
        self.snapshotMode = Self.isCI(environment) ? .ci : .local
    }

    /// `CI=true` / `CI=1` (as GitHub Actions, GitLab and most CI systems set it).
    static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return value == "true" || value == "1" || value == "yes"
    }

    /// `Reports/junit.xml`, or `Reports/junit-<i>-of-<N>.xml` when sharded.
    static func defaultJUnitPath(shard: ShardSelector) -> String {
        shard.count > 1 ? "Reports/" + shard.reportFileName : "Reports/junit.xml"
    }

    /// The suite roots `--shard` splits by: the command line's paths, spelled as discovery spells the files found
    /// under them.
    package var suiteRoots: [String] { paths.map(SuiteDiscovery.normalized) }

    /// `<first directory>/pages` when it exists; for a suite file, the `pages/` of the nearest directory
    /// above it that has one (its suite root); else `Suites/pages`.

    static func defaultPagesDirectory(paths: [String]) -> String {
        func isDirectory(_ p: String) -> Bool {
            var flag: ObjCBool = false
            return FileManager.default.fileExists(atPath: p, isDirectory: &flag) && flag.boolValue
        }
        for path in paths {
            var dir = SuiteDiscovery.normalized(path)
            if !isDirectory(dir) { dir = PathText.directory(of: dir) }
            if dir.isEmpty { dir = "." }
            // Walk up from the file's directory: `Suites/sub/x.yaml` finds `Suites/pages`.
            // `standardizingPath` turns "." into "", and Foundation traps on `deletingLastPathComponent` of "":
            // a suite file named relative to the working directory stops at "./pages".
            var current = (dir as NSString).standardizingPath
            if current.isEmpty { current = "." }
            while true {
                if isDirectory(current + "/pages") { return current + "/pages" }
                if current == "." || current == "/" { break }
                let parent = PathText.directory(of: current)
                if parent == current || parent.isEmpty { break }
                current = parent
            }
        }
        return "Suites/pages"
    }

    /// Properties of this run: seed, shard, jobs, retries, then the caller's.
    package var runProperties: [ReportProperty] {
        [
            ReportProperty("seed", String(seed)),
            ReportProperty("shard", selection.shard.description),
            ReportProperty("jobs", String(policy.jobs)),
            ReportProperty("retries", String(policy.retries)),
        ] + properties
    }
}
