import Foundation
@testable import HTTPServer
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import APNsGateway

/// The channel-management API and broadcast sends on real TLS listeners, driven by nghttp and by curl with
/// Apple's host names resolved to loopback (the server certificate names them), in the shape of Apple's curl
/// samples ("Sending channel management requests to APNs", "Sending broadcast push notification requests").
@Suite(.serialized) struct BroadcastSocketTests {
    static let ca = try! CertificateAuthority.generate(commonName: "broadcast socket CA")
    static let dir: TempDirectory = {
        let d = try! TempDirectory.forProcess("apns-broadcast-it")
        try! d.write("ca.pem", ca.certificatePEM)
        try! d.write("create.json", #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#)
        try! d.write("update.json", #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"eta":2}}}"#)
        return d
    }()

    let f = BroadcastFixture()
    let server: HTTPServer
    let pushPort: Int
    let managePort: Int

    init() throws {
        let cert = try Self.ca.issueServerCertificate()
        let tls = TLSConfiguration(certificateChainPEM: cert.pem, privateKeyPEM: cert.privateKeyPEM)
        server = HTTPServer(
            listeners: [
                ListenerConfiguration(name: "sandbox", tls: tls, handler: f.gateway.handler(for: .sandbox)),
                ListenerConfiguration(
                    name: "broadcast_sandbox", tls: tls, handler: f.gateway.channelHandler(for: .sandbox)),
            ], loops: 1)
        let bound = try server.start()
        pushPort = bound.first { $0.name == "sandbox" }!.port
        managePort = bound.first { $0.name == "broadcast_sandbox" }!.port
    }

    func jwt() -> String {
        try! JWT.apnsProviderToken(
            teamID: Fixture.team, keyID: Fixture.kid, issuedAt: Int(f.clock.now().timeIntervalSince1970),
            key: Fixture.key)
    }

    /// curl against `https://<host>:<port><path>`, `host` resolved to this test's listener.
    func curl(_ host: String, _ port: Int, _ path: String, _ args: [String]) throws -> (status: Int, head: String) {
        let r = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", Self.dir.file("ca.pem"), "-D", "-", "-o", "/dev/null",
                "--resolve", "\(host):\(port):127.0.0.1",
            ] + args + ["https://\(host):\(port)\(path)"])
        #expect(r.status == 0, "curl failed: \(r.stderr)")
        let status = Int(r.stdout.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first ?? "") ?? -1
        return (status, r.stdout.lowercased())
    }

    @Test func applesCurlSamples() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let manage = "api-manage-broadcast.sandbox.push.apple.com"
        let created = try curl(
            manage, managePort, "/1/apps/\(Fixture.topic)/channels",
            [
                "--header", "authorization: bearer \(jwt())",
                "--header", "apns-request-id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301",
                "--data", "@" + Self.dir.file("create.json"),
            ])
        #expect(created.status == 201, "\(created.head)")
        #expect(created.head.contains("apns-request-id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301"))
        let id = try #require(f.gateway.log().last?.channelID)
        #expect(created.head.contains("apns-channel-id: \(id.lowercased())"))

        let sent = try curl(
            "api.sandbox.push.apple.com", pushPort, "/4/broadcasts/apps/\(Fixture.topic)",
            [
                "--header", "apns-channel-id: \(id)", "--header", "apns-push-type: liveactivity",
                "--header", "apns-priority: 10", "--header", "authorization: bearer \(jwt())",
                "--data", "@" + Self.dir.file("update.json"),
            ])
        #expect(sent.status == 200, "\(sent.head)")
        #expect(f.consumer.pushes.last?.channelID == id)

        let deleted = try curl(
            manage, managePort, "/1/apps/\(Fixture.topic)/channels",
            ["-X", "DELETE", "--header", "authorization: bearer \(jwt())", "--header", "apns-channel-id: \(id)"])
        #expect(deleted.status == 204)
    }

    /// Channel management needs HTTP/2 as pushes do (Tests/reference/apns.md §8.1): curl over HTTP/1.1 gets the push
    /// listener's 505 HTTP2Required and creates nothing (it got 201 and 200).
    @Test func http1ChannelRequestsAreRefused() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let manage = "api-manage-broadcast.sandbox.push.apple.com"
        let before = f.gateway.channels.count
        let created = try curl(
            manage, managePort, "/1/apps/\(Fixture.topic)/channels",
            ["--http1.1", "--header", "authorization: bearer \(jwt())", "--data", "@" + Self.dir.file("create.json")])
        #expect(created.status == 505, "\(created.head)")
        #expect(f.gateway.channels.count == before)
        #expect(f.gateway.log().last?.reason == APNsGateway.http2RequiredReason)
        #expect(f.gateway.log().last?.detail == APNsGateway.http2RequiredDetail)
        let list = try curl(
            manage, managePort, "/1/apps/\(Fixture.topic)/all-channels",
            ["--http1.1", "--header", "authorization: bearer \(jwt())"])
        #expect(list.status == 505, "\(list.head)")
    }

    @Test func nghttpReadsAndBroadcasts() throws {
        defer { server.shutdown(grace: .seconds(1)) }
        let list = try runTool(
            "nghttp",
            [
                "-v", "-H", "authorization: bearer \(jwt())",
                "https://127.0.0.1:\(managePort)/1/apps/\(Fixture.topic)/all-channels",
            ])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains(":status: 200"), "\(list.stdout)")
        #expect(list.stdout.contains(#"{"channels":["c3BvcnRzLWZpbmFs","c2NvcmUtdGlja2Vy"]}"#), "\(list.stdout)")
        let read = try runTool(
            "nghttp",
            [
                "-v", "-H", "authorization: bearer \(jwt())", "-H", "apns-channel-id: \(BroadcastFixture.unstored)",
                "https://127.0.0.1:\(managePort)/1/apps/\(Fixture.topic)/channels",
            ])
        #expect(read.stdout.contains(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#), "\(read.stdout)")
        let send = try runTool(
            "nghttp",
            [
                "-v", "-H", ":method: POST", "-H", "authorization: bearer \(jwt())",
                "-H", "apns-channel-id: \(BroadcastFixture.stored)", "-H", "apns-push-type: liveactivity",
                "-d", Self.dir.file("update.json"), "https://127.0.0.1:\(pushPort)/4/broadcasts/apps/\(Fixture.topic)",
            ])
        #expect(send.stdout.contains(":status: 200"), "\(send.stdout)")
        #expect(send.stdout.contains("apns-request-id: "), "\(send.stdout)")
        // The one-stream rule holds on the push listener for broadcasts too: 1, then the configured maximum.
        #expect(send.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"), "\(send.stdout)")
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) != nil)
        let refused = try runTool(
            "nghttp",
            [
                "-v", "-H", ":method: PUT", "-H", "authorization: bearer \(jwt())",
                "https://127.0.0.1:\(managePort)/1/apps/\(Fixture.topic)/channels",
            ])
        #expect(refused.stdout.contains(":status: 405"), "\(refused.stdout)")
        #expect(refused.stdout.contains(#"{"reason":"MethodNotAllowed"}"#), "\(refused.stdout)")
    }
}
