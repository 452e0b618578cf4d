import APNsGateway
import DeviceBridge
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
