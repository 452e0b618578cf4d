import Foundation
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

/// Record and replay: `serve --record DIR` with curl as the backend (a real third-party HTTP/2 client),
/// then `record-suite DIR` and `run` on the generated suite (snapshots written once, then compared).
@Suite(.serialized) struct RecordReplayTests {
    static let shopApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Suites/apps/shop-app.yaml").path

    /// `serve.yaml` in `dir`: the shop app and its device, and a provider key (written beside it) that signs.
    static func shopServeConfig(in dir: TempDirectory) throws -> (key: P256PrivateKey, config: String) {
        let key = try P256PrivateKey.generate()
        _ = try dir.write("AuthKey_KEY1234567.p8", key.pkcs8PEM)
        let apps = try String(contentsOfFile: shopApp, encoding: .utf8)
        let config = try dir.write(
            "serve.yaml",
            "apns:\n  keys:\n    - { team_id: ABCDE12345, key_id: KEY1234567, private_key: AuthKey_KEY1234567.p8 }\n"
                + apps)
        return (key, config)
    }

    @Test func recordedPushesBecomeASuiteThatReplaysAndSnapshotsThem() throws {
        let dir = try TempDirectory("record")
        defer { dir.remove() }
        // The shop app and its device, served; same keys as the suite's world.
        let (key, config) = try Self.shopServeConfig(in: dir)
        let recordings = dir.file("recorded")
        let child = try ChildProcess(
            pushcheckExecutable(),
            [
                "serve", "--config", config, "--ca-out", dir.file("ca.pem"), "--record", recordings, "--log-file",
                dir.file("log.jsonl"),
            ])
        let line = try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)")
        let ready = try JSONValue.parse(line)
        let sandbox = try #require(ready[path: "apns.sandbox"]?.stringValue)
        let token = try #require(ready["devices"]?["iphone"]?["tokens"]?["com.example.shop"]?.stringValue)
        let jwt = try JWT.apnsProviderToken(
            teamID: "ABCDE12345", keyID: "KEY1234567", issuedAt: Int(Date().timeIntervalSince1970), key: key)
        func push(_ payload: String, _ headers: [String]) throws -> ToolOutput {
            try runTool(
                "curl",
                [
                    "-s", "-i", "--http2", "--cacert", dir.file("ca.pem"), "-H", "authorization: bearer \(jwt)",
                    "-H", "apns-topic: com.example.shop",
                ] + headers.flatMap { ["-H", $0] }
                    + ["-d", payload, "\(sandbox)/3/device/\(token)"])
        }
        let order = try push(
            #"{"aps":{"alert":{"title":"Order A1001 shipped"}},"order_id":"A1001","note":"it's ${here}"}"#,
            ["apns-push-type: alert"])
        #expect(order.stdout.hasPrefix("HTTP/2 200"), "\(order)")
        let silent = try push(
            #"{"aps":{"content-available":1},"sync":"orders"}"#, ["apns-push-type: background", "apns-priority: 5"])
        #expect(silent.stdout.hasPrefix("HTTP/2 200"), "\(silent)")
        let rejected = try push(#"{"aps":{"alert":"x"}}"#, ["apns-push-type: voip"])
        #expect(rejected.stdout.hasPrefix("HTTP/2 400"), "a rejected push is not recorded: \(rejected)")
        #expect(child.stop(signal: SIGTERM) == 0, "stderr: \(child.stderr)")

        let files = try FileManager.default.contentsOfDirectory(atPath: recordings).sorted()
        #expect(files == ["0001.json", "0002.json"])
        let first = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recordings + "/0001.json"))))
        #expect(first["topic"] == "com.example.shop" && first["push_type"] == "alert")
        #expect(first[path: "payload.order_id"] == "A1001")

        // The recording becomes a suite beside the shop app.
        let suites = dir.file("suites")
        try FileManager.default.createDirectory(atPath: suites, withIntermediateDirectories: true)
        let suite = try runTool(pushcheckExecutable(), ["record-suite", recordings, "--app", Self.shopApp])
        #expect(suite.status == 0, "\(suite)")
        #expect(suite.stdout.contains("$${here}"), "payload text is not read as a variable")
        // Replayed as sent (its key order), not as the recording's sorted `payload`.
        #expect(first["payload_text"] != nil)
        #expect(
            suite.stdout.contains(
                #"payload: '{"aps":{"alert":{"title":"Order A1001 shipped"}},"order_id":"A1001","note":"it''s $${here}"}'"#
            ),
            "\(suite.stdout)")
        try suite.stdout.write(toFile: suites + "/recorded.yaml", atomically: true, encoding: .utf8)

        // First run (not CI) writes the snapshots; a CI run then compares and passes.
        let run1 = try runTool(
            pushcheckExecutable(), ["run", suites, "--junit", dir.file("j1.xml")], environment: ["CI": ""])
        #expect(run1.status == 0, "\(run1)")
        #expect(run1.stdout.contains("snapshot written: alert com.example.shop: aps{alert} note order_id › tapped"))
        let snap = try JSONValue.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: suites + "/__snapshots__/recorded.yaml.snap.json"))))
        let tapped = try #require(snap["alert com.example.shop: aps{alert} note order_id"]?["tapped"])
        #expect(tapped[path: "navigation.title"] == "Order A1001 shipped")
        #expect(tapped[path: "callbacks.0.user_info.note"] == "it's ${here}")
        #expect(
            snap["background com.example.shop: aps{content-available} sync"]?["received"]?[
                path: "pushes.0.headers.apns-priority"] == "5")
        let run2 = try runTool(
            pushcheckExecutable(), ["run", suites, "--junit", dir.file("j2.xml")], environment: ["CI": "true"])
        #expect(run2.status == 0, "\(run2)")

        // Without --app the world gets a minimal app per topic; it loads and replays too.
        let bare = try runTool(pushcheckExecutable(), ["record-suite", recordings])
        #expect(bare.stdout.contains(#"- bundle_id: "com.example.shop""#))
        let bareDir = dir.file("bare")
        try FileManager.default.createDirectory(atPath: bareDir, withIntermediateDirectories: true)
        try bare.stdout.write(toFile: bareDir + "/recorded.yaml", atomically: true, encoding: .utf8)
        let run3 = try runTool(
            pushcheckExecutable(), ["run", bareDir, "--junit", dir.file("j3.xml")], environment: ["CI": ""])
        #expect(run3.status == 0, "\(run3)")

        // serve's JSON-lines delivery log works as a recording too (its accepted requests only).
        let fromLog = try runTool(
            pushcheckExecutable(), ["record-suite", dir.file("log.jsonl"), "--app", Self.shopApp])
        #expect(fromLog.status == 0, "\(fromLog)")
        #expect(fromLog.stdout.contains(#"- name: "alert com.example.shop: aps{alert} note order_id""#))
        // A log has no per-push files: a scenario's description names the log and its line.
        #expect(
            fromLog.stdout.range(
                of: #"description: "log\.jsonl:[0-9]+: Order A1001 shipped""#, options: .regularExpression) != nil,
            "\(fromLog.stdout)")
        #expect(!fromLog.stdout.contains(".json: "))
        #expect(fromLog.stdout.contains(#"- name: "background com.example.shop: aps{content-available} sync""#))
        #expect(!fromLog.stdout.contains("0003"))
        // A log is not a `serve --record` directory: the header says which it was.
        #expect(
            fromLog.stdout.hasPrefix("# Replays the pushes accepted in the delivery log `\(dir.file("log.jsonl"))`"))
        #expect(!fromLog.stdout.contains("serve --record"))
        #expect(fromLog.stdout.contains(#"apns-priority: "5""#))
        let missing = try runTool(pushcheckExecutable(), ["record-suite", dir.file("nope")])
        #expect(missing.status == 2 && missing.stderr.contains("no such file or directory"))
    }

    @Test func theControlEndpointStartsAndStopsRecording() throws {
        let dir = try TempDirectory("record-control")
        defer { dir.remove() }
        let (key, config) = try Self.shopServeConfig(in: dir)
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", config, "--ca-out", dir.file("ca.pem")])
        defer { _ = child.stop() }
        let ready = try JSONValue.parse(try #require(child.firstLine(), "stderr: \(child.stderr)"))
        let sandbox = try #require(ready[path: "apns.sandbox"]?.stringValue)
        let control = try #require(ready["control"]?.stringValue)
        let token = try #require(ready["devices"]?["iphone"]?["tokens"]?["com.example.shop"]?.stringValue)
        let jwt = try JWT.apnsProviderToken(
            teamID: "ABCDE12345", keyID: "KEY1234567", issuedAt: Int(Date().timeIntervalSince1970), key: key)
        func push(_ n: Int) throws {
            let out = try runTool(
                "curl",
                [
                    "-s", "-i", "--http2", "--cacert", dir.file("ca.pem"), "-H", "authorization: bearer \(jwt)",
                    "-H", "apns-topic: com.example.shop", "-d",
                    #"{"aps":{"alert":{"title":"Order \#(n)"}},"order_id":"A\#(n)"}"#,
                    "\(sandbox)/3/device/\(token)",
                ])
            #expect(out.stdout.hasPrefix("HTTP/2 200"), "\(out)")
        }
        let recordings = dir.file("rec")
        try push(1)  // before recording: not kept
        let off = try runTool("curl", ["-s", "\(control)/apns/recording"])
        #expect(try JSONValue.parse(off.stdout)["recording"] == false)
        let bad = try runTool("curl", ["-s", "-XPOST", "\(control)/apns/recording", "-d", #"{"dir": "x"}"#])
        #expect(bad.stdout.contains(#""error""#) && bad.stdout.contains(#""line":1"#), "\(bad)")
        let on = try runTool(
            "curl", ["-s", "-XPOST", "\(control)/apns/recording", "-d", #"{"directory": "\#(recordings)"}"#])
        #expect(try JSONValue.parse(on.stdout)["directory"]?.stringValue == recordings, "\(on)")
        try push(2)
        let stopped = try runTool("curl", ["-s", "-XDELETE", "\(control)/apns/recording"])
        #expect(try JSONValue.parse(stopped.stdout)["recording"] == false)
        try push(3)  // after stopping: not kept
        #expect(try FileManager.default.contentsOfDirectory(atPath: recordings) == ["0001.json"])
        let only = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: recordings + "/0001.json"))))
        #expect(only[path: "payload.order_id"] == "A2")
    }
}
