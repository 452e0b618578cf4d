import Foundation
import PushModel
import Synchronization

/// The snapshot files of one run: loaded on first use, compared against, updated in memory, and
/// written once at the end (`finish`). One file per suite file, beside it:
/// `<suite dir>/__snapshots__/<suite file name>.snap.json`, a JSON object
/// `{ "<scenario name>": { "<snapshot name>": {…} } }` with sorted keys, one key per line.
///
/// Safe to share between scenarios running in parallel.
package final class SnapshotStore: Sendable {
    /// What a run does with snapshots (as Jest: `-u`, `--ci`).
    package enum Mode: Sendable, Equatable {
        /// New snapshots are written and reported; a mismatch fails; obsolete entries are reported.
        case local
        /// `--update-snapshots`: new and mismatched snapshots are written, obsolete entries removed.
        case update
        /// `--ci` / `CI=true`: nothing is written; a missing snapshot fails like a mismatch.
        case ci
    }

    /// What comparing one snapshot gave.
    enum Outcome {
        case matched
        case written(closest: ClosestObsolete?)
        case updated
        case missing(closest: ClosestObsolete?)
        case mismatch(stored: JSONValue)
        case unreadable(String)
    }

    /// A stored entry no scenario of the suite takes any more that looks like a new snapshot's old self: a
    /// scenario renamed (a reworded title in a recorded suite's names) keeps its snapshots under the old name.
    struct ClosestObsolete {
        /// `scenario › name` of the stored entry.
        var label: String
        /// Stored → now.
        var changes: [JSONDiff.Change]
        /// Close enough to be the same snapshot renamed: at most half its values differ. A local run does not write
        /// such a snapshot as new (that would let the change pass): it fails like a mismatch until `-u` accepts it.
        var looksRenamed: Bool
    }

    package let mode: Mode
    private let state = Mutex(State())

    private struct State {
        var files: [String: Loaded] = [:]
        var written: [String] = []
        var updated: [String] = []
        var writtenBesideObsolete: [String] = []
        /// suite path → scenario name → snapshot names compared in this run.
        var checked: [String: [String: Set<String>]] = [:]
        /// suite path → scenarios that ran to the end and passed (their unchecked entries are obsolete).
        var passed: [String: Set<String>] = [:]
        /// suite path → every scenario name of the suite (`register`): entries of other scenarios are obsolete.
        var scenarios: [String: Set<String>] = [:]
    }

    private struct Loaded {
        var entries: [String: [String: JSONValue]]
        var error: String?
        var dirty = false
    }

    package init(mode: Mode) { self.mode = mode }

    /// The scenario names of a suite, before its scenarios run: a missing snapshot is then compared with the entries
    /// of scenarios no longer in the suite (`ClosestObsolete`).
    package func register(suite: String, scenarios: [String]) {
        state.withLock { $0.scenarios[suite] = Set(scenarios) }
    }

    /// `Suites/checkout.yaml` → `Suites/__snapshots__/checkout.yaml.snap.json`.
    package static func file(forSuite suitePath: String) -> String {
        let dir = PathText.directory(of: suitePath)
        let name = (suitePath as NSString).lastPathComponent
        let base = dir.isEmpty ? "" : (dir.hasSuffix("/") ? dir : dir + "/")
        return base + "__snapshots__/" + name + ".snap.json"
    }

    /// Compares `value` (already masked) with the stored entry, recording it when new (or when updating).
    func check(suite: String, scenario: String, name: String, value: JSONValue, mask: SnapshotMask) -> Outcome {
        state.withLock { s in
            s.checked[suite, default: [:]][scenario, default: []].insert(name)
            var file = s.files[suite] ?? Self.load(Self.file(forSuite: suite))
            defer { s.files[suite] = file }
            if let error = file.error { return .unreadable(error) }
            let label = "\(scenario) › \(name)"
            guard let stored = file.entries[scenario]?[name] else {
                let closest = Self.closestObsolete(
                    to: value, named: name, in: file.entries, scenarios: s.scenarios[suite], mask: mask)
                if mode == .ci { return .missing(closest: closest) }
                if mode == .local, let closest, closest.looksRenamed, !closest.changes.isEmpty {
                    return .missing(closest: closest)
                }
                file.entries[scenario, default: [:]][name] = value
                file.dirty = true
                s.written.append(label)
                if let closest {
                    // Locally a renamed scenario passes (its new snapshot is written): the summary shows its diff.
                    let diff =
                        closest.changes.isEmpty
                        ? ["nothing"] : JSONDiff.render(closest.changes).split(separator: "\n").map(String.init)
                    s.writtenBesideObsolete.append(
                        "snapshot \(label) is new — renamed? the closest obsolete snapshot is '\(closest.label)'; "
                            + "what changed:\n" + diff.map { "    " + $0 }.joined(separator: "\n"))
                }
                return .written(closest: closest)
            }
            if mask.apply(stored) == value { return .matched }
            if mode == .update {
                file.entries[scenario, default: [:]][name] = value
                file.dirty = true
                s.updated.append(label)
                return .updated
            }
            return .mismatch(stored: mask.apply(stored))
        }
    }

    /// Called once per scenario attempt: a passed scenario's entries it did not compare are obsolete.
    package func scenarioFinished(suite: String, scenario: String, passed: Bool) {
        state.withLock { s in
            if passed {
                s.passed[suite, default: []].insert(scenario)
            } else {
                s.passed[suite]?.remove(scenario)
            }
        }
    }

    /// Finds obsolete entries (scenarios no longer in their suite; snapshots a passing scenario no longer
    /// takes), removes them when updating, and writes every changed file.
    /// `suites` is every loaded suite path with its scenario names; `findObsolete` is false for an
    /// interrupted run (it did not reach every snapshot).
    package func finish(suites: [(path: String, scenarios: [String])], findObsolete: Bool = true) -> SnapshotSummary {
        state.withLock { s in
            var summary = SnapshotSummary(written: s.written, updated: s.updated)
            summary.writtenBesideObsolete = s.writtenBesideObsolete
            for suite in suites {
                let path = Self.file(forSuite: suite.path)
                var file = s.files[suite.path] ?? Self.load(path)
                if let error = file.error {
                    summary.errors.append(error)
                    continue
                }
                let names = Set(suite.scenarios)
                for (scenario, entries) in file.entries.sorted(by: { $0.key < $1.key }) where findObsolete {
                    var stale: [String] = []
                    if !names.contains(scenario) {
                        stale = Array(entries.keys)
                    } else if s.passed[suite.path]?.contains(scenario) == true {
                        let seen = s.checked[suite.path]?[scenario] ?? []
                        stale = entries.keys.filter { !seen.contains($0) }
                    }
                    for name in stale.sorted() {
                        let label = "\(suite.path): \(scenario) › \(name)"
                        if mode == .update {
                            file.entries[scenario]?[name] = nil
                            if file.entries[scenario]?.isEmpty == true { file.entries[scenario] = nil }
                            file.dirty = true
                            summary.removed.append(label)
                        } else {
                            summary.obsolete.append(label)
                        }
                    }
                }
                if file.dirty, mode != .ci {
                    do {
                        try Self.write(file.entries, to: path)
                        summary.files.append(path)
                        file.dirty = false
                    } catch {
                        summary.errors.append("cannot write \(path): \(error.localizedDescription)")
                    }
                }
                s.files[suite.path] = file
            }
            summary.obsoleteFailsRun = mode == .ci && !summary.obsolete.isEmpty
            return summary
        }
    }

    /// The entry of a scenario not in the suite (`scenarios`; unknown: none is looked at) closest to `value`: the
    /// fewest differences, an entry of the same snapshot name first. Nil when the file has none.
    static func closestObsolete(
        to value: JSONValue, named name: String, in entries: [String: [String: JSONValue]], scenarios: Set<String>?,
        mask: SnapshotMask
    ) -> ClosestObsolete? {
        guard let scenarios else { return nil }
        var best: (sameName: Bool, count: Int, label: String, changes: [JSONDiff.Change])?
        for (scenario, snapshots) in entries where !scenarios.contains(scenario) {
            for (entryName, stored) in snapshots {
                let changes = JSONDiff.diff(mask.apply(stored), value)
                let candidate = (entryName == name, changes.count, "\(scenario) › \(entryName)", changes)
                if let b = best {
                    let better =
                        candidate.0 != b.sameName
                        ? candidate.0 : (candidate.1, candidate.2) < (b.count, b.label)
                    if !better { continue }
                }
                best = candidate
            }
        }
        let leaves = leafCount(value)
        return best.map {
            ClosestObsolete(label: $0.label, changes: $0.changes, looksRenamed: $0.sameName && $0.count * 2 <= leaves)
        }
    }

    static func leafCount(_ v: JSONValue) -> Int {
        switch v {
        case .object(let o): return o.values.reduce(0) { $0 + leafCount($1) }
        case .array(let a): return a.reduce(0) { $0 + leafCount($1) }
        default: return 1
        }
    }

    private static func load(_ path: String) -> Loaded {
        guard FileManager.default.fileExists(atPath: path) else { return Loaded(entries: [:]) }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let json = try JSONValue.parse([UInt8](data))
            guard case .object(let scenarios) = json else {
                return Loaded(entries: [:], error: "\(path): not a snapshot file (expected a JSON object of scenarios)")
            }
            var entries: [String: [String: JSONValue]] = [:]
            for (scenario, value) in scenarios {
                guard case .object(let snapshots) = value else {
                    return Loaded(
                        entries: [:], error: "\(path): scenario '\(scenario)' should map snapshot names to values")
                }
                entries[scenario] = snapshots
            }
            return Loaded(entries: entries)
        } catch {
            return Loaded(
                entries: [:],
                error: "\(path): cannot read the snapshot file (\(error)); fix it, or delete it and run with -u")
        }
    }

    private static func write(_ entries: [String: [String: JSONValue]], to path: String) throws {
        if entries.isEmpty {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            return
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let json = JSONValue.object(entries.mapValues { .object($0) })
        try Data((json.prettySerialized() + "\n").utf8).write(to: url, options: .atomic)
    }
}

