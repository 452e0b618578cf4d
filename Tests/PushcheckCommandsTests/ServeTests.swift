@testable import APNsGateway
import Foundation
@testable import HTTPClient
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import PushcheckCommands

/// `pushcheck serve` end to end: config file → listeners → real clients (curl, nghttp, our libcurl client).
@Suite(.serialized) struct ServeTests {
    static let team = "TEAM123456", kid = "KEY1234567", topic = "com.example.app"
    static let token = String(repeating: "ab", count: 32)
    static let prodToken = String(repeating: "cd", count: 32)

    /// A config file on disk with a fresh .p8 key, one sandbox and one production token.
    struct Fixture {
        let dir: TempDirectory
        let key: P256PrivateKey
        let configPath: String

        init(extra: String = "") throws {
            dir = try TempDirectory("serve")
            key = try P256PrivateKey.generate()
            try dir.write("AuthKey_\(ServeTests.kid).p8", key.pkcs8PEM)
            configPath = try dir.write(
                "serve.yaml",
                """
                listen:
                  h2c: true
                apns:
                  keys:
                    - team_id: \(ServeTests.team)
                      key_id: \(ServeTests.kid)
                      private_key: AuthKey_\(ServeTests.kid).p8
                  tokens:
                    - { token: "\(ServeTests.token)", topic: \(ServeTests.topic), environment: sandbox }
                    - { token: "\(ServeTests.prodToken)", topic: \(ServeTests.topic), environment: production }
                \(extra)
                """)
        }

        func jwt() throws -> String {
            try JWT.apnsProviderToken(
                teamID: ServeTests.team, keyID: ServeTests.kid, issuedAt: Int(Date().timeIntervalSince1970), key: key)
        }
    }

    static func start(_ fixture: Fixture) throws -> RunningGateway {
        let config = try ServeConfiguration.load(path: fixture.configPath)
        return try RunningGateway.start(config, loops: 2, caOut: fixture.dir.file("ca.pem"))
    }

    @Test func curlOverTLSAndH2CAndNghttp() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try Self.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let sandbox = try #require(running.url("sandbox")), h2c = try #require(running.url("sandbox_h2c"))
        let headers = [
            "-H", "authorization: bearer \(try fixture.jwt())", "-H", "apns-topic: \(Self.topic)",
            "-H", "apns-push-type: alert", "-d", #"{"aps":{"alert":"hi"}}"#,
        ]

        let tls = try runTool(
            "curl",
            ["-s", "-i", "--http2", "--cacert", fixture.dir.file("ca.pem")] + headers + [
                "\(sandbox)/3/device/\(Self.token)"
            ])
        #expect(tls.stdout.hasPrefix("HTTP/2 200"), "\(tls)")
        #expect(tls.stdout.contains("apns-unique-id:"), "sandbox answers carry apns-unique-id")

        let clear = try runTool(
            "curl", ["-s", "-i", "--http2-prior-knowledge"] + headers + ["\(h2c)/3/device/\(Self.token)"])
        #expect(clear.stdout.hasPrefix("HTTP/2 200"), "\(clear)")

        let payload = try fixture.dir.write("payload.json", #"{"aps":{"alert":"hi"}}"#)
        let nghttp = try runTool(
            "nghttp",
            [
                "-v", "-d", payload, "-H", "authorization: bearer \(try fixture.jwt())",
                "-H", "apns-topic: \(Self.topic)", "\(sandbox)/3/device/\(Self.token)",
            ])
        #expect(nghttp.stdout.contains(":status: 200"), "\(nghttp)")
        #expect(nghttp.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"), "one stream until a valid token")

        // A sandbox token sent to production is BadDeviceToken; the production token is fine there.
        let production = try #require(running.url("production"))
        let wrongEnv = try runTool(
            "curl",
            ["-s", "--http2", "--cacert", fixture.dir.file("ca.pem")] + headers + [
                "\(production)/3/device/\(Self.token)"
            ])
        #expect(wrongEnv.stdout == #"{"reason":"BadDeviceToken"}"#, "\(wrongEnv)")
        let prod = try runTool(
            "curl",
            ["-s", "-i", "--http2", "--cacert", fixture.dir.file("ca.pem")] + headers + [
                "\(production)/3/device/\(Self.prodToken)"
            ])
        #expect(prod.stdout.hasPrefix("HTTP/2 200"), "\(prod)")
        #expect(!prod.stdout.contains("apns-unique-id:"), "production never sends apns-unique-id")
    }

