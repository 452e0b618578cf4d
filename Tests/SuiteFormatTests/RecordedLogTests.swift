import Foundation
import PushModel
import PushcheckTestSupport
@testable import SuiteFormat
import Testing

/// `record-suite LOG`: serve's JSON-lines delivery log, as written on any system (CRLF too) and with blank lines.
@Suite struct RecordedLogTests {
    static func entry(_ alert: String) -> String {
        #"{"status":200,"topic":"com.example.shop","endpoint":"sandbox","payload":"{\"aps\":{\"alert\":\""#
            + alert + #"\"}}","headers":[{"name":"apns-push-type","value":"alert"}]}"#
    }

    /// Recorded scenarios are named by push type, app and payload keys: a reworded title or a dropped push renames no
    /// other scenario (their snapshots stay theirs); the text, a string alert's too, is in the description.
    @Test func scenarioNamesAreStableKeys() throws {
        func recording(_ n: Int, _ payload: String) throws -> RecordedSuite.Recording {
            RecordedSuite.Recording(
                name: String(format: "%04d.json", n),
                json: ["topic": "com.example.shop", "push_type": "alert", "payload": try JSONValue.parse(payload)])
        }
        func names(_ text: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix("  - name: ") }.map { String($0.dropFirst(10)) }
        }
        let before = RecordedSuite.yaml(
            [
                try recording(1, #"{"aps":{"alert":"20% off"},"promo_code":"W20"}"#),
                try recording(2, #"{"aps":{"alert":{"title":"Order A1 shipped"}},"order_id":"A1"}"#),
            ], appInclude: nil, source: "rec")
        let after = RecordedSuite.yaml(
            [try recording(1, #"{"aps":{"alert":{"title":"Order A1 dispatched"}},"order_id":"A1"}"#)],
            appInclude: nil, source: "rec")
        #expect(
            names(before) == [
                #""alert com.example.shop: aps{alert} promo_code""#, #""alert com.example.shop: aps{alert} order_id""#,
            ])
        #expect(names(after) == [#""alert com.example.shop: aps{alert} order_id""#])
        #expect(before.contains(#"description: "0001.json: 20% off""#))
        #expect(before.hasPrefix("# Replays the pushes recorded by `pushcheck serve --record rec`"))
    }

    /// A log's payload is replayed as it was sent (key order, `1.0`), not rewritten; a push FCM sent says so.
    @Test func aLoggedPayloadIsReplayedAsSent() throws {
        let dir = try TempDirectory("recorded-log")
        defer { dir.remove() }
        let line =
            #"{"status":200,"topic":"com.example.shop","endpoint":"sandbox","payload":"{\"order_id\":\"A1\",\"price\":1.0,\"aps\":{\"alert\":\"x\"},\"gcm.message_id\":\"1\",\"google.c.sender.id\":\"2\"}","headers":[]}"#
        let log = try dir.write("log.jsonl", line + "\n")
        let text = RecordedSuite.yaml(try RecordedSuite.load(path: log), appInclude: nil, source: log, fromLog: true)
        #expect(
            text.contains(
                #"payload: '{"order_id":"A1","price":1.0,"aps":{"alert":"x"},"gcm.message_id":"1","google.c.sender.id":"2"}'"#
            ), "\(text)")
        #expect(text.contains("# sent through FCM: replayed as FCM's APNs translation, straight to APNs"))
    }

    @Test func crlfAndBlankLinesAreReadLineByLine() throws {
        let dir = try TempDirectory("recorded-log")
        defer { dir.remove() }
        let log = try dir.write("log.jsonl", Self.entry("one") + "\r\n\r\n" + Self.entry("two") + "\r\n")
        let recordings = try RecordedSuite.load(path: log)
        #expect(recordings.map { $0.json["payload"]?["aps"]?["alert"]?.stringValue } == ["one", "two"])

        // A line that is not a log line is named by its physical line: the 4th, after a blank one.
        let bad = try dir.write("bad.jsonl", Self.entry("one") + "\r\n\r\n" + Self.entry("two") + "\r\nnot json\r\n")
        #expect {
            _ = try RecordedSuite.load(path: bad)
        } throws: { error in
            "\(error)" == "\(bad):4: not a delivery log line"
        }
    }
}
