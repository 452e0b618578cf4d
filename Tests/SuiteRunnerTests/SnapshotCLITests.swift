import Foundation
import PushcheckTestSupport
@testable import Reports
import Testing

/// `pushcheck run` with snapshot checks, as users run it locally and in CI: the real binary, the snapshot
/// file on disk, the console and the JUnit failure text.
@Suite(.serialized) struct SnapshotCLITests {
    static let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Suites/apps/shop-app.yaml").path

    static func suite(_ key: String) -> String {
        """
        world:
          include: \(app)
        scenarios:
          - name: order push
            steps:
              - background
              - send: { payload: { aps: { alert: { title: Order A1001 shipped } }, \(key): A1001 } }
                expect: { snapshot: delivered }
              - tap
              - expect: { snapshot: opened }
        """
    }

    /// `pushcheck run` with `CI` set to `ci` ("" = unset for this run).
    func run(_ ws: CLIWorkspace, _ arguments: [String] = [], ci: String = "") throws -> ToolOutput {
        try runTool(
            pushcheckExecutable(), ["run", ws.dir.file("suites"), "--junit", ws.report] + arguments,
            environment: ["CI": ci], timeout: 60)
    }

    @Test func localWritesCIFailsOnMissingUpdateAcceptsAChange() throws {
        let ws = try CLIWorkspace(["suites/orders.yaml": Self.suite("order_id")])
        defer { ws.remove() }
        let snap = ws.dir.file("suites/__snapshots__/orders.yaml.snap.json")

        // CI (CI=true, or --ci): a missing snapshot is a failure and nothing is written.
        let ci = try run(ws, ci: "true")
        #expect(ci.status == 1, "\(ci)")
        #expect(ci.stdout.contains("snapshot 'order push › delivered' is missing from"))
        #expect(!FileManager.default.fileExists(atPath: snap))
        #expect(try run(ws, ["--ci"]).status == 1)

        // Locally the first run writes the snapshots and says so.
        let first = try run(ws)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("snapshot written: order push › delivered"))
        #expect(first.stdout.contains("snapshot files written: \(snap)"))
        #expect(FileManager.default.fileExists(atPath: snap))
        #expect(try run(ws, ci: "true").status == 0)

        // The backend renames a key: the diff is on the console and in the JUnit failure text.
        try Self.suite("orderId").write(toFile: ws.dir.file("suites/orders.yaml"), atomically: true, encoding: .utf8)
        let changed = try run(ws, ci: "true")
        #expect(changed.status == 1, "\(changed)")
        #expect(changed.stdout.contains(#"- pushes[0].payload.order_id: "A1001""#))
        #expect(
            changed.stdout.contains(
                #"+ pushes[0].payload.orderId: "A1001"    (renamed from pushes[0].payload.order_id?)"#))
        #expect(changed.stdout.contains("route: routed order (tap) → now route order failed"))
        guard case let .failure(problem)? = outcome(named: "order push", in: try ws.readReport()) else {
            Issue.record("order push should be a <failure>")
            return
        }
        #expect(problem.detail.contains(#"+ pushes[0].payload.orderId: "A1001""#))
        #expect(problem.detail.contains("and later in the scenario, because of it:"))

        // -u accepts the change; the next CI run passes.
        let update = try run(ws, ["-u"])
        #expect(update.status == 0, "\(update)")
        #expect(update.stdout.contains("snapshot updated: order push › delivered"))
        #expect(try String(contentsOfFile: snap, encoding: .utf8).contains(#""orderId": "A1001""#))
        #expect(try run(ws, ci: "true").status == 0)

        // A removed snapshot step leaves an obsolete entry: reported (locally the run passes; in CI, which can
        // neither remove it nor tell a renamed scenario from a removed one, it fails), then removed by -u.
        let shorter = Self.suite("orderId").replacingOccurrences(of: "      - expect: { snapshot: opened }", with: "")
        try shorter.write(toFile: ws.dir.file("suites/orders.yaml"), atomically: true, encoding: .utf8)
        let obsolete = try run(ws, ci: "true")
        #expect(obsolete.status == 1, "\(obsolete)")
        #expect(
            obsolete.stdout.contains("snapshot obsolete: \(ws.dir.file("suites/orders.yaml")): order push › opened"))
        #expect(obsolete.stdout.contains("1 obsolete snapshot: the run fails (--ci)"), "\(obsolete.stdout)")
        let local = try run(ws)
        #expect(local.status == 0, "\(local)")
        #expect(local.stdout.contains("1 obsolete snapshot: no scenario takes it any more"), "\(local.stdout)")
        let removed = try run(ws, ["--update-snapshots"])
        #expect(removed.stdout.contains("snapshot removed (obsolete): "))
        #expect(!(try String(contentsOfFile: snap, encoding: .utf8)).contains("opened"))
    }

    /// `--ci` writes nothing and `-u` writes: asked for both, the run refuses (exit 2, one line) and writes no
    /// snapshot. `-u` under `CI=true` updates: the option overrides the environment.
    @Test func ciAndUpdateTogetherAreRefused() throws {
        let ws = try CLIWorkspace(["suites/orders.yaml": Self.suite("order_id")])
        defer { ws.remove() }
        let snap = ws.dir.file("suites/__snapshots__/orders.yaml.snap.json")
        for arguments in [["--ci", "-u"], ["--update-snapshots", "--ci"]] {
            let out = try run(ws, arguments)
            #expect(out.status == 2, "\(out)")
            #expect(out.stderr.hasPrefix("pushcheck run: error: --ci and -u/--update-snapshots together"), "\(out)")
            #expect(!FileManager.default.fileExists(atPath: snap))
        }
        let update = try run(ws, ["-u"], ci: "true")
        #expect(update.status == 0, "\(update)")
        #expect(FileManager.default.fileExists(atPath: snap))
    }

    @Test func helpShowsTheShortOption() throws {
        let help = try runTool(pushcheckExecutable(), ["run", "--help"])
        #expect(help.output.contains("-u, --update-snapshots"))
        #expect(help.output.contains("--ci"))
    }
}
