import DeviceBridge
import DeviceSimulator
import Foundation
import YAMLSource

/// A loaded suite file: its world (gateway, apps, devices) and its scenarios, parameterised ones expanded.
package struct Suite: Sendable {
    /// The path as given to `SuiteLoader.load(path:)` (used in errors, JUnit `classname` and scenario ids).
    package let path: String
    /// The suite's `name:`, or the file name without its extension.
    package let name: String
    /// One entry per scenario run (a scenario with `parameters:` gives one per parameter set).
    package let scenarios: [Scenario]
    /// What every scenario of the suite starts from.
    package let world: WorldDeclaration
    /// Suite-level `variables:` (`${name}` in templates).
    package let variables: [String: String]

    package init(
        path: String, name: String, scenarios: [Scenario], world: WorldDeclaration, variables: [String: String]
    ) {
        self.path = path
        self.name = name
        self.scenarios = scenarios
        self.world = world
        self.variables = variables
    }
}

/// One scenario: a name, tags and steps, run in a fresh world.
package struct Scenario: Sendable {
    /// The name as written, suffixed with the parameter set (`tap opens detail [state=background]`).
    package let name: String
    package let tags: [String]
    /// The suite file.
    package let file: String
    /// The line of the scenario's `name:` (1-based).
    package let line: Int
    /// The parameter values of this expansion (`${scenario.<key>}`).
    package let parameters: [String: String]
    /// Set by `skip: reason`; the runner reports it as skipped without running it.
    package let skipReason: String?
    /// The steps, in order.
    package let steps: [Step]

    /// Stable across runs; used for shard splitting and JUnit.
    package var id: String { "\(file)::\(name)" }

    package init(
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

/// A scenario as a suite's loading left it: decoded, or deferred (`SuiteLoader.load(path:root:keepingDecoded:)`).
package enum LoadedScenario: Sendable {
    case decoded(Scenario)
    case deferred(DeferredScenario)

    /// `scenario`, as the facts a run plans with and where its item is written.
    init(_ scenario: Scenario, deferredAt item: YAMLNode, expansion: Int) {
        self = .deferred(
            DeferredScenario(
                name: scenario.name, tags: scenario.tags, file: scenario.file, line: scenario.line,
                skipReason: scenario.skipReason, source: ScenarioSource(item: item, expansion: expansion)))
    }

    /// The scenario, when it is decoded.
    package var decoded: Scenario? {
        if case .decoded(let scenario) = self { return scenario }
        return nil
    }
}

/// A scenario that was decoded and checked while its suite loaded, then let go of: what a run plans with (as in
/// `Scenario`) and where it is written, to be decoded again when it runs (`SuiteLoader.decode(_:named:skip:in:)`).
package struct DeferredScenario: Sendable {
    package let name: String
    package let tags: [String]
    package let file: String
    package let line: Int
    package let skipReason: String?
    /// Where it is written.
    package let source: ScenarioSource
}

/// Where a deferred scenario is written: its item in the suite's document, as a placeholder
/// (`YAMLNode.isDeferred`: a range into the file's text), and which of the item's expansions (one per
/// `parameters:` set) it is.
package struct ScenarioSource: Sendable {
    let item: YAMLNode
    let expansion: Int
}
