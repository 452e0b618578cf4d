import APNsGateway
import DeviceSimulator
import Foundation
import YAMLSource

/// A loaded suite file: its world (gateway, apps, devices) and its scenarios, parameterised ones expanded.
public struct Suite: Sendable {
    /// The path as given to `SuiteLoader.load(path:)` (used in errors, JUnit `classname` and scenario ids).
    public let path: String
    /// The suite's `name:`, or the file name without its extension.
    public let name: String
    /// One entry per scenario run (a scenario with `parameters:` gives one per parameter set).
    public let scenarios: [Scenario]
    /// What every scenario of the suite starts from.
    public let world: WorldDeclaration
    /// Suite-level `variables:` (`${name}` in templates).
    public let variables: [String: String]

    public init(path: String, name: String, scenarios: [Scenario], world: WorldDeclaration, variables: [String: String])
    {
        self.path = path
        self.name = name
        self.scenarios = scenarios
        self.world = world
        self.variables = variables
    }
}

/// One scenario: a name, tags and steps, run in a fresh world.
public struct Scenario: Sendable {
    /// The name as written, suffixed with the parameter set (`tap opens detail [state=background]`).
    public let name: String
    public let tags: [String]
    /// The suite file.
    public let file: String
    /// The line of the scenario's `name:` (1-based).
    public let line: Int
    /// The parameter values of this expansion (`${scenario.<key>}`).
    public let parameters: [String: String]
    /// Set by `skip: reason`; the runner reports it as skipped without running it.
    public let skipReason: String?
    /// The steps, in order.
    public let steps: [Step]

    /// Stable across runs; used for shard splitting and JUnit.
    public var id: String { "\(file)::\(name)" }

    public init(
        name: String, tags: [String], file: String, line: Int, parameters: [String: String] = [:],
        skipReason: String? = nil, steps: [Step]
    ) {
        self.name = name
        self.tags = tags
        self.file = file
        self.line = line
        self.parameters = parameters
        self.skipReason = skipReason
        self.steps = steps
    }
}

/// The `world:` of a suite, decoded: gateway configuration, apps, devices and the clock's start.
public struct WorldDeclaration: Sendable {
    /// The `gateway: { apns: … }` section (an FCM section slots in beside `apns:` later).
    public var apns: APNsGatewayConfiguration
    /// PEMs of `client_certificate_cas` (the listeners request client certificates from them).
    public var clientCertificateCAs: [String]
    public var apps: [AppDeclaration]
    /// Declared devices; when none are declared, one device named `iphone` with every app.
    public var devices: [DeviceDeclaration]
    /// Where the simulated clock starts (default 2026-01-01T00:00:00Z).
    public var clockStart: Date
    /// The team and key id of the provider key every world gets (signed with a key generated per process).
    public var defaultTeamID: String
    public var defaultKeyID: String

    public init(
        apns: APNsGatewayConfiguration = APNsGatewayConfiguration(), clientCertificateCAs: [String] = [],
        apps: [AppDeclaration] = [], devices: [DeviceDeclaration] = [],
        clockStart: Date = Date(timeIntervalSince1970: 1_767_225_600), defaultTeamID: String = "PCTEAM0001",
        defaultKeyID: String = "PCKEY00001"
    ) {
        self.apns = apns
        self.clientCertificateCAs = clientCertificateCAs
        self.apps = apps
        self.devices = devices
        self.clockStart = clockStart
        self.defaultTeamID = defaultTeamID
        self.defaultKeyID = defaultKeyID
    }
}

/// What the runner passes to every scenario.
public struct RunEnvironment: Sendable {
    /// e.g. `http://127.0.0.1:PORT` (serves Suites/pages/, HTTP/1.1 + h2c); `${fixture.http}`.
    public var fixtureHTTPURL: String
    /// e.g. `https://127.0.0.1:PORT` (HTTP/1.1 + h2 via ALPN); `${fixture.https}`.
    public var fixtureHTTPSURL: String
    /// PEM file of the CA that signed the fixture server's certificate (the device's web view trusts it).
    public var fixtureCAPath: String
    /// `${env.NAME}`.
    public var environment: [String: String]
    /// Upper bound for one step (a send, a command without its own timeout, a page load).
    public var stepTimeout: Duration
    /// Mixed into every device's seed: the same seed gives the same tokens and transcript.
    public var seed: UInt64
    /// 1-based retry attempt.
    public var attempt: Int

    public init(
        fixtureHTTPURL: String = "", fixtureHTTPSURL: String = "", fixtureCAPath: String = "",
        environment: [String: String] = ProcessInfo.processInfo.environment, stepTimeout: Duration = .seconds(30),
        seed: UInt64 = 0, attempt: Int = 1
    ) {
        self.fixtureHTTPURL = fixtureHTTPURL
        self.fixtureHTTPSURL = fixtureHTTPSURL
        self.fixtureCAPath = fixtureCAPath
        self.environment = environment
        self.stepTimeout = stepTimeout
        self.seed = seed
        self.attempt = attempt
    }
}

/// One failed check: what was expected, what happened, where it is written, and the events around it.
public struct AssertionFailure: Sendable, CustomStringConvertible {
    public var message: String
    public var expected: String
    public var actual: String
    public var file: String
    public var line: Int
    public var column: Int
    /// Relevant device and gateway events, rendered one per line.
    public var events: String

    public init(message: String, expected: String, actual: String, file: String, line: Int, column: Int, events: String)
    {
        self.message = message
        self.expected = expected
        self.actual = actual
        self.file = file
        self.line = line
        self.column = column
        self.events = events
    }

    /// `file:line:col: message`, expected/actual, then the events.
    public var description: String {
        var text = "\(file):\(line):\(column): \(message)\n  expected: \(expected)\n  actual:   \(actual)"
        if !events.isEmpty {
            text += "\n  events:\n" + events.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }
}

/// How one scenario ended.
public struct ScenarioResult: Sendable {
    public enum Status: Sendable {
        case passed
        case failed([AssertionFailure])
        /// A harness fault: `type` is `timeout`, `interrupted`, `transport`, `command`, `variable`, `world` or `internal`.
        case error(type: String, message: String, detail: String)
        case skipped(String)
    }

    public var status: Status
    /// Requests, responses, delivered payloads, callbacks, navigation, pages — for JUnit system-out.
    public var transcript: String
    public var duration: Duration

    public init(status: Status, transcript: String, duration: Duration) {
        self.status = status
        self.transcript = transcript
        self.duration = duration
    }
}
