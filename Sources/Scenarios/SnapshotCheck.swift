import Foundation
import PushModel
import YAMLSource

/// `snapshot:` in an `expect:` block: what the device got and did since the previous `expect`
/// (`SnapshotCapture`), compared with the entry stored beside the suite (`SnapshotStore`).
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
        try m.checkKeys(allowed: ["name", "ignore"])
        return SnapshotCheck(
            name: try m.optional("name"), ignore: try m.optional("ignore", as: [String].self) ?? [], range: node.range)
    }

    /// Compares (or records) the snapshot; a failure carries the structural diff and what it changed.
    func evaluate(_ observation: Observation, stepName: String? = nil, context: inout RunContext) throws(StepStop)
        -> (AssertionFailure, effects: [String])?
    {
        guard let store = context.environment.snapshots else {
            throw .harness(
                kind: .world, message: "snapshot checks need a snapshot store (pushcheck run provides one)",
                detail: "step at \(range)")
        }
        context.snapshotCount += 1
        let entry = name ?? stepName ?? String(context.snapshotCount)
        guard context.snapshotNames.insert(entry).inserted else {
            throw .harness(
                kind: .snapshot,
                message:
                    "two snapshots of scenario '\(context.scenario.name)' are named '\(entry)'; give this one its own name",
                detail: "step at \(range): snapshot: { name: … }")
        }
        let mask = SnapshotMask(ignore: ignore)
        let value = mask.apply(SnapshotCapture.capture(observation))
        let suite = context.suite.path
        let scenario = context.scenario.name
        let file = SnapshotStore.file(forSuite: suite)
        let outcome = store.check(suite: suite, scenario: scenario, name: entry, value: value, mask: mask)
        func fail(_ message: String, expected: String, actual: String) -> AssertionFailure {
            AssertionFailure(
                message: message, expected: expected, actual: actual, file: range.file, line: range.line,
                column: range.column, events: "")
        }
        switch outcome {
        case .matched:
            context.transcript.add("  snapshot \(entry): matches \(file)")
            return nil
        case .written:
            context.transcript.add("  snapshot \(entry): written to \(file) (new)")
            return nil
        case .updated:
            context.transcript.add("  snapshot \(entry): updated in \(file)")
            return nil
        case .unreadable(let why):
            throw .harness(kind: .snapshot, message: why, detail: "step at \(range)")
        case .missing:
            context.transcript.add("  snapshot \(entry): missing from \(file)")
            let failure = fail(
                "snapshot '\(scenario) › \(entry)' is missing from \(file)",
                expected:
                    "a stored snapshot (CI mode writes none: run `pushcheck run --update-snapshots` locally and commit \(file))",
                actual: "\n" + indent(value.prettySerialized()))
            return (failure, [])
        case .mismatch(let stored):
            // The push (the cause) first, then what the app did, each in path order.
            let changes = JSONDiff.diff(stored, value).enumerated().sorted { a, b in
                let (ra, rb) = (a.element.path.hasPrefix("pushes") ? 0 : 1, b.element.path.hasPrefix("pushes") ? 0 : 1)
                return ra != rb ? ra < rb : a.offset < b.offset
            }.map(\.element)
            var text = "\n" + indent(JSONDiff.render(changes))
            let effects = Self.consequences(changes)
            if !effects.isEmpty {
                text += "\n  what the app did differently:\n" + effects.map { "    • " + $0 }.joined(separator: "\n")
            }
            context.transcript.add("  snapshot \(entry): differs from \(file)")
            for line in JSONDiff.render(changes).split(separator: "\n") { context.transcript.add("    " + line) }
            let failure = fail(
                "snapshot '\(scenario) › \(entry)' differs from \(file)",
                expected:
                    "the stored snapshot (- stored, + now; accept the change with `pushcheck run --update-snapshots`)",
                actual: text)
            return (failure, effects)
        }
    }

    /// The scenario's snapshot failures, the first one told what the later ones show the app did
    /// differently after it (the route that failed on the tap after a renamed key, a title that changed).
    static func combine(_ failures: [(failure: AssertionFailure, effects: [String])]) -> [AssertionFailure] {
        guard var first = failures.first?.failure else { return [] }
        let later = failures.dropFirst().flatMap(\.effects).filter { e in !failures[0].effects.contains(e) }
        if !later.isEmpty {
            var seen: [String] = []
            for e in later where !seen.contains(e) { seen.append(e) }
            first.actual +=
                "\n  and later in the scenario, because of it:\n" + seen.map { "    • " + $0 }.joined(separator: "\n")
        }
        return [first] + failures.dropFirst().map(\.failure)
    }

    func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// The later behaviour a snapshot change touched, one line per thing: a route that failed (or no longer
    /// ran), a notification field, the screen, the page. Changes to the push itself are the cause, not listed.
    static func consequences(_ changes: [JSONDiff.Change]) -> [String] {
        var out: [String] = []
        func add(_ s: String) { if !out.contains(s) { out.append(s) } }
        var fields: [(area: String, names: [String])] = []
        for change in changes {
            let path = change.path
            if path.hasPrefix("navigation.events") {
                // The route outcome is the headline; the tab/push events it implies show in the fields below.
                switch change {
                case .added(_, .string(let s), _) where s.contains("failed") || s.hasPrefix("no route"):
                    add("route: \(s)")
                case .changed(_, .string(let a), .string(let b))
                where b.contains("failed") || b.hasPrefix("no route") || b.hasPrefix("routed") || a.hasPrefix("routed"):
                    add("route: \(a) → now \(b)")
                case .removed(_, .string(let s)) where s.hasPrefix("routed "):
                    add("route: no longer \(s)")
                case .added(_, .string(let s), _) where s.hasPrefix("routed "):
                    add("route: now \(s)")
                default: break
                }
                continue
            }
            let parts = path.split(whereSeparator: { $0 == "." || $0 == "[" }).map {
                $0.replacingOccurrences(of: "]", with: "")
            }
            guard let head = parts.first, head != "pushes" else { continue }
            if head == "callbacks" {
                add("the userInfo the app's callbacks saw differs")
                continue
            }
            let name = parts.count > 1 ? parts[1] : "(all)"
            if let i = fields.firstIndex(where: { $0.area == head }) {
                if !fields[i].names.contains(name) { fields[i].names.append(name) }
            } else {
                fields.append((head, [name]))
            }
        }
        for f in fields {
            let names = f.names.filter { $0 != "(all)" }
            add(names.isEmpty ? "\(f.area) differs" : "\(f.area) differs: " + names.joined(separator: ", "))
        }
        return out
    }
}
