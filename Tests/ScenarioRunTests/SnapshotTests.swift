import Foundation
@testable import PushModel
import Testing

@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat

/// `snapshot:` checks end to end through the executor (real gateway over TLS, simulated device), with the
/// snapshot file on disk, and `exactly:` / `at_least:`.
@Suite struct SnapshotTests {
    static let world = "world:\n  include: \(Support.suites)/apps/shop-app.yaml"

    static func suite(orderKey: String = "order_id", extraScenario: Bool = false, ignore: String = "") -> String {
        var text = """
            \(world)
            scenarios:
              - name: order push
                steps:
                  - background
                  - send:
                      payload:
                        aps: { alert: { title: Order A1001 shipped } }
                        \(orderKey): A1001
                        gcm.message_id: "1700000000000001"
                        sent_at: 2026-01-01T09:00:00Z
                    expect: { snapshot: \(ignore.isEmpty ? "delivered" : "{ name: delivered, ignore: [\(ignore)] }") }
                  - tap
                  - expect: { snapshot: true }

            """
        if extraScenario {
            text += """
                  - name: second scenario
                    steps:
                      - send: { payload: { aps: { alert: Hi } } }
                        expect: { snapshot: true }

                """
        }
        return text
    }

    /// Writes the suite into `dir` (same file name each time, so the snapshot file is shared) and runs it.
    static func run(_ text: String, in dir: String, mode: SnapshotStore.Mode) async throws -> (
        results: [(Scenario, ScenarioResult)], summary: SnapshotSummary, snapshotFile: String
    ) {
        let path = dir + "/orders.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let suite = try Support.load(path)
        let store = SnapshotStore(mode: mode)
        store.register(suite: suite.path, scenarios: suite.scenarios.map(\.name))
        var environment = FixturePages.environment
        environment.snapshots = store
        let results = await Support.run(suite, environment: environment)
        let summary = store.finish(suites: [(suite.path, suite.scenarios.map(\.name))])
        return (results, summary, SnapshotStore.file(forSuite: path))
    }

