import Foundation
import ScenarioChecks
import SuiteFormat

/// What the runner passes to every scenario.
package struct RunEnvironment: Sendable {
    /// e.g. `http://127.0.0.1:PORT` (serves Suites/pages/, HTTP/1.1 + h2c); `${fixture.http}`.
    package var fixtureHTTPURL: String
    /// e.g. `https://127.0.0.1:PORT` (HTTP/1.1 + h2 via ALPN); `${fixture.https}`.
    package var fixtureHTTPSURL: String
    /// PEM file of the CA that signed the fixture server's certificate (the device's web view trusts it).
    package var fixtureCAPath: String
    /// `${env.NAME}`.
    package var environment: [String: String]
    /// Upper bound for one step (a send, a command without its own timeout, a page load).
    package var stepTimeout: Duration
    /// Mixed into every device's seed: the same seed gives the same tokens and transcript.
    package var seed: UInt64
    /// 1-based retry attempt.
    package var attempt: Int
    /// Where `snapshot` checks compare and record (nil: a snapshot check is a harness error).
    package var snapshots: SnapshotStore? = nil
    /// Record each scenario's hops (`ScenarioResult.trace`) for the HTML report; off, a run spends nothing on them.
    package var recordsTrace: Bool

    package init(
        fixtureHTTPURL: String = "", fixtureHTTPSURL: String = "", fixtureCAPath: String = "",
        environment: [String: String] = ProcessInfo.processInfo.environment, stepTimeout: Duration = .seconds(30),
        seed: UInt64 = 0, attempt: Int = 1, snapshots: SnapshotStore? = nil, recordsTrace: Bool = false
    ) {
        self.recordsTrace = recordsTrace
        self.snapshots = snapshots
        self.fixtureHTTPURL = fixtureHTTPURL
        self.fixtureHTTPSURL = fixtureHTTPSURL
        self.fixtureCAPath = fixtureCAPath
        self.environment = environment
        self.stepTimeout = stepTimeout
        self.seed = seed
        self.attempt = attempt
    }
}