    @Test func ourClientMultiplexesManyPushesOnOneConnection() async throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try Self.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let client = try APNsClient(
            baseURL: try #require(running.url("sandbox")),
            authentication: .token(
                APNsProviderTokenSigner(teamID: Self.team, keyID: Self.kid, privateKey: fixture.key)),
            trustRoots: try TrustRoots.files([fixture.dir.file("ca.pem")]))
        let first = try await client.send(
            deviceToken: Self.token, json: #"{"aps":{"alert":"first"}}"#,
            headers: APNsRequestHeaders(topic: Self.topic, pushType: .alert))
        #expect(first.status == 200)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<50 {
                group.addTask {
                    try await client.send(
                        deviceToken: Self.token, json: #"{"aps":{"alert":"n\#(i)"}}"#,
                        headers: APNsRequestHeaders(topic: Self.topic, pushType: .alert)
                    ).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 50))
        let log = running.apns.log(matching: APNsLogQuery(token: DeviceToken(hex: Self.token)))
        #expect(log.count == 51)
        #expect(Set(log.map(\.connectionID)).count == 1, "all pushes shared one HTTP/2 connection")
    }

    @Test func controlEndpointDrivesFaultsTokensAndLog() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let running = try Self.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let control = try #require(running.url("control")), h2c = try #require(running.url("sandbox_h2c"))
        func push(_ apnsID: String) throws -> ToolOutput {
            try runTool(
                "curl",
                [
                    "-s", "-i", "--http2-prior-knowledge", "-H", "authorization: bearer \(try fixture.jwt())",
                    "-H", "apns-topic: \(Self.topic)", "-H", "apns-id: \(apnsID)", "-d", #"{"aps":{}}"#,
                    "\(h2c)/3/device/\(Self.token)",
                ])
        }
        // A misspelt fault is refused with the position in the body and a suggestion.
        let bad = try runTool(
            "curl", ["-s", "-XPOST", "\(control)/apns/faults", "-d", #"{"respond": 503, "reson": "Shutdown"}"#])
        #expect(
            bad.stdout.contains(#""error":"unknown key 'reson'""#)
                && bad.stdout.contains(#""help":"did you mean 'reason'?""#), "\(bad)")
        #expect(bad.stdout.contains(#""line":1"#) && bad.stdout.contains(#""column":18"#))

        let added = try runTool(
            "curl",
            ["-s", "-XPOST", "\(control)/apns/faults", "-d", #"{"respond": 503, "reason": "Shutdown", "count": 1}"#])
        #expect(added.stdout.contains(#""id":"#), "\(added)")
        let id1 = "11111111-1111-4111-8111-111111111111", id2 = "22222222-2222-4222-8222-222222222222"
        #expect(try push(id1).stdout.hasPrefix("HTTP/2 503"))
        #expect(try push(id2).stdout.hasPrefix("HTTP/2 200"), "count: 1 fault is used up")

        let log = try runTool("curl", ["-s", "\(control)/apns/log?apns_id=\(id1)"])
        #expect(log.stdout.contains(#""reason":"Shutdown""#) && !log.stdout.contains(id2), "\(log)")

        // Unregister the token: the next push is 410 with a timestamp in milliseconds.
        _ = try runTool(
            "curl",
            ["-s", "-XPOST", "\(control)/apns/tokens/\(Self.token)/unregister", "-d", #"{"at_ms": 1700000000000}"#])
        let gone = try push("33333333-3333-4333-8333-333333333333")
        #expect(gone.stdout.hasPrefix("HTTP/2 410"))
        #expect(gone.stdout.contains(#""timestamp":1700000000000"#), "\(gone)")

        // A dropped connection: the client gets no response at all, and the next connection is served.
        _ = try runTool("curl", ["-s", "-XPOST", "\(control)/apns/faults", "-d", #"{"drop": true, "count": 1}"#])
        let dropped = try push("44444444-4444-4444-8444-444444444444")
        #expect(dropped.status != 0 && !dropped.stdout.contains("HTTP/2"), "\(dropped)")
        _ = try runTool(
            "curl",
            [
                "-s", "-XPOST", "\(control)/apns/tokens", "-d",
                #"{"token": "\#(Self.token)", "topic": "\#(Self.topic)"}"#,
            ])
        #expect(try push("55555555-5555-4555-8555-555555555555").stdout.hasPrefix("HTTP/2 200"))

        let unknown = try runTool("curl", ["-s", "-i", "\(control)/nope"])
        #expect(unknown.stdout.hasPrefix("HTTP/1.1 404"))
    }

    @Test func binaryPrintsReadyLineAndStopsOnSIGTERM() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", fixture.configPath, "--ca-out", fixture.dir.file("ca.pem")])
        let line = try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)")
        let ready = try JSONValue.parse(line)
        let sandbox = try #require(ready[path: "apns.sandbox"]?.stringValue)
        #expect(sandbox.hasPrefix("https://127.0.0.1:"))
        #expect(ready["ca"]?.stringValue == fixture.dir.file("ca.pem"))
        #expect(ready["control"]?.stringValue?.hasPrefix("http://127.0.0.1:") == true)

        let sent = try runTool(
            pushcheckExecutable(),
            [
                "send", "--url", sandbox, "--ca", fixture.dir.file("ca.pem"), "--device-token", Self.token, "--topic",
                Self.topic,
                "--team-id", Self.team, "--key-id", Self.kid, "--key", fixture.dir.file("AuthKey_\(Self.kid).p8"),
                "--payload", #"{"aps":{"alert":"hello"}}"#,
            ])
        #expect(sent.status == 0 && sent.stdout.contains(#""status":200"#), "\(sent)")
        #expect(child.stop(signal: SIGTERM) == 0, "serve exits 0 after SIGTERM; stderr: \(child.stderr)")
    }

    /// `--ca-out ca.pem` put `"ca":"ca.pem"` in the ready line, which a script in another directory cannot open: it
    /// is absolute. `--host 999.1.1.1` exited 3 (cannot start); a malformed address is a usage error (2).
    @Test func theReadyLineNamesTheCAAbsolutelyAndAMalformedHostIsAUsageError() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        // `exec`: the shell becomes serve, so SIGTERM reaches it.
        let child = try ChildProcess(
            "/bin/bash",
            ["-c", "cd \"$1\" && exec \"$2\" serve --ca-out ca.pem", "bash", fixture.dir.path, pushcheckExecutable()])
        let ready = try JSONValue.parse(try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)"))
        #expect(ready["ca"]?.stringValue == fixture.dir.file("ca.pem"), "\(ready)")
        #expect(child.stop(signal: SIGTERM) == 0, "stderr: \(child.stderr)")
        for host in ["999.1.1.1", "localhost"] {
            let bad = try runTool(pushcheckExecutable(), ["serve", "--host", host])
            #expect(bad.status == 2, "\(bad)")
            #expect(bad.stderr.contains("option '--host' expects a numeric IP address"), "\(bad)")
        }
    }

    /// serve that cannot start (its control port is taken) exits 3 and leaves no generated CA file behind: "A
    /// generated CA file (no --ca-out) is removed on exit" held only for a serve that had started.
    @Test func aServeThatCannotStartLeavesNoCAFile() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let tmp = fixture.dir.file("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let busy = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(busy) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(busy, $0, len) == 0 && listen(busy, 1) == 0 && getsockname(busy, $0, &len) == 0
            }
        }
        try #require(listening)
        let port = Int(UInt16(bigEndian: addr.sin_port))
        let out = try runTool(
            pushcheckExecutable(), ["serve", "--config", fixture.configPath, "--control-port", String(port)],
            environment: ["TMPDIR": tmp])
        #expect(out.status == 3, "\(out)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.hasSuffix("-ca.pem") } == [])
    }

    /// `--payload FILE`, `--payload @FILE` and `--payload -` send the file's (or stdin's) bytes, as `send --help` says;
    /// they were sent as the text "FILE" or "-" (400 PayloadEmpty at the gateway).
    @Test func sendsThePayloadOfAFileOrStdinNamedByPayload() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", fixture.configPath, "--ca-out", fixture.dir.file("ca.pem")])
        let ready = try JSONValue.parse(try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)"))
        let sandbox = try #require(ready[path: "apns.sandbox"]?.stringValue)
        let file = try fixture.dir.write("payload.json", #"{"aps":{"alert":"from a file"}}"#)
        func send(_ payload: String, stdin: String? = nil) throws -> ToolOutput {
            try runTool(
                pushcheckExecutable(),
                [
                    "send", "--url", sandbox, "--ca", fixture.dir.file("ca.pem"), "--device-token", Self.token,
                    "--topic", Self.topic, "--team-id", Self.team, "--key-id", Self.kid, "--key",
                    fixture.dir.file("AuthKey_\(Self.kid).p8"), "--payload", payload,
                ], stdin: stdin.map { Array($0.utf8) })
        }
        for payload in [file, "@" + file] {
            let sent = try send(payload)
            #expect(sent.status == 0 && sent.stdout.contains(#""status":200"#), "--payload \(payload): \(sent)")
        }
        let piped = try send("-", stdin: #"{"aps":{"alert":"from stdin"}}"#)
        #expect(piped.status == 0 && piped.stdout.contains(#""status":200"#), "--payload -: \(piped)")
        let missing = try send("@" + fixture.dir.file("nope.json"))
        #expect(missing.status == 2 && missing.stderr.contains("cannot read payload file"), "\(missing)")
        // A misspelt file name without `@` was sent as its own text ("payload.json"): now a usage error.
        for path in [fixture.dir.file("nope.json"), "nope.json"] {
            let misspelt = try send(path)
            #expect(misspelt.status == 2 && misspelt.stderr.contains("no payload file '\(path)'"), "\(misspelt)")
        }
        // Text that is not shaped like a path is still sent as it is (the gateway answers it).
        let word = try send("true")
        #expect(word.status == 1 && word.stdout.contains(#""status":400"#), "\(word)")
        // JSON text is sent as it is, malformed or not: the gateway's answer to it is what such a send tests.
        let malformed = try send(#"{"aps":"#)
        #expect(malformed.status == 1 && malformed.stdout.contains(#""status":400"#), "\(malformed)")
        #expect(child.stop(signal: SIGTERM) == 0, "stderr: \(child.stderr)")
    }

    /// The CONNECT proxy outlives running out of file descriptors: its `accept` failed with EMFILE once and the
    /// listener ended for good (serve and its gateways kept running, the ready line still named the proxy). Here
    /// serve gets 40 descriptors and the test holds 30 silent proxy connections, closes them, then asks again.
    @Test func theProxyAcceptsAgainAfterRunningOutOfDescriptors() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let child = try ChildProcess(
            "/bin/sh",
            [
                "-c", #"ulimit -n 40 && exec "$0" serve --config "$1" --proxy-port 0"#, pushcheckExecutable(),
                fixture.configPath,
            ])
        defer { _ = child.stop() }
        let ready = try JSONValue.parse(try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)"))
        let proxy = try #require(ready["proxy"]?.stringValue)
        let port = try #require(Int(proxy.split(separator: ":").last ?? ""))
        var held: [Int32] = []
        for _ in 0..<30 { held.append(try connectToLoopback(port: port)) }
        usleep(300_000)  // serve has hit its limit by now
        for fd in held { close(fd) }
        usleep(300_000)
        let answer = try runTool(
            "curl", ["-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "-x", proxy, "http://example.com/"])
        #expect(answer.stdout == "405", "the proxy did not answer after running out of descriptors: \(answer)")
    }

    /// curl over HTTP/1.1 gets 505 HTTP2Required from the APNs listener, as APNs answers no HTTP/1.1 request (it got
    /// 200); with `allow_http1: true` it gets its 200.
    @Test(arguments: [false, true])
    func http1PushesAreRefusedUnlessAllowed(allowed: Bool) throws {
        let fixture = try Fixture(extra: allowed ? "  allow_http1: true\n" : "")
        defer { fixture.dir.remove() }
        let running = try ServeTests.start(fixture)
        defer { running.host.shutdown(grace: .seconds(1)) }
        let sandbox = try #require(running.url("sandbox"))
        let out = try runTool(
            "curl",
            [
                "-s", "-i", "--http1.1", "--cacert", fixture.dir.file("ca.pem"), "-H",
                "authorization: bearer \(try fixture.jwt())", "-H", "apns-topic: \(Self.topic)", "-d",
                #"{"aps":{"alert":"hi"}}"#, "\(sandbox)/3/device/\(Self.token)",
            ])
        if allowed {
            #expect(out.stdout.hasPrefix("HTTP/1.1 200"), "\(out)")
        } else {
            #expect(out.stdout.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"), "\(out)")
            #expect(out.stdout.hasSuffix(#"{"reason":"HTTP2Required"}"#), "\(out)")
        }
    }

    @Test func configErrorsPointAtFileLineColumn() throws {
        let dir = try TempDirectory("serve-bad")
        defer { dir.remove() }
        let path = try dir.write(
            "bad.yaml", "listen:\n  sandbox: 0\napns:\n  tokens:\n    - token: abc\n      topic: x\n")
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", path])
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("--> \(path):5:14"), "\(out)")
        #expect(out.stderr.contains("expected a device token in hex"))

        let typo = try dir.write("typo.yaml", "apns:\n  tokns: []\n")
        let typoOut = try runTool(pushcheckExecutable(), ["serve", "--config", typo])
        #expect(typoOut.status == 2 && typoOut.stderr.contains("did you mean 'tokens'?"), "\(typoOut)")

        let usage = try runTool(pushcheckExecutable(), ["serve", "--prot", "1"])
        #expect(usage.status == 2 && usage.stderr.contains("unknown option '--prot'"), "\(usage)")
    }
}
