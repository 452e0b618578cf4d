/// Why the harness (not the product under test) could not finish a scenario: the classifier of a
/// JUnit `<error>`.
///
/// The `rawValue` is the exact text written as the report's `type` attribute and printed by the
/// console, so it is part of the report format: never rename one. Producers (the scenario executor,
/// the step runner, the scheduler, the incremental report) create kinds from these cases, and the
/// scheduler decides on them (an `interrupted` attempt is never retried) by comparing cases, not text.
package enum HarnessErrorKind: String, Sendable, Hashable, CaseIterable {
    /// The scenario's world could not be built or lacks what a step names (device, app, gateway,
    /// provider token, snapshot store).
    case world
    /// pushcheck was stopped (Ctrl-C, SIGTERM, or a crash) or the run cancelled the scenario.
    case interrupted
    /// A scenario exceeded the scenario timeout, or a `run:` step its own timeout.
    case timeout
    /// A `run:` step's command could not be started or crashed on a signal.
    case command
    /// A `send` could not reach the gateway over the network.
    case transport
    /// A page step's page could not be loaded.
    case page
    /// A snapshot could not be read, written or recorded.
    case snapshot
    /// A `${…}` variable could not be resolved.
    case variable
}
