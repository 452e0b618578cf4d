import Foundation
import PushcheckTestSupport
@testable import SuiteFormat
import Testing

/// `record-suite LOG`: serve's JSON-lines delivery log, as written on any system (CRLF too) and with blank lines.
@Suite struct RecordedLogTests {
    static func entry(_ alert: String) -> String {
        #"{"status":200,"topic":"com.example.shop","endpoint":"sandbox","payload":"{\"aps\":{\"alert\":\""#
            + alert + #"\"}}","headers":[{"name":"apns-push-type","value":"alert"}]}"#
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
