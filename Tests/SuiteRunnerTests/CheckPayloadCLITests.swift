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
}
