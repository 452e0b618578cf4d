import Foundation
import PushModel
import YAMLSource

/// `snapshot:` in an `expect:` block: what the device got and did since the previous `expect`
/// (`SnapshotCapture`), compared with the entry stored beside the suite (`SnapshotStore`; both in ScenarioChecks).
///
/// ```yaml
/// expect: { snapshot: true }                                    # the step's name:, else 1, 2, … in order
/// expect: { snapshot: after tap }                               # named
/// expect: { snapshot: { name: shipped, ignore: [user_info.sent_at, "pushes[*].payload.aps.badge"] } }
/// ```
package struct SnapshotCheck: Sendable {
    /// The entry's name under the scenario; nil = its position among the scenario's snapshots.
    package var name: String?
    /// Paths masked besides the volatile ones (`SnapshotMask`).
    package var ignore: [String]
    package var range: SourceRange
    /// Written at the scenario (`snapshot:` beside `steps:`): everything since the world was set up, taken
    /// after the last step.
    package var wholeScenario = false

    /// The step a scenario-level `snapshot:` adds after the scenario's own (named `scenario` by default).
    static func scenarioStep(_ node: YAMLNode) throws(SourceError) -> Step? {
        guard var check = try decode(node) else { return nil }
        check.wholeScenario = true
        if check.name == nil { check.name = "scenario" }
        return Step(
            action: .expect, keyword: "snapshot", captures: [],
            expectation: Expectation(checks: [], range: node.range, snapshot: check), range: node.range)
    }

    static func decode(_ node: YAMLNode) throws(SourceError) -> SnapshotCheck? {
        if case .bool(let on)? = node.value {
            return on ? SnapshotCheck(name: nil, ignore: [], range: node.range) : nil
        }
        if node.scalar != nil {
            return SnapshotCheck(name: try String.decode(from: node), ignore: [], range: node.range)
        }
        let m = try YAMLMapping(node)
        try m.checkKeys(SuiteKeys.snapshot)
        return SnapshotCheck(
            name: try m.optional("name"), ignore: try m.optional("ignore", as: [String].self) ?? [], range: node.range)
    }
}
