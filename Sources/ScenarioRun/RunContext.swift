import APNsGateway
import DeviceSimulator
import Foundation
import HTTPClient
import PushModel
import ScenarioChecks
import SuiteFormat

/// Why a step stopped the scenario.
enum StepStop: Error {
    /// The product misbehaved (e.g. no notification to tap): reported as a failure.
    case failure(AssertionFailure)
    /// The harness could not do the step: reported as an error.
    case harness(kind: HarnessErrorKind, message: String, detail: String)
}

/// The mutable state of one scenario run: variables, the last send and run, and how far the device
/// logs have been checked and transcribed.
struct RunContext {
    let scenario: Scenario
    let suite: Suite
    let environment: RunEnvironment
    var variables: [String: String]
    var lastSend: SendRecord?
    /// Why there is no last send, shown with a failed check of it (a `run:` step whose backend sent nothing).
    var lastSendNote: String?
    var lastRun: RunRecord?
    /// The requests the last `run:` step's backend made to the world's gateways, in arrival order.
    var backendRequests: [SendRecord] = []
    /// Per device: the event count at the previous `expect` (the start of the window it checks).
    var windowStart: [String: Int] = [:]
    /// Gateway log sequence at the previous `expect`.
    var gatewayWindowStart: UInt64 = 0
    /// FCM log sequence at the previous `expect` (FCM requests after it are in the window).
    var fcmWindowStart: UInt64 = 0
    /// Per device: events already written to the transcript.
    var transcribed: [String: Int] = [:]
    var transcript = Transcript()
    /// The gateway log sequence already written to the transcript, and the entries our own sends made.
    var transcribedGateway: UInt64 = 0
    var sentSequences: Set<UInt64> = []
    /// The FCM log sequences the scenario's own `send: { via: fcm }` steps made.
    var sentFCMSequences: Set<UInt64> = []
    /// For the trace: how long the runner's own sends took on the wall clock (libcurl's total), by log sequence.
    var roundTrips: [UInt64: Duration] = [:]
    var fcmRoundTrips: [UInt64: Duration] = [:]
    /// The HTML report's hops (recorded only for a run that writes one), the line of the step running now,
    /// and how many hops there were at the previous `expect` (where the checks' window starts).
    var trace: TraceRecorder
    var stepLine: Int?
    var traceWindowStart = 0
    var sendCount = 0
    /// `snapshot` checks so far (an unnamed one is named by its position).
    var snapshotCount = 0
    /// Snapshot entry names taken so far in this attempt (two with one name would overwrite each other).
    var snapshotNames: Set<String> = []
    /// Per device: the event count once the world was set up (where a scenario-level snapshot starts).
    var setupWindow: [String: Int] = [:]
    /// Snapshot mismatches so far, with what each says the app did differently: they do not stop the
    /// scenario, so the later snapshots can show what the change broke (`SnapshotCheck.combine`).
    var snapshotFailures: [(failure: AssertionFailure, effects: [String])] = []

    init(scenario: Scenario, suite: Suite, environment: RunEnvironment, start: Date) {
        self.scenario = scenario
        self.suite = suite
        self.environment = environment
        variables = suite.variables
        trace = TraceRecorder(enabled: environment.recordsTrace, start: start)
    }

    /// Draws what the world recorded since the last call into the trace (see `TraceRecorder.collect`).
    mutating func collectTrace(_ world: ScenarioWorld) {
        trace.collect(
            world, sentByRunner: sentSequences, fcmSentByRunner: sentFCMSequences, roundTrips: roundTrips,
            fcmRoundTrips: fcmRoundTrips, stepLine: stepLine)
    }

    /// `failure` with the hop and arrow of the trace it is about (`TraceRecorder.mark`).
    func marked(_ failure: AssertionFailure, lastSend: SendRecord?) -> AssertionFailure {
        trace.mark(failure, viaFCM: lastSend?.fcm != nil, window: traceWindowStart)
    }

    /// Resolves a `${…}` name (nil when undefined).
    func lookup(_ name: String, world: ScenarioWorld) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "env" where parts.count >= 2:
            return environment.environment[parts.dropFirst().joined(separator: ".")]
        case "device" where parts.count == 3 || parts.count == 4:
            guard let d = world.device(parts[1]), let variable = DeviceVariable(rawValue: parts[2]) else { return nil }
            return variable.value(
                in: d, app: world.bundleID(on: d, nil), argument: parts.count == 4 ? parts[3] : nil)
        case "fixture" where parts.count == 2:
            // Empty when the runner started no fixture server: undefined rather than a silent "".
            let value: String
            switch FixtureVariable(rawValue: parts[1]) {
            case .http?: value = environment.fixtureHTTPURL
            case .https?: value = environment.fixtureHTTPSURL
            case .ca?: value = environment.fixtureCAPath
            case nil: return nil
            }
            return value.isEmpty ? nil : value
        case "gateway" where parts.count == 2:
            switch GatewayVariable(rawValue: parts[1]) {
            case .sandbox?: return try? world.url(.sandbox, atRoot: true)
            case .production?: return try? world.url(.production, atRoot: true)
            case .ca?: return world.credentials.caPath
            case .fcm?: return world.fcmEnvironment()["PUSHCHECK_FCM_URL"]
            case nil: return nil
            }
        case "scenario" where parts.count == 2:
            return parts[1] == "name" ? scenario.name : scenario.parameters[parts[1]]
        default:
            return variables[name]
        }
    }

    /// Renders a template, turning an undefined variable into a harness error at its position.
    func render(_ template: Template, world: ScenarioWorld, json: Bool = false) throws(StepStop) -> String {
        do {
            return try template.render({ lookup($0, world: world) }, escape: json ? jsonStringEscape : { $0 })
        } catch {
            throw .harness(
                kind: .variable, message: error.description, detail: error.sourceError.rendered(color: false))
        }
    }
}

/// The scenario's transcript (JUnit system-out): one line per request, response, event, check.
struct Transcript {
    private(set) var lines: [String] = []

    mutating func add(_ line: String) { lines.append(line) }

    mutating func step(_ step: Step, _ detail: String = "") {
        lines.append("- line \(step.range.line): \(step.keyword)" + (detail.isEmpty ? "" : " \(detail)"))
    }

    var text: String { lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n") }
}
