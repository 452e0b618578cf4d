import Foundation
@testable import HTTPServer
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import APNsGateway

/// The gateway on real HTTPServer TLS listeners, driven by `curl --http2` and `nghttp`.
@Suite(.serialized) struct SocketIntegrationTests {
    static let ca = try! CertificateAuthority.generate(commonName: "apns integration CA")
    /// The CA, a sandbox-only APNs client certificate and a payload, as files for curl and nghttp.
    static let dir: TempDirectory = {
        let d = try! TempDirectory.forProcess("apns-it")
        try! d.write("ca.pem", ca.certificatePEM)
        let sandboxOnly = try! ca.issueAPNsClientCertificate(
            APNsClientCertificateRequest(bundleID: Fixture.topic, teamID: Fixture.team, environments: .sandbox))
        try! sandboxOnly.write(certificateTo: d.file("client.pem"), privateKeyTo: d.file("client.key"))
        try! d.write("payload.json", #"{"aps":{"alert":"hello"}}"#)
        return d
    }()
    static func path(_ name: String) -> String { dir.file(name) }

    let gateway: APNsGateway
    let consumer = RecordingConsumer()
    let server: HTTPServer
    let sandboxURL: String
    let productionURL: String

    init() throws {
        var c = APNsGatewayConfiguration()
        c.providerKeys = [APNsProviderKey(keyID: Fixture.kid, teamID: Fixture.team, publicKey: Fixture.key.publicKey)]
        c.deviceTokens = [
            RegisteredDeviceToken(token: Fixture.sandboxToken, topic: Fixture.topic, environment: .sandbox),
            RegisteredDeviceToken(token: Fixture.productionToken, topic: Fixture.topic, environment: .production),
        ]
        c.maxConcurrentStreams = 77
        gateway = try APNsGateway(configuration: c, clock: SystemClock())
        gateway.setConsumer(consumer)
        let serverCert = try Self.ca.issueServerCertificate()
        let tls = TLSConfiguration(
            certificateChainPEM: serverCert.pem, privateKeyPEM: serverCert.privateKeyPEM,
            clientCertificates: .request(trustedCAPEMs: [Self.ca.certificatePEM]))
        server = HTTPServer(
            listeners: [
                ListenerConfiguration(name: "sandbox", tls: tls, handler: gateway.handler(for: .sandbox)),
                ListenerConfiguration(name: "production", tls: tls, handler: gateway.handler(for: .production)),
            ], loops: 1)
        let bound = try server.start()
        sandboxURL = bound.first { $0.name == "sandbox" }!.url
        productionURL = bound.first { $0.name == "production" }!.url
    }

    func jwt() -> String {
        try! JWT.apnsProviderToken(
            teamID: Fixture.team, keyID: Fixture.kid, issuedAt: Int(Date().timeIntervalSince1970), key: Fixture.key)
    }

    func curl(_ url: String, token: DeviceToken, headers: [String], extra: [String] = []) throws -> (
        status: Int, headers: String, body: String
    ) {
        var args = [
            "-sS", "--http2", "--cacert", Self.path("ca.pem"), "-D", "-", "-o", Self.path("body-\(UUID().uuidString)"),
        ]
        let bodyPath = args[args.count - 1]
        for h in headers { args += ["-H", h] }
        args += extra + ["--data-binary", "@" + Self.path("payload.json"), "\(url)/3/device/\(token.hex)"]
        let r = try runTool("curl", args)
        #expect(r.status == 0, "curl failed: \(r.stderr)")
        let statusLine = r.stdout.split(separator: "\r\n").first ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? -1
        let body = (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? ""
        return (status, r.stdout.lowercased(), body)
    }

    @Test func tokenAuthOverCurl() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let ok = try curl(
            sandboxURL, token: Fixture.sandboxToken,
            headers: [
                "authorization: bearer \(jwt())", "apns-topic: \(Fixture.topic)", "apns-push-type: alert",
                "apns-id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301",
            ])
        #expect(ok.status == 200)
        #expect(ok.headers.contains("apns-id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301"))
        #expect(ok.headers.contains("apns-unique-id: "))
        #expect(consumer.pushes.first?.json[path: "aps.alert"] == "hello")

        let prod = try curl(
            productionURL, token: Fixture.productionToken,
            headers: ["authorization: bearer \(jwt())", "apns-topic: \(Fixture.topic)"])
        #expect(prod.status == 200)
        #expect(!prod.headers.contains("apns-unique-id"))

        let bad = try curl(
            sandboxURL, token: Fixture.productionToken,
            headers: ["authorization: bearer \(jwt())", "apns-topic: \(Fixture.topic)"])
        #expect(bad.status == 400)
        #expect(bad.headers.contains("content-type: application/json"))
        #expect(try JSONValue.parse(bad.body) == ["reason": "BadDeviceToken"])

        let entries = gateway.log()
        #expect(entries.map(\.status) == [200, 200, 400])
        #expect(entries.map(\.endpoint) == [.sandbox, .production, .sandbox])
    }

    @Test func fifteenHundredPushesOnOneCurlConnection() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        // One curl process reuses one connection for every URL. libcurl 7.88 (Debian 12) resets each stream after
        // an answer without a body (RST_STREAM on a closed stream, which RFC 9113 §5.1 allows): nghttp2 counted
        // them as a rapid reset and the 1,001st push failed with "Error in the HTTP2 framing layer".
        let url = "\(sandboxURL)/3/device/\(Fixture.sandboxToken.hex)"
        var args = [
            "-sS", "--http2", "--cacert", Self.path("ca.pem"), "-o", "/dev/null", "-w",
            "%{http_code} %{num_connects}\\n",
            "-H", "authorization: bearer \(jwt())", "-H", "apns-topic: \(Fixture.topic)",
            "--data-binary", "@" + Self.path("payload.json"),
        ]
        args += Array(repeating: url, count: 1500)
        let r = try runTool("curl", args)
        #expect(r.status == 0, "curl failed: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1500)
        #expect(lines.filter { $0.hasPrefix("200 ") }.count == 1500, "\(Set(lines))")
        #expect(lines.filter { $0.hasSuffix(" 1") }.count == 1, "one connection for all")
        #expect(gateway.log().filter { $0.status == 200 }.count == 1500)
    }

