import Foundation
import PushcheckTestSupport
import Testing

/// `pushcheck check-payload` as a backend's tests call it: files and JSON lines on stdin, exit codes.
@Suite struct CheckPayloadCLITests {
    static let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Suites/apps/shop-app.yaml").path

    @Test func filesAndStdin() throws {
        let dir = try TempDirectory("check-payload")
        defer { dir.remove() }
        let good = try dir.write("good.json", #"{"aps":{"alert":{"title":"Order A1001 shipped"}},"order_id":"A1001"}"#)
        let renamed = try dir.write(
            "renamed.json", #"{"aps":{"alert":{"title":"Order A1001 shipped"}},"orderId":"A1001"}"#)
        let ok = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app, "--route", "order", good])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains(#"tap: route order → Orders › order "Order A1001 shipped""#))
        let bad = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app, good, renamed])
        #expect(bad.status == 1, "\(bad)")
        #expect(
            bad.stdout.contains(
                "route order FAILS: key 'order_id' should be string, found missing (did you mean 'orderId'?)"))
        #expect(bad.stdout.contains("2 payloads checked against com.example.shop: 1 broken"))
        let lines = Array(
            (#"{"aps":{"alert":{"title":"a"}},"order_id":"1"}"# + "\n"
                + #"{"aps":{"alert":"b"},"promo_code":"X","discount":5}"# + "\n").utf8)
        let stdin = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app], stdin: lines)
        #expect(stdin.status == 0, "\(stdin)")
        #expect(stdin.stdout.contains("stdin:2: alert"))
        #expect(stdin.stdout.contains("tap: route offer → Home › offer \"Offer\""))
        let usage = try runTool(pushcheckExecutable(), ["check-payload", good])
        #expect(usage.status == 2)
        let badApp = try runTool(pushcheckExecutable(), ["check-payload", "--app", dir.file("missing.yaml"), good])
        #expect(badApp.status == 2)
    }

    /// `--push-type liveactivity` checks the payload against the app's `live_activities:` as the device decodes it
    /// (it said "all fit" for a content-state the device drops) and prints no tap/foreground route: ActivityKit
    /// takes the push, never the app's router.
    @Test func liveActivityPayloadsAreCheckedAgainstTheDeclaredActivity() throws {
        let rides = URL(fileURLWithPath: Self.app).deletingLastPathComponent().appendingPathComponent("rides-app.yaml")
            .path
        let dir = try TempDirectory("check-payload-la")
        defer { dir.remove() }
        let bad = try dir.write(
            "bad.json", #"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":"soon"}}}"#)
        let good = try dir.write(
            "good.json", #"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":3,"driver":"Ann"}}}"#)
        let start = try dir.write(
            "start.json",
            #"{"aps":{"event":"start","timestamp":1,"attributes-type":"RideAttributes","attributes":{},"content-state":{"eta":3,"driver":"Ann"}}}"#
        )
        let r = try runTool(
            pushcheckExecutable(), ["check-payload", "--app", rides, "--push-type", "liveactivity", bad, good, start])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdout.contains(
                #"FAIL the device drops it (activity-content-state-invalid): content-state.eta: expected int, got string "soon""#
            ), "\(r)")
        #expect(
            r.stdout.contains(
                "FAIL the device drops it (activity-attributes-invalid): attributes.ride_id missing (string required)"),
            "\(r)")
        #expect(r.stdout.contains("3 payloads checked against com.example.rides: 2 broken"), "\(r)")
        #expect(!r.stdout.contains("tap:") && !r.stdout.contains("foreground:"), "\(r)")
    }

    /// Without `--push-type`, a payload with `aps.event` or `aps.content-state` is checked as an alert and fits; it
    /// says it looks like a Live Activity push (it said nothing), and the exit stays 0.
    @Test func aLiveActivityPayloadWithoutPushTypeIsWarned() throws {
        let rides = URL(fileURLWithPath: Self.app).deletingLastPathComponent().appendingPathComponent("rides-app.yaml")
            .path
        let r = try runTool(
            pushcheckExecutable(), ["check-payload", "--app", rides],
            stdin: Array(
                (#"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":"soon"}}}"# + "\n"
                    + #"{"aps":{"alert":"hi"}}"# + "\n").utf8))
        #expect(r.status == 0, "\(r)")
        let warning =
            "  WARN  looks like a Live Activity push: give --push-type liveactivity to check it against the app's "
            + "live_activities"
        #expect(r.stdout.components(separatedBy: warning).count == 2, "\(r)")
        #expect(r.stdout.range(of: warning)!.lowerBound < r.stdout.range(of: "stdin:2:")!.lowerBound, "\(r)")
    }

    /// CRLF line ends and blank lines on stdin: one payload per non-blank line, named by its physical line.
    @Test func crlfAndBlankLinesOnStdin() throws {
        let lines = Array(
            (#"{"aps":{"alert":"a"}}"# + "\r\n\r\n  \n" + #"{"aps":{"alert":"b"},"order_id":5}"# + "\r\n").utf8)
        let out = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app], stdin: lines)
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.contains("stdin:1: alert, 21 of 4096 bytes"), "\(out.stdout)")
        #expect(out.stdout.contains("stdin:4: alert"), "\(out.stdout)")
        #expect(out.stdout.contains("key 'order_id' should be string, found number"), "\(out.stdout)")
        #expect(out.stdout.contains("2 payloads checked against com.example.shop: 2 broken"), "\(out.stdout)")
    }

    /// A payload that is not JSON is a broken payload (exit 1) that says where as the suite loader does,
    /// `file:line:col:` (a stdin payload is one line: `stdin:N:col:`), with no push type or size line.
    @Test func invalidJSONSaysWhere() throws {
        let lines = Array((#"{"aps":{"alert":"a"},}"# + "\n").utf8)
        let out = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app], stdin: lines)
        #expect(out.status == 1, "\(out)")
        #expect(out.stdout.hasPrefix("stdin:1:22: invalid JSON: expected a string key\n"), "\(out.stdout)")
        #expect(!out.stdout.contains("bytes"), "no size for what is not JSON: \(out.stdout)")
        #expect(out.stdout.contains("1 payload checked against com.example.shop: 1 broken"), "\(out.stdout)")
        let dir = try TempDirectory("check-payload")
        defer { dir.remove() }
        let bad = try dir.write(
            "bad.json", "{\n  \"aps\": {\"alert\": \"é\"},\n  \"order_id\": \"A1\",\n  \"count\": ,\n}\n")
        let file = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app, bad])
        #expect(file.status == 1)
        #expect(file.stdout.hasPrefix("\(bad):4:12: invalid JSON: "), "\(file.stdout)")
    }

    /// No payloads (empty stdin, or only blank lines) printed "0 payloads checked … all fit" and exited 0: a
    /// pipeline that lost its payloads passed. It is exit 5, as run's nothing selected.
    @Test(arguments: ["", "\n  \r\n\n"])
    func noPayloadsIsExitFive(stdin: String) throws {
        let out = try runTool(pushcheckExecutable(), ["check-payload", "--app", Self.app], stdin: Array(stdin.utf8))
        #expect(out.status == 5, "\(out)")
        #expect(out.stderr.contains("pushcheck check-payload: no payloads to check"), "\(out)")
        #expect(!out.stdout.contains("all fit"), "\(out)")
    }
}
