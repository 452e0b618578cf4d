import Foundation
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
import Testing

/// Every suite in Suites/ loads and passes, in-process, against a local fixture server.
@Suite struct SuitesDirectoryTests {
    static func suiteFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Support.suites)) ?? []
        // suite.schema.json is the schema editors check suites with, not a suite.
        return names.filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".json")) && $0 != "suite.schema.json" }.sorted()
    }

    @Test func suitesDirectoryHasTheSeedSuites() {
        let files = Self.suiteFiles()
        for seed in ["seed-000", "seed-001", "seed-002", "seed-003", "seed-004", "apns-gateway"] {
            #expect(files.contains { $0.hasPrefix(seed) }, "no suite for \(seed) in Suites/")
        }
        #expect(!SuiteLoader.isSuiteFile(path: Support.suites + "/apps/news-app.yaml"))
    }

    @Test(arguments: suiteFiles())
    func suitePasses(_ file: String) async throws {
        let path = Support.suites + "/" + file
        #expect(SuiteLoader.isSuiteFile(path: path))
        let suite = try Support.load(path)
        #expect(!suite.scenarios.isEmpty)
        // Checked-in snapshots must exist and match (CI mode writes none).
        var environment = FixturePages.environment
        environment.snapshots = SnapshotStore(mode: .ci)
        for (scenario, result) in await Support.run(suite, environment: environment) {
            #expect(Support.passed(result), "\(scenario.name): \(Support.describe(result))")
        }
    }
}