    @Test func certificateAuthOverCurl() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let certArgs = ["--cert", Self.path("client.pem"), "--key", Self.path("client.key")]
        let ok = try curl(
            sandboxURL, token: Fixture.sandboxToken, headers: ["apns-topic: \(Fixture.topic)"], extra: certArgs)
        #expect(ok.status == 200)
        #expect(gateway.log().last?.auth == .certificate(uid: Fixture.topic))
        let wrongEnv = try curl(
            productionURL, token: Fixture.productionToken, headers: ["apns-topic: \(Fixture.topic)"], extra: certArgs)
        #expect(wrongEnv.status == 403)
        #expect(try JSONValue.parse(wrongEnv.body) == ["reason": "BadCertificateEnvironment"])
    }

    @Test func oneStreamUntilValidTokenSeenByNghttp() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let r = try runTool(
            "nghttp",
            [
                "-v", "-H", ":method: POST", "-H", "authorization: bearer \(jwt())", "-H",
                "apns-topic: \(Fixture.topic)",
                "-d", Self.path("payload.json"), "\(sandboxURL)/3/device/\(Fixture.sandboxToken.hex)",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):77]"))
        #expect(r.stdout.contains(":status: 200"))
    }

    @Test func goAwayFaultSeenByNghttp() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        // A 503 Shutdown answer plus GOAWAY, as APNs does when it closes a connection. (The answer has a
        // body, so nghttp reads the GOAWAY before the stream ends; a bodiless 200 would race nghttp's exit.)
        gateway.addFault(APNsFault(.reject(.shutdown), count: 1))
        gateway.addFault(APNsFault(.goAway(reason: "Shutdown", afterRequests: 1), count: 1))
        let r = try runTool(
            "nghttp",
            [
                "-v", "-H", ":method: POST", "-H", "authorization: bearer \(jwt())", "-H",
                "apns-topic: \(Fixture.topic)",
                "-d", Self.path("payload.json"), "\(sandboxURL)/3/device/\(Fixture.sandboxToken.hex)",
            ])
        #expect(gateway.log().last?.faultApplied == true)
        #expect(r.stdout.contains("recv GOAWAY frame"), "\(r.stdout)")
        #expect(r.stdout.contains(#"opaque_data(21)=[{"reason":"Shutdown"}]"#), "\(r.stdout)")
        #expect(r.stdout.contains(":status: 503"))
    }
}
