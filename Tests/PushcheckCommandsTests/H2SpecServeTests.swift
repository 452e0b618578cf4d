import Foundation
@testable import PushModel
import PushcheckTestSupport
import Testing

/// h2spec (HTTP/2 conformance, 146 cases) against every HTTP/2 listener `pushcheck serve` opens: both APNs
/// environments over TLS and as h2c, both channel-management listeners, the FCM listener and its h2c twin, and the
/// control endpoint (h2c). The
/// runner's own listeners are checked where they are built (DeviceBridgeTests: the shared world server;
/// SuiteRunnerTests: the fixture web server). A failure names every failing case, as h2spec numbers it.
@Suite(.serialized) struct H2SpecServeTests {
    @Test(.disabled(if: H2Spec.skipReason != nil, Comment(rawValue: H2Spec.skipReason ?? "")))
    func everyServeListenerPassesAllOfH2Spec() throws {
        _ = try H2Spec.binary()
        let dir = try TempDirectory("h2spec-serve")
        defer { dir.remove() }
        let config = try dir.write(
            "serve.yaml",
            """
            fcm:
              projects:
                - { id: demo-project, number: "123456789012" }
            """)
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", config, "--h2c", "--ca-out", dir.file("ca.pem")])
        defer { _ = child.stop() }
        let ready = try JSONValue.parse(try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)"))
        var listeners: [(String, String)] = []
        for name in ["sandbox", "production", "sandbox_h2c", "production_h2c"] {
            listeners.append((name, try #require(ready[path: "apns.\(name)"]?.stringValue, "no \(name) in \(ready)")))
        }
        for name in ["sandbox", "production"] {
            let url = try #require(ready[path: "broadcast.\(name)"]?.stringValue, "no broadcast \(name) in \(ready)")
            listeners.append(("broadcast_" + name, url))
        }
        for name in ["fcm", "fcm_h2c", "control"] {
            listeners.append((name, try #require(ready[name]?.stringValue, "no \(name) in \(ready)")))
        }
        for (name, url) in listeners {
            let result = try H2Spec.run(url)
            #expect(result.passed, "h2spec against serve's \(name) listener (\(url)):\n\(result)")
        }
    }

    /// The report reader names each failing case with its section and number.
    @Test func failingCasesAreNamed() {
        let result = H2Spec.parse(Self.failingReport)
        #expect(!result.passed)
        #expect(result.summary == "146 tests, 143 passed, 0 skipped, 3 failed")
        #expect(
            result.failures.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "http2/5.1 #8", "http2/5.1.1 #2", "http2/5.3.1 #2",
            ])
        #expect(result.failures[0].contains("closed: Sends a DATA frame after sending RST_STREAM frame"))
        #expect(result.failures[1].contains("Actual: DATA Frame (length:29, flags:0x01, stream_id:5)"))
        #expect(H2Spec.parse("146 tests, 146 passed, 0 skipped, 0 failed\n").passed)
        #expect(!H2Spec.parse("panic: connection refused\n").passed, "no summary line is a failure")
    }

    /// The end of a real h2spec 2.6.0 report (three of its failures before the fixes).
    static let failingReport = #"""
        Failures: 

        Hypertext Transfer Protocol Version 2 (HTTP/2)
          5. Streams and Multiplexing
            5.1. Stream States
              × 8: closed: Sends a DATA frame after sending RST_STREAM frame
                -> The endpoint MUST treat this as a stream error of type STREAM_CLOSED.
                   Expected: GOAWAY Frame (Error Code: STREAM_CLOSED)
                             RST_STREAM Frame (Error Code: STREAM_CLOSED)
                             Connection closed
                     Actual: Timeout

              5.1.1. Stream Identifiers
                × 2: Sends stream identifier that is numerically smaller than previous
                  -> The endpoint MUST respond with a connection error of type PROTOCOL_ERROR.
                     Expected: GOAWAY Frame (Error Code: PROTOCOL_ERROR)
                               Connection closed
                       Actual: DATA Frame (length:29, flags:0x01, stream_id:5)

            5.3. Stream Priority
              5.3.1. Stream Dependencies
                × 2: Sends PRIORITY frame that depend on itself
                  -> The endpoint MUST treat this as a stream error of type PROTOCOL_ERROR.
                     Expected: GOAWAY Frame (Error Code: PROTOCOL_ERROR)
                               RST_STREAM Frame (Error Code: PROTOCOL_ERROR)
                               Connection closed
                       Actual: Timeout

        Finished in 12.6314 seconds
        146 tests, 143 passed, 0 skipped, 3 failed
        """#
}
