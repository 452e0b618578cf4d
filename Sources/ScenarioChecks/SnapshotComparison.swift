import Foundation
import PushModel
import SuiteFormat

/// What comparing one `snapshot:` with its stored entry gave: the transcript lines, and the mismatch (or, in CI
/// mode, the missing entry) with what it says the app did differently (`SnapshotCheck.consequences`).
package struct SnapshotVerdict {
    package var lines: [String]
    package var failure: (failure: AssertionFailure, effects: [String])? = nil
}

/// A snapshot file that cannot be read (not JSON, not a snapshot file): the scenario stops with this text.
package struct SnapshotFileUnreadable: Error {
    package var why: String
}

extension SnapshotCheck {
    /// Compares what `observation` records with the entry `entry` of `scenario` in the snapshot file beside
    /// `suite` (or records it as new, or as changed in update mode).
    package func compare(
        _ observation: Observation, entry: String, store: SnapshotStore, suite: String, scenario: String
    ) throws(SnapshotFileUnreadable) -> SnapshotVerdict {
        let mask = SnapshotMask(ignore: ignore)
        let value = mask.apply(SnapshotCapture.capture(observation))
        let file = SnapshotStore.file(forSuite: suite)
        let outcome = store.check(suite: suite, scenario: scenario, name: entry, value: value, mask: mask)
        func fail(_ message: String, expected: String, actual: String, focus: TraceFocus? = nil, diff: String? = nil)
            -> AssertionFailure
        {
            AssertionFailure(
                message: message, expected: expected, actual: actual, file: range.file, line: range.line,
                column: range.column, events: "", focus: focus, diff: diff)
        }
        switch outcome {
        case .matched: return SnapshotVerdict(lines: ["  snapshot \(entry): matches \(file)"])
        case .written(let closest):
            var lines = ["  snapshot \(entry): written to \(file) (new)"]
            if let closest {
                lines.append(
                    "    renamed? the closest obsolete snapshot is '\(closest.label)'; what changed"
                        + (closest.changes.isEmpty ? ": nothing" : ":"))
                for line in JSONDiff.render(closest.changes).split(separator: "\n") { lines.append("      " + line) }
            }
            return SnapshotVerdict(lines: lines)
        case .updated: return SnapshotVerdict(lines: ["  snapshot \(entry): updated in \(file)"])
        case .unreadable(let why): throw SnapshotFileUnreadable(why: why)
        case .missing(let closest):
            var lines = ["  snapshot \(entry): missing from \(file)"]
            var actual = "\n" + indent(value.prettySerialized())
            var effects: [String] = []
            if let closest {
                // A renamed scenario: the diff against its old entry is what matters, not the whole new value.
                let rendered = closest.changes.isEmpty ? "(no difference)" : JSONDiff.render(closest.changes)
                actual =
                    "\n  renamed? the closest obsolete snapshot is '\(closest.label)'; what changed (- stored, + now):\n"
                    + indent(rendered)
                effects = Self.consequences(closest.changes, snapshot: value)
                if !effects.isEmpty {
                    actual +=
                        "\n  what the app did differently:\n" + effects.map { "    • " + $0 }.joined(separator: "\n")
                }
                lines.append("    renamed? the closest obsolete snapshot is '\(closest.label)'; what changed:")
                for line in rendered.split(separator: "\n") { lines.append("      " + line) }
            }
            let expected =
                store.mode == .ci
                ? "a stored snapshot (CI mode writes none: run `pushcheck run --update-snapshots` locally and commit \(file))"
                : "a stored snapshot (a renamed scenario's snapshot is not written as new while it differs from its old one: "
                    + "accept the change with `pushcheck run --update-snapshots`, which also removes the old entry)"
            let failure = fail(
                "snapshot '\(scenario) › \(entry)' is missing from \(file)", expected: expected,
                actual: actual, diff: closest.map { JSONDiff.render($0.changes) })
            return SnapshotVerdict(lines: lines, failure: (failure, effects))
        case .mismatch(let stored):
            // The push (the cause) first, then what the app did, each in path order.
            let changes = JSONDiff.diff(stored, value).enumerated().sorted { a, b in
                let (ra, rb) = (a.element.path.hasPrefix("pushes") ? 0 : 1, b.element.path.hasPrefix("pushes") ? 0 : 1)
                return ra != rb ? ra < rb : a.offset < b.offset
            }.map(\.element)
            var text = "\n" + indent(JSONDiff.render(changes))
            // An entry written before masks kept the JSON type: say so, or the diff reads as a change of the app's.
            let untyped = changes.compactMap { c -> String? in
                guard case .changed(let path, let from, let to) = c,
                    SnapshotMask.isUntypedMaskOfNonString(stored: from, now: to)
                else { return nil }
                return JSONDiff.label(path)
            }
            if !untyped.isEmpty {
                text +=
                    "\n  note: \(untyped.joined(separator: ", ")) stored as \"<masked>\" by an older pushcheck, which masked"
                    + " every type alike; masks now keep the JSON type (\"<masked number>\", …) so a type change fails."
                    + " If nothing else differs, rewrite the entry with `pushcheck run --update-snapshots`."
            }
            let effects = Self.consequences(changes, snapshot: value)
            if !effects.isEmpty {
                text += "\n  what the app did differently:\n" + effects.map { "    • " + $0 }.joined(separator: "\n")
            }
            var lines = ["  snapshot \(entry): differs from \(file)"]
            for line in JSONDiff.render(changes).split(separator: "\n") { lines.append("    " + line) }
            let failure = fail(
                "snapshot '\(scenario) › \(entry)' differs from \(file)",
                expected:
                    "the stored snapshot (- stored, + now; accept the change with `pushcheck run --update-snapshots`)",
                actual: text, focus: changes.first.flatMap { SnapshotCapture.focus(ofPath: $0.path) },
                diff: JSONDiff.render(changes))
            return SnapshotVerdict(lines: lines, failure: (failure, effects))
        }
    }

    /// The scenario's snapshot failures, the first one told what the later ones show the app did
    /// differently after it (the route that failed on the tap after a renamed key, a title that changed).
    package static func combine(_ failures: [(failure: AssertionFailure, effects: [String])]) -> [AssertionFailure] {
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
    static func consequences(_ changes: [JSONDiff.Change], snapshot: JSONValue? = nil) -> [String] {
        // What the snapshot shows that did not change: a changed userInfo that changed nothing the user sees says so.
        let touched = Set(
            changes.map { $0.path.split(whereSeparator: { $0 == "." || $0 == "[" }).first.map(String.init) })
        var unchanged: [String] = []
        if snapshot?["navigation"] != nil, !touched.contains("navigation") { unchanged += ["route", "navigation"] }
        if snapshot?["notification"] != nil, !touched.contains("notification") { unchanged.append("notification") }
        let userInfoLine =
            "the userInfo the app's callbacks saw differs"
            + (unchanged.isEmpty ? "" : " (" + Self.listed(unchanged) + " unchanged)")
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
                add(userInfoLine)
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
        if out.isEmpty, !changes.isEmpty, !unchanged.isEmpty {
            add("only the push differs: " + Self.listed(unchanged) + " unchanged")
        }
        return out
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
