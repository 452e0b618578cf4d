import Foundation
import PushcheckTestSupport
import Testing

@testable import HTTPServer

/// A connection without ALPN picks HTTP/2 or HTTP/1.1 from its first bytes; a first line that is neither the
/// HTTP/2 preface nor an HTTP/1.x request line is an invalid HTTP/2 preface (RFC 9113 §3.4, h2spec http2/3.5 #2).
@Suite struct ProtocolSnifferTests {
    private func sniff(_ text: String) -> ProtocolSniffer.Verdict { ProtocolSniffer.sniff(Array(text.utf8)) }

    @Test func verdicts() {
        #expect(sniff("PRI * HTTP/2.0\r\n") == .needMore)
        #expect(sniff("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == .http2)
        #expect(sniff("GET / HTTP/1.1\r\nhost: x\r\n\r\n") == .http1_1)
        #expect(sniff("\r\nPOST /x HTTP/1.0\n") == .http1_1)  // an empty line first is skipped (RFC 9112 §2.2)
        #expect(sniff("GET /a-long-path") == .needMore)
        #expect(sniff("INVALID CONNECTION PREFACE\r\n\r\n") == .http2)
        #expect(sniff("GET /\r\n") == .http2)  // HTTP/0.9 is not HTTP/1.x
        #expect(sniff("GET /" + String(repeating: "a", count: ProtocolSniffer.maxFirstLine)) == .http1_1)
    }

    @Test func anInvalidPrefaceOnACleartextListenerGetsGoAwayProtocolError() throws {
        let s = try TestServer()
        let raw = try RawSocket(port: s.port)
        raw.send("INVALID CONNECTION PREFACE\r\n\r\n")
        let (bytes, closed) = raw.readUntilClose()
        #expect(closed)
        let frames = H2Frame.parse(bytes)
        let away = try #require(frames.first { $0.type == 7 }, "no GOAWAY in \(bytes.count) bytes")
        #expect(Array(away.payload[4..<8]) == [0, 0, 0, 1])  // PROTOCOL_ERROR
        let curl = try runTool("curl", ["-sS", "\(s.url)/still-http1"])
        #expect(field("version", in: curl.stdout) == ["HTTP/1.1"], "\(curl.stderr)")
    }
}