    static func freshDirectory() throws -> String {
        let dir = try Support.scratch(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func newSnapshotsAreWrittenSortedAndThenMatch() async throws {
        let dir = try Self.freshDirectory()
        let first = try await Self.run(Self.suite(), in: dir, mode: .local)
        for (s, r) in first.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        #expect(first.summary.written == ["order push › delivered", "order push › 2"])
        #expect(first.snapshotFile == dir + "/__snapshots__/orders.yaml.snap.json")
        let text = try String(contentsOfFile: first.snapshotFile, encoding: .utf8)
        let json = try JSONValue.parse(text)
        #expect(text == json.prettySerialized() + "\n", "stable key order, one key per line")
        // What the device got and did, volatile values masked.
        let delivered = try #require(json[path: "order push"]?["delivered"])
        #expect(delivered[path: "pushes.0.payload.order_id"] == "A1001")
        #expect(delivered[path: "pushes.0.payload"]?["gcm.message_id"] == SnapshotMask.masked)
        #expect(delivered[path: "pushes.0.payload.sent_at"] == SnapshotMask.masked)
        #expect(delivered[path: "pushes.0.headers.apns-push-type"] == "alert")
        #expect(delivered[path: "pushes.0.headers.apns-id"] == nil)
        #expect(delivered[path: "notification.title"] == "Order A1001 shipped")
        let opened = try #require(json[path: "order push"]?["2"])
        #expect(opened[path: "callbacks.0.name"] == "didReceiveResponse")
        #expect(opened[path: "callbacks.0.user_info.order_id"] == "A1001")
        #expect(opened[path: "navigation.title"] == "Order A1001 shipped")
        #expect(opened[path: "navigation.events.0"] == "routed order (tap)")
        #expect(!text.contains("127.0.0.1:"), "fixture ports are masked")

        let second = try await Self.run(Self.suite(), in: dir, mode: .ci)
        for (s, r) in second.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        #expect(second.summary == SnapshotSummary())
    }

    @Test func aRenamedKeyIsAStructuralDiffThatSaysWhatTheAppDidDifferently() async throws {
        let dir = try Self.freshDirectory()
        _ = try await Self.run(Self.suite(), in: dir, mode: .local)
        let before = try String(contentsOfFile: dir + "/__snapshots__/orders.yaml.snap.json", encoding: .utf8)
        let changed = try await Self.run(Self.suite(orderKey: "orderId"), in: dir, mode: .local)
        let result = try #require(changed.results.first?.1)
        let failures = Support.failures(result)
        #expect(failures.count == 2, "\(Support.describe(result))")
        let first = try #require(failures.first)
        #expect(first.message.contains("snapshot 'order push › delivered' differs"))
        #expect(first.actual.contains(#"- pushes[0].payload.order_id: "A1001""#))
        #expect(
            first.actual.contains(
                #"+ pushes[0].payload.orderId: "A1001"    (renamed from pushes[0].payload.order_id?)"#))
        // The later snapshot (after the tap) shows the route failing: told on the first failure too.
        #expect(first.actual.contains("and later in the scenario, because of it:"))
        #expect(first.actual.contains("route: routed order (tap) → now route order failed: key 'order_id'"))
        #expect(first.actual.contains("navigation differs: stack, tab_title, title"))
        #expect(failures[1].actual.contains(#"- callbacks[0].user_info.order_id: "A1001""#))
        // A failing run does not touch the file.
        #expect(try String(contentsOfFile: dir + "/__snapshots__/orders.yaml.snap.json", encoding: .utf8) == before)
    }

    /// A 64-bit integer ID beyond ±2^53 reaches the device's userInfo and the snapshot file exact (iOS keeps it exact
    /// in an NSNumber), so a change in its last digit is a diff, not a pass.
    @Test func a64BitIntegerIDIsExactInUserInfoAndSnapshots() async throws {
        func suite(_ nid: String) -> String {
            Self.suite().replacingOccurrences(
                of: "order_id: A1001\n", with: "order_id: A1001\n            nid: \(nid)\n")
        }
        let dir = try Self.freshDirectory()
        let first = try await Self.run(suite("9007199254740993"), in: dir, mode: .local)
        for (s, r) in first.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        let text = try String(contentsOfFile: first.snapshotFile, encoding: .utf8)
        let json = try JSONValue.parse(text)
        #expect(json[path: "order push.delivered.pushes.0.payload.nid"] == .integer(9_007_199_254_740_993))
        #expect(json[path: "order push.2.callbacks.0.user_info.nid"] == .integer(9_007_199_254_740_993))
        #expect(text.contains("\"nid\": 9007199254740993"), "written as the integer: \(text)")
        let changed = try await Self.run(suite("9007199254740992"), in: dir, mode: .ci)
        let failures = Support.failures(try #require(changed.results.first?.1))
        #expect(
            failures.first?.actual.contains("~ pushes[0].payload.nid: 9007199254740993 → 9007199254740992") == true,
            "\(failures.map(\.actual))")
    }

    /// A scenario renamed with its push changed (a recorded suite regenerated after the backend reworded a title):
    /// its snapshot is missing and the file holds the old one as obsolete. The missing snapshot shows the diff against
    /// the closest obsolete entry, locally (where it is not written as new: the change would pass) and in CI, and a CI
    /// run with obsolete entries fails.
    @Test func aRenamedScenarioIsComparedWithItsClosestObsoleteSnapshot() async throws {
        let dir = try Self.freshDirectory()
        _ = try await Self.run(Self.suite(), in: dir, mode: .local)
        let renamed = Self.suite(orderKey: "orderId").replacingOccurrences(
            of: "name: order push", with: "name: order push, reworded")
        for mode in [SnapshotStore.Mode.local, .ci] {
            let run = try await Self.run(renamed, in: dir, mode: mode)
            let failures = Support.failures(try #require(run.results.first?.1))
            let first = try #require(failures.first, "\(mode)")
            #expect(first.message.contains("snapshot 'order push, reworded › delivered' is missing"))
            #expect(
                first.actual.contains("renamed? the closest obsolete snapshot is 'order push › delivered'"), "\(mode)")
            #expect(first.actual.contains(#"+ pushes[0].payload.orderId: "A1001""#), "\(first.actual)")
            #expect(run.summary.obsolete.count == 2)
            #expect(run.summary.obsoleteFailsRun == (mode == .ci))
        }
        // Unchanged but renamed: written locally (nothing differs), the old entries reported obsolete.
        let same = try await Self.run(
            Self.suite().replacingOccurrences(of: "name: order push", with: "name: order push again"), in: dir,
            mode: .local)
        for (s, r) in same.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        #expect(
            same.summary.lines.contains { $0.contains("the closest obsolete snapshot is 'order push › delivered'") })
    }

    /// An added key nothing reads changes only the userInfo: the failure says that route, navigation and
    /// notification did not change, so it reads as harmless rather than as a broken tap.
    @Test func anUnusedAddedKeySaysWhatDidNotChange() async throws {
        let dir = try Self.freshDirectory()
        _ = try await Self.run(Self.suite(), in: dir, mode: .local)
        let added = Self.suite().replacingOccurrences(
            of: "order_id: A1001\n", with: "order_id: A1001\n            utm: x\n")
        let run = try await Self.run(added, in: dir, mode: .ci)
        let failures = Support.failures(try #require(run.results.first?.1))
        let delivered = try #require(failures.first)
        #expect(
            delivered.actual.contains("only the push differs: route, navigation and notification unchanged"),
            "\(delivered.actual)")
        #expect(
            delivered.actual.contains("the userInfo the app's callbacks saw differs (route and navigation unchanged)"),
            "told on the first failure too: \(delivered.actual)")
        let opened = try #require(failures.last)
        #expect(
            opened.actual.contains("the userInfo the app's callbacks saw differs (route and navigation unchanged)"),
            "\(opened.actual)")
    }

