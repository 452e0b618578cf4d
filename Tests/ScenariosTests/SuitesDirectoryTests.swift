import Foundation
import Scenarios
import Testing

/// Every suite in Suites/ loads and passes, in-process.
@Suite struct SuitesDirectoryTests {
    @Test func apnsGatewaySuitePasses() async throws {
        let suite = try Support.load(Support.suites + "/apns-gateway.yaml")
        #expect(suite.scenarios.count >= 8)
        for (scenario, result) in await Support.run(suite) {
            #expect(Support.passed(result), "\(scenario.name): \(Support.describe(result))")
        }
    }
}

extension SuitesDirectoryTests {
    @Test func seed000SuitePasses() async throws {
        let suite = try Support.load(Support.suites + "/seed-000-custom-data.yaml")
        for (scenario, result) in await Support.run(suite) {
            #expect(Support.passed(result), "\(scenario.name): \(Support.describe(result))")
        }
    }
}
