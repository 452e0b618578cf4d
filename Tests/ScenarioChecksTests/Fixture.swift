import APNsGateway
@testable import DeviceSimulator
import Foundation
@testable import PushModel
@testable import YAMLSource

@testable import ScenarioChecks
@testable import SuiteFormat

/// Observations built by hand for the check tests: a `SimulatedDevice` driven in memory (no gateway, no world,
/// no sockets), the app from the repository's `Suites/apps/`, and the records of a send or a run as values.
enum Fixture {
    /// The repository's `Suites/` (…/Tests/ScenarioChecksTests/Fixture.swift → …/Suites).
    static let suites: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/Suites"
    }()

    /// The news app of most suites (`com.example.pushdemo`: foreground banners, a tap routes to `detail`).
    static let bundleID = "com.example.pushdemo"

    /// The first app of an app file or a suite's world under `Suites/`.
    static func app(_ file: String = "apps/news-app.yaml") throws -> AppDeclaration {
        guard let app = try SuiteLoader.loadApps(path: suites + "/" + file).first else {
            throw FixtureError.noApp(file)
        }
        return app
    }

    enum FixtureError: Error { case noApp(String) }

    /// A device with `app` set up (installed, authorized, registered), on a manual clock.
    static func device(_ app: AppDeclaration) -> SimulatedDevice {
        let device = SimulatedDevice(
            name: "iphone", udid: "00008110-000A1C2E0E12801E", seed: 1, clock: ManualClock())
        device.setUp(app)
        return device
    }

    /// A push for the news app.
    static func push(_ payload: String, id: String) throws -> IncomingPush {
        IncomingPush(bundleID: bundleID, payload: try JSONValue.parse(payload), apnsID: id)
    }

    /// What an `expect:` after the device's events from `since` (an event count) sees.
    static func observe(
        _ device: SimulatedDevice, since: Int = 0, lastSend: SendRecord? = nil, lastRun: RunRecord? = nil,
        storedPushes: [DeliveredPush] = [], app bundleID: String = bundleID
    ) -> Observation {
        let snapshot = device.snapshot
        let window = snapshot.events.dropFirst(since).filter { $0.bundleID == bundleID || $0.bundleID == nil }
        return Observation(
            snapshot: snapshot, bundleID: bundleID, window: Array(window), storedPushes: storedPushes,
            lastSend: lastSend, lastRun: lastRun)
    }

    /// A send to `token` answered with `status` (and `reason`).
    static func send(
        apnsID: String, status: Int = 200, reason: String? = nil, token: String = String(repeating: "ab", count: 32),
        headers: [(name: String, value: String)] = []
    ) -> SendRecord {
        SendRecord(
            device: "iphone", bundleID: bundleID, environment: .sandbox, token: token, apnsID: apnsID,
            response: SendResponse(
                status: status, reasonText: reason, timestamp: nil, headers: [("apns-id", apnsID)] + headers))
    }

    /// An `expect:` block as a suite writes it (`status: 200, user_info: { a: b }`).
    static func expectation(_ yaml: String) throws -> Expectation {
        try ExpectationDecoder.decode(try YAMLLoader.load(string: yaml, file: "expect.yaml"))
    }

    /// Evaluates `yaml` on `o`: the verdict and the transcript lines.
    static func evaluate(
        _ yaml: String, _ o: Observation, afterRun: Bool = false, variables: [String: String] = [:]
    ) throws -> (verdict: Checker.Verdict, transcript: [String]) {
        var lines: [String] = []
        let verdict = try Checker.evaluate(
            try expectation(yaml), o, afterRun: afterRun, lookup: { variables[$0] }, transcript: &lines)
        return (verdict, lines)
    }
}