    @Test func updateModeRewritesChangedSnapshots() async throws {
        let dir = try Self.freshDirectory()
        _ = try await Self.run(Self.suite(), in: dir, mode: .local)
        let updated = try await Self.run(Self.suite(orderKey: "orderId"), in: dir, mode: .update)
        for (s, r) in updated.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        #expect(updated.summary.updated == ["order push › delivered", "order push › 2"])
        let json = try JSONValue.parse(try String(contentsOfFile: updated.snapshotFile, encoding: .utf8))
        #expect(json[path: "order push.delivered.pushes.0.payload.orderId"] == "A1001")
        let again = try await Self.run(Self.suite(orderKey: "orderId"), in: dir, mode: .ci)
        for (s, r) in again.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
    }

    @Test func ciModeFailsOnAMissingSnapshotAndWritesNothing() async throws {
        let dir = try Self.freshDirectory()
        let run = try await Self.run(Self.suite(), in: dir, mode: .ci)
        let failures = Support.failures(try #require(run.results.first?.1))
        #expect(failures.count == 2)
        #expect(failures.first?.message.contains("is missing from \(dir)/__snapshots__/orders.yaml.snap.json") == true)
        #expect(failures.first?.expected.contains("--update-snapshots") == true)
        #expect(!FileManager.default.fileExists(atPath: run.snapshotFile))
        #expect(run.summary.written.isEmpty)
    }

    @Test func obsoleteEntriesAreReportedThenRemovedByUpdate() async throws {
        let dir = try Self.freshDirectory()
        _ = try await Self.run(Self.suite(extraScenario: true), in: dir, mode: .local)
        // The second scenario is gone, and the order scenario no longer takes its second snapshot.
        let shorter = Self.suite().replacingOccurrences(of: "      - expect: { snapshot: true }\n", with: "")
        let local = try await Self.run(shorter, in: dir, mode: .local)
        for (s, r) in local.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        #expect(
            local.summary.obsolete == [
                "\(dir)/orders.yaml: order push › 2", "\(dir)/orders.yaml: second scenario › 1",
            ])
        #expect(local.summary.lines.contains { $0.contains("run with --update-snapshots to remove it") })
        let update = try await Self.run(shorter, in: dir, mode: .update)
        #expect(update.summary.removed.count == 2)
        let json = try JSONValue.parse(try String(contentsOfFile: update.snapshotFile, encoding: .utf8))
        #expect(json.objectValue?.keys.sorted() == ["order push"])
        #expect(json["order push"]?.objectValue?.keys.sorted() == ["delivered"])
        let after = try await Self.run(shorter, in: dir, mode: .ci)
        #expect(after.summary.obsolete.isEmpty)
    }