/// What a run did with snapshots, for the console.
package struct SnapshotSummary: Sendable, Equatable {
    /// `scenario › name` of snapshots written for the first time.
    package var written: [String] = []
    /// Rewritten by `--update-snapshots`.
    package var updated: [String] = []
    /// `suite: scenario › name` of entries nothing compared (reported; removed by `--update-snapshots`; under
    /// `--ci` they fail the run).
    package internal(set) var obsolete: [String] = []
    /// A CI run (`--ci`) that left obsolete entries: it fails (exit 1), as it can neither remove them nor tell a
    /// renamed scenario from a deleted one.
    package internal(set) var obsoleteFailsRun = false
    /// New snapshots written while their file holds obsolete entries, each with the closest one's diff.
    package internal(set) var writtenBesideObsolete: [String] = []
    package var removed: [String] = []
    /// Snapshot files written.
    package var files: [String] = []
    package var errors: [String] = []

    package init(written: [String] = [], updated: [String] = []) {
        self.written = written
        self.updated = updated
    }

    /// One line per kind, nothing when the run touched no snapshot.
    package var lines: [String] {
        var out: [String] = []
        for w in written { out.append("snapshot written: \(w)") }
        for u in updated { out.append("snapshot updated: \(u)") }
        for r in removed { out.append("snapshot removed (obsolete): \(r)") }
        for o in obsolete { out.append("snapshot obsolete: \(o) (run with --update-snapshots to remove it)") }
        out += writtenBesideObsolete
        if !obsolete.isEmpty {
            let n = obsolete.count
            out.append(
                "\(n) obsolete snapshot\(n == 1 ? "" : "s")"
                    + (obsoleteFailsRun
                        ? ": the run fails (--ci); a scenario renamed? see the closest-obsolete diff above, then run with -u locally"
                        : ": no scenario takes \(n == 1 ? "it" : "them") any more (a renamed scenario? -u removes them)")
            )
        }
        for e in errors { out.append("snapshot error: \(e)") }
        if !files.isEmpty { out.append("snapshot files written: " + files.joined(separator: ", ")) }
        return out
    }
}
