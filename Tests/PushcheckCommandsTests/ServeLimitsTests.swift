@testable import APNsGateway
import Foundation
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import PushcheckCommands

/// The gateway's limits as a client meets them on real sockets: oversized bodies, the log's byte budget and
/// pages, and control bodies that do not parse. Each case is sent as the attack was (curl, h2load).
@Suite(.serialized) struct ServeLimitsTests {
    typealias Fixture = ServeTests.Fixture

    private func control(_ running: RunningGateway, _ path: String) throws -> JSONValue {
        let url = try #require(running.url("control"))
        let r = try runTool("curl", ["-sS", "\(url)\(path)"])
        return try JSONValue.parse(r.stdout)
    }

    @Test func aBodyOverOneMiBGets413PayloadTooLargeAndALogEntry() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let sandbox = try #require(running.url("sandbox"))
        let big = try fixture.dir.write("big.json", String(repeating: "x", count: (1 << 20) + 1))
        // Unauthenticated, as the attack was: the size is refused before anything reads the body.
        let r = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", fixture.dir.file("ca.pem"), "-H", "apns-topic: \(ServeTests.topic)",
                "--data-binary", "@" + big, "-w", "\n%{http_code}", "\(sandbox)/3/device/\(ServeTests.token)",
            ])
        #expect(r.stdout == "{\"reason\":\"PayloadTooLarge\"}\n413", "\(r)")
        let entries = try control(running, "/apns/log")["entries"]?.arrayValue ?? []
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["status"] == 413)
        #expect(entry["reason"] == "PayloadTooLarge")
        #expect(entry["payload"] == "")
        #expect(entry["payload_truncated"] == true)
        #expect(entry["payload_size"] == .number(Double((1 << 20) + 1)))
        #expect(entry["token"] == .string(ServeTests.token))
    }

    @Test func aControlBodyOverOneMiBGets413WithAJSONError() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let base = try #require(running.url("control"))
        let big = try fixture.dir.write("big.json", String(repeating: "x", count: (1 << 20) + 1))
        // HTTP/1.1 and h2c with prior knowledge: both transports hand the oversized request to the control API.
        for version in ["--http1.1", "--http2-prior-knowledge"] {
            let r = try runTool(
                "curl",
                [
                    "-sS", version, "-H", "content-type: application/json", "--data-binary", "@" + big,
                    "-w", "\n%{http_code}", "\(base)/apns/faults",
                ])
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.last == "413", "\(version): \(r)")
            let body = try JSONValue.parse(String(lines.first ?? ""))
            #expect(
                body["error"]?.stringValue?.hasPrefix("request body is over the control endpoint's 1 MiB limit")
                    == true, "\(body)")
            #expect(body["help"] != nil)
        }
        // Nothing was acted on, and the endpoint still answers.
        #expect(try control(running, "/apns/faults")["faults"]?.arrayValue?.isEmpty == true)
        #expect(try control(running, "/health")["status"] == "ok")
    }

    @Test func theLogKeepsTheHeadOfLargeBodiesAndStaysInItsByteBudget() throws {
        let fixture = try Fixture(extra: "  log: { max_bytes: 1MiB, max_payload_bytes: 64KiB }")
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let sandbox = try #require(running.url("sandbox"))
        // 40 unauthenticated 200 KB bodies: each kept cut to 64 KiB, and 1 MiB holds about 15 of them.
        let body = try fixture.dir.write("body.json", String(repeating: "y", count: 200_000))
        let h2 = try runTool(
            "h2load", ["-n", "40", "-c", "1", "-d", body, "\(sandbox)/3/device/\(ServeTests.token)"], timeout: 60)
        #expect(h2.stdout.contains("40 done"), "\(h2)")
        let answer = try control(running, "/apns/log")
        let entries = answer["entries"]?.arrayValue ?? []
        #expect((10...16).contains(entries.count), "\(entries.count) entries kept")
        #expect(answer["evicted"] == .number(Double(40 - entries.count)))
        #expect(entries.last?["sequence"] == 40)
        for entry in entries {
            #expect(entry["payload"]?.stringValue?.utf8.count == 64 << 10)
            #expect(entry["payload_truncated"] == true)
            #expect(entry["payload_size"] == 200_000)
        }
        #expect(running.apns.state.withLock { $0.log.bytes } <= 1 << 20)
    }

    @Test func theLogIsReadAPageAtATime() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let h2c = try #require(running.url("sandbox_h2c"))
        let h2 = try runTool("h2load", ["-n", "25", "-c", "1", "\(h2c)/3/device/\(ServeTests.token)"], timeout: 60)
        #expect(h2.stdout.contains("25 done"), "\(h2)")

        let first = try control(running, "/apns/log?after=0&limit=10")
        #expect(first["entries"]?.arrayValue?.map { $0["sequence"] } == (1...10).map { .number(Double($0)) })
        #expect(first["has_more"] == true)
        #expect(first["next_after"] == 10)
        let last = try control(running, "/apns/log?after=20&limit=10")
        #expect(last["entries"]?.arrayValue?.map { $0["sequence"] } == (21...25).map { .number(Double($0)) })
        #expect(last["has_more"] == false)
        #expect(last["next_after"] == 25)
        let empty = try control(running, "/apns/log?after=25")
        #expect(empty["entries"]?.arrayValue?.isEmpty == true)
        #expect(empty["next_after"] == 25)
        let newest = try control(running, "/apns/log?limit=5")
        #expect(newest["entries"]?.arrayValue?.map { $0["sequence"] } == (21...25).map { .number(Double($0)) })
        #expect(newest["has_more"] == true)

        let tooMany = try control(running, "/apns/log?limit=10000")
        #expect(tooMany["error"] == "limit must be a number from 1 to 1000", "\(tooMany)")
        #expect(tooMany["help"] == "read more with ?after=<next_after of the previous answer>")
        let badCursor = try control(running, "/apns/log?after=x")
        #expect(badCursor["error"] == "after must be a sequence number (0 for the oldest)")
        // A misspelt filter is a 400, not every entry: a CI check on `?stauts=403` passed on the wrong data.
        let typo = try control(running, "/apns/log?stauts=403&limit=2")
        #expect(
            typo["error"]?.stringValue
                == "unknown query parameter 'stauts' (known: after, limit, token, topic, apns_id, apns_unique_id, "
                + "endpoint, status, channel_id); did you mean 'status'?", "\(typo)")
        #expect(try control(running, "/apns/log?status=200&limit=1")["error"] == nil)
    }

    @Test func deliveriesAreReadAPageAtATimeLikeTheLog() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let h2c = try #require(running.url("sandbox_h2c"))
        let payload = try fixture.dir.write("push.json", #"{"aps":{"alert":"hi"}}"#)
        let h2 = try runTool(
            "h2load",
            [
                "-n", "25", "-c", "1", "-d", payload, "-H", "authorization: bearer \(try fixture.jwt())",
                "-H", "apns-topic: \(ServeTests.topic)", "\(h2c)/3/device/\(ServeTests.token)",
            ], timeout: 60)
        #expect(h2.stdout.contains("25 2xx"), "\(h2)")

        let first = try control(running, "/apns/deliveries?after=0&limit=10")
        #expect(
            first["deliveries"]?.arrayValue?.map { $0["sequence"] } == (1...10).map { .number(Double($0)) }, "\(first)")
        #expect(first["deliveries"]?.arrayValue?.allSatisfy { $0["disposition"] == "delivered" } == true)
        #expect(first["has_more"] == true)
        #expect(first["next_after"] == 10)
        let last = try control(running, "/apns/deliveries?after=20&limit=10")
        #expect(last["deliveries"]?.arrayValue?.map { $0["sequence"] } == (21...25).map { .number(Double($0)) })
        #expect(last["has_more"] == false)
        #expect(last["next_after"] == 25)
        let newest = try control(running, "/apns/deliveries?limit=5")
        #expect(newest["deliveries"]?.arrayValue?.map { $0["sequence"] } == (21...25).map { .number(Double($0)) })
        #expect(newest["has_more"] == true)
        #expect(newest["evicted"] == 0)
        let otherDevice = try control(running, "/apns/deliveries?token=\(ServeTests.prodToken)")
        #expect(otherDevice["deliveries"]?.arrayValue?.isEmpty == true)
        #expect(otherDevice["next_after"] == 25)

        let tooMany = try control(running, "/apns/deliveries?limit=0")
        #expect(tooMany["error"] == "limit must be a number from 1 to 1000", "\(tooMany)")
        let badToken = try control(running, "/apns/deliveries?token=zz")
        #expect(badToken["error"] == "'zz' is not a hex device token")
        let typo = try control(running, "/apns/deliveries?tokn=\(ServeTests.prodToken)")
        #expect(
            typo["error"] == "unknown query parameter 'tokn' (known: after, limit, token); did you mean 'token'?",
            "\(typo)")
    }

    @Test func unregisterRefusesBodiesThatDoNotParse() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let control = try #require(running.url("control"))
        let url = "\(control)/apns/tokens/\(ServeTests.token)/unregister"
        func post(_ body: String) throws -> (status: String, json: JSONValue?) {
            let r = try runTool("curl", ["-sS", "-XPOST", url, "-d", body, "-w", "\n%{http_code}"])
            let parts = r.stdout.split(separator: "\n")
            return (String(parts.last ?? ""), try? JSONValue.parse(String(parts.first ?? "")))
        }
        let braces = try post("{{{")
        #expect(braces.status == "400")
        // libyaml finds the missing content at the end of the text, as for any control POST.
        #expect(
            braces.json?["error"] == "syntax error: did not find expected node content",
            "\(String(describing: braces.json))")
        #expect(braces.json?["line"] == 2 && braces.json?["column"] == 1)
        let garbage = try post(#"{"at_ms":"garbage"}"#)
        #expect(garbage.status == "400")
        #expect(garbage.json?["line"] == 1 && garbage.json?["column"] == 10, "\(String(describing: garbage.json))")
        let misspelt = try post(#"{"at": 1}"#)
        #expect(misspelt.status == "400")
        #expect(misspelt.json?["help"] == "did you mean 'at_ms'?", "\(String(describing: misspelt.json))")
        #expect(running.apns.registeredTokens.first { $0.token.hex == ServeTests.token }?.unregisteredAt == nil)
        let good = try post(#"{"at_ms": 1700000000000}"#)
        #expect(good.status == "200")
        #expect(
            running.apns.registeredTokens.first { $0.token.hex == ServeTests.token }?.unregisteredAt
                == Date(timeIntervalSince1970: 1_700_000_000))
        let now = try runTool("curl", ["-sS", "-XPOST", url, "-w", "%{http_code}", "-o", "/dev/null"])
        #expect(now.stdout == "200")
    }

    @Test func serveCutsAPrefaceTrickledPastHandshakeTimeout() throws {
        let dir = try TempDirectory("serve-handshake")
        defer { dir.remove() }
        let path = try dir.write("serve.yaml", "listen: { h2c: true, handshake_timeout: 1s }\n")
        let running = try RunningGateway.start(
            try ServeConfiguration.load(path: path), loops: 1, caOut: dir.file("ca.pem"))
        defer { running.host.shutdown(grace: .seconds(1)) }
        let url = try #require(running.url("sandbox_h2c"))
        let port = try #require(url.split(separator: ":").last)
        // One preface byte every 0.3 s (the whole preface would take 7 s); prints when the server closed.
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.settimeout(0.3)
            start = time.time()
            for b in b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n":
                try:
                    s.send(bytes([b]))
                    if s.recv(65536) == b"":
                        print("closed after %.1f s" % (time.time() - start)); sys.exit(0)
                except socket.timeout:
                    pass
                except (ConnectionResetError, BrokenPipeError):
                    print("closed after %.1f s" % (time.time() - start)); sys.exit(0)
            print("still open after %.1f s" % (time.time() - start))
            """
        let r = try runTool("python3", ["-c", script], timeout: 30)
        #expect(r.stdout.hasPrefix("closed after"), "\(r)")
        let seconds = Double(r.stdout.split(separator: " ")[2]) ?? 99
        #expect(seconds >= 0.9 && seconds < 4, "\(r.stdout)")
    }
}