    @Test func ignorePathsAreMaskedOnBothSides() async throws {
        let dir = try Self.freshDirectory()
        _ = try await Self.run(Self.suite(), in: dir, mode: .local)
        // The title changes; ignoring it (at any depth) makes the snapshot match again.
        let retitled = Self.suite(ignore: "title").replacingOccurrences(of: "Order A1001 shipped", with: "Shipped!")
        let run = try await Self.run(retitled, in: dir, mode: .ci)
        let failures = Support.failures(try #require(run.results.first?.1))
        // Only the unnamed snapshot (no ignore) differs.
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("order push › 2") == true)
    }

    @Test func snapshotSyntaxErrorsPointAtTheKey() throws {
        let error = try #require(
            try Support.loadError(
                "\(Self.world)\nscenarios:\n  - name: t\n    steps:\n      - expect: { snapshot: { nmae: x } }\n"))
        #expect(error.rendered(color: false).contains("nmae"))
        #expect(error.rendered(color: false).contains("name"))
    }

    @Test func aScenarioLevelSnapshotCoversTheWholeScenario() async throws {
        let dir = try Self.freshDirectory()
        let text = """
            \(Self.world)
            scenarios:
              - name: silent
                snapshot: true
                steps:
                  - background
                  - send: { payload: { aps: { content-available: 1 }, sync: orders } }
                  - expect: { callbacks: { contains: didReceiveRemoteNotification } }
                  - advance_clock: 1s

            """
        let run = try await Self.run(text, in: dir, mode: .local)
        for (s, r) in run.results { #expect(Support.passed(r), "\(s.name): \(Support.describe(r))") }
        #expect(run.summary.written == ["silent › scenario"])
        let json = try JSONValue.parse(try String(contentsOfFile: run.snapshotFile, encoding: .utf8))
        // From the world's set-up on, though an expect came in between: launch and the push's callback.
        #expect(json[path: "silent.scenario.callbacks.0.name"] == "didFinishLaunching")
        #expect(json[path: "silent.scenario.callbacks.1.name"] == "didReceiveRemoteNotification")
        #expect(json[path: "silent.scenario.pushes.0.headers.apns-push-type"] == "background")
    }

    @Test func userInfoEqualsIsRefusedWithTheUnambiguousSpelling() throws {
        let error = try #require(
            try Support.loadError(
                "\(Self.world)\nscenarios:\n  - name: t\n    steps:\n      - expect: { user_info: { equals: { a: 1 } } }\n"
            ))
        let text = error.rendered(color: false)
        #expect(text.contains("would check a key named 'equals'"))
        #expect(text.contains("exactly: { user_info: {…} }"))
        // A path whose value is a scalar is still a path.
        #expect(
            try Support.loadError(
                "\(Self.world)\nscenarios:\n  - name: t\n    steps:\n      - expect: { user_info: { equals: 1 } }\n")
                == nil)
    }

    @Test func anUnnamedSnapshotTakesTheStepsName() async throws {
        let dir = try Self.freshDirectory()
        let text = """
            \(Self.world)
            scenarios:
              - name: named steps
                steps:
                  - name: order shipped
                    send: { payload: { aps: { alert: { title: Hi } }, order_id: A1 } }
                    expect: { snapshot: true }

            """
        let run = try await Self.run(text, in: dir, mode: .local)
        #expect(run.summary.written == ["named steps › order shipped"])
    }

    @Test func twoSnapshotsWithOneNameAreAnError() async throws {
        let dir = try Self.freshDirectory()
        let text = """
            \(Self.world)
            scenarios:
              - name: dup
                steps:
                  - send: { payload: { aps: { alert: { title: Hi } }, order_id: A1 } }
                    expect: { snapshot: same }
                  - tap
                  - expect: { snapshot: same }

            """
        let run = try await Self.run(text, in: dir, mode: .local)
        guard case .error(let type, let message, _)? = run.results.first?.1.status else {
            Issue.record("expected an error")
            return
        }
        #expect(type == .snapshot && message.contains("are named 'same'"))
    }

    @Test func anUnreadableSnapshotFileIsAHarnessErrorNamingIt() async throws {
        let dir = try Self.freshDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/__snapshots__", withIntermediateDirectories: true)
        try "{ not json".write(toFile: dir + "/__snapshots__/orders.yaml.snap.json", atomically: true, encoding: .utf8)
        let run = try await Self.run(Self.suite(), in: dir, mode: .local)
        guard case .error(let type, let message, _)? = run.results.first?.1.status else {
            Issue.record("expected an error")
            return
        }
        #expect(type == .snapshot)
        #expect(message.contains("orders.yaml.snap.json: cannot read the snapshot file"))
        #expect(run.summary.errors.count == 1)
        #expect(
            try String(contentsOfFile: dir + "/__snapshots__/orders.yaml.snap.json", encoding: .utf8) == "{ not json")
    }

    // MARK: exactly / at_least

    static let objectSteps = """
        - background
        - send:
            payload: { aps: { alert: { title: Order A1 } }, order_id: A1, count: 2 }
        - tap
        """

    @Test func wholeObjectsPassExactlyAndAtLeast() async throws {
        let (_, result) = try await Support.runSteps(
            Self.objectSteps + """

                - expect:
                    exactly:
                      user_info: { aps: { alert: { title: Order A1 } }, order_id: A1, count: 2 }
                      payload: { aps: { alert: { title: Order A1 } }, order_id: A1, count: 2 }
                    at_least:
                      user_info: { order_id: A1 }
                      notification: { title: Order A1 }
                """, world: Self.world)
        #expect(Support.passed(result), "\(Support.describe(result))")
    }

    @Test func wholeObjectMismatchPrintsTheStructuralDiff() async throws {
        let (_, result) = try await Support.runSteps(
            Self.objectSteps + """

                - expect:
                    exactly:
                      user_info: { aps: { alert: { title: Order A1 } }, orderId: A1, count: "2" }
                    at_least:
                      notification: { title: Order A1, subtitle: Hello }
                """, world: Self.world)
        let failures = Support.failures(result)
        #expect(failures.count == 2, "\(Support.describe(result))")
        let exact = try #require(failures.first)
        #expect(exact.message == "expect exactly.user_info")
        #expect(exact.actual.contains(#"~ user_info.count: "2" → 2    (type changed: string → number)"#))
        #expect(exact.actual.contains(#"- user_info.orderId: "A1""#))
        #expect(exact.actual.contains(#"+ user_info.order_id: "A1"    (renamed from user_info.orderId?)"#))
        #expect(failures[1].message == "expect at_least.notification")
        #expect(failures[1].actual.contains(#"- notification.subtitle: "Hello""#))
        #expect(!failures[1].actual.contains("+ "), "at_least ignores extra keys")
    }

    @Test func exactlyNamesOnlyWholeObjects() throws {
        let error = try #require(
            try Support.loadError(
                "\(Self.world)\nscenarios:\n  - name: t\n    steps:\n      - expect: { exactly: { user_inf: {} } }\n"))
        #expect(error.rendered(color: false).contains("user_info"))
    }
}
