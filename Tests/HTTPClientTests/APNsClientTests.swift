import Foundation
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import HTTPClient

/// The provider-side APNs helpers: token caching on an injected clock, the request APNsClient puts on
/// the wire (read back from nghttpd's frame log), certificate auth, and response parsing.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct APNsClientTests {
    static let token = "6a8d4f2c0b1e3d5f7a9c8e6b4d2f0a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f"

    /// An APNs client on localhost:`port` authenticating with the test client certificate.
    static func certificateAuthClient(port: Int, httpVersion: HTTPVersionPolicy = .http2) throws -> APNsClient {
        let certs = try TestCertificates.get()
        return try APNsClient(
            baseURL: "https://localhost:\(port)", authentication: .certificate(try testClientCertificate()),
            trustRoots: try TrustRoots.files([certs.ca.cert]), httpVersion: httpVersion)
    }

    @Test func signerCachesUntilRefreshAgeThenSignsAnew() throws {
        let clock = ManualClock()
        let key = try P256PrivateKey.generate()
        let signer = APNsProviderTokenSigner(teamID: "TEAM123456", keyID: "KEY1234567", privateKey: key, clock: clock)
        let start = Int(clock.now().timeIntervalSince1970)

        let first = try signer.currentToken()
        clock.advance(by: 49 * 60 + 59)
        #expect(try signer.currentToken() == first)
        #expect(signer.cachedIssuedAt == start)

        clock.advance(by: 1)  // exactly 50 minutes
        let second = try signer.currentToken()
        #expect(second != first)
        #expect(signer.cachedIssuedAt == start + 50 * 60)

        let jwt = try JWT(compact: second)
        try jwt.verifyES256(using: key.publicKey)
        #expect(jwt.algorithm == "ES256")
        #expect(jwt.keyID == "KEY1234567")
        #expect(jwt.issuer == "TEAM123456")
        #expect(jwt.issuedAt == start + 50 * 60)
    }

    @Test func forcedIssuedAtIsUsedAndCached() throws {
        let clock = ManualClock()
        let signer = APNsProviderTokenSigner(
            teamID: "TEAM123456", keyID: "KEY1234567", privateKey: try P256PrivateKey.generate(), clock: clock,
            refreshAfter: 20 * 60)
        let now = Int(clock.now().timeIntervalSince1970)
        let stale = try signer.force(issuedAt: now - 3601)
        #expect(try JWT(compact: stale).issuedAt == now - 3601)
        // Older than refreshAfter already: the next regular call replaces it.
        let fresh = try signer.currentToken()
        #expect(try JWT(compact: fresh).issuedAt == now)
        signer.invalidate()
        #expect(signer.cachedIssuedAt == nil)
    }

    @Test func tokenAuthRequestOnTheWire() async throws {
        let certs = try TestCertificates.get()
        let server = try startNghttpd(certificate: certs.server)
        defer { server.stop() }
        let signer = APNsProviderTokenSigner(
            teamID: "TEAM123456", keyID: "KEY1234567", privateKey: try P256PrivateKey.generate())
        let apns = try APNsClient(
            baseURL: "https://localhost:\(server.port)/", authentication: .token(signer),
            trustRoots: try TrustRoots.files([certs.ca.cert]))

        let headers = APNsRequestHeaders(
            topic: "com.example.app", pushType: .alert, priority: .immediate, expiration: 0,
            id: "3f1e2d4c-5b6a-4789-8a9b-0c1d2e3f4a5b", collapseID: "score",
            extra: [HTTPField("apns-topic", "com.example.other")])
        let response = try await apns.send(deviceToken: Self.token, json: #"{"aps":{"alert":"hi"}}"#, headers: headers)
        #expect(response.http.httpVersion == .http2)
        #expect(response.status == 404)  // nghttpd has no such file; what matters is what it received

        let lines = server.log().split(separator: "\n").filter { $0.contains("recv (stream_id=1") }
        let received = lines.map { String($0.split(separator: ")", maxSplits: 1)[1].dropFirst()) }
        // curl sends the token as a never-indexed literal, as APNs expects ("sensitive" in nghttpd's log).
        #expect(lines.contains { $0.contains("(stream_id=1, sensitive) authorization: bearer ") })
        #expect(received.contains(":method: POST"))
        #expect(received.contains(":path: /3/device/\(Self.token)"))
        #expect(received.contains("authorization: bearer \(try signer.currentToken())"))
        let apnsHeaders = received.filter { $0.hasPrefix("apns-") }
        #expect(
            apnsHeaders == [
                "apns-topic: com.example.app", "apns-push-type: alert", "apns-priority: 10", "apns-expiration: 0",
                "apns-id: 3f1e2d4c-5b6a-4789-8a9b-0c1d2e3f4a5b", "apns-collapse-id: score",
                "apns-topic: com.example.other",
            ])
    }

    @Test func certificateAuthPresentsTheProviderCertificate() async throws {
        let server = try startMutualTLSPythonServer()
        defer { server.stop() }
        let apns = try Self.certificateAuthClient(port: server.port, httpVersion: .best)

        let response = try await apns.send(
            deviceToken: Self.token, json: "{}", headers: APNsRequestHeaders(id: "0a1b2c3d-0000-4000-8000-000000000001")
        )
        #expect(response.http.value("x-peer") == "pushcheck-client")
        #expect(response.http.value("x-authorization") == "none")  // no bearer token with certificate auth
        #expect(response.status == 410)
        #expect(response.reason == .unregistered)
        #expect(response.timestamp == 1_767_225_600_000)
        #expect(response.apnsID == "0a1b2c3d-0000-4000-8000-000000000001")
    }

    @Test func http2IsRequiredByDefault() async throws {
        let server = try startMutualTLSPythonServer()
        defer { server.stop() }
        let apns = try Self.certificateAuthClient(port: server.port)
        await #expect {
            _ = try await apns.send(deviceToken: Self.token, json: "{}")
        } throws: { error in
            guard case .transport(.unexpectedHTTPVersion(_, "HTTP/2", "HTTP/1.1")) = error as? APNsClientError else {
                return false
            }
            return true
        }
    }

    @Test func responseParsingReadsReasonIDsAndTimestamp() {
        let http = ClientResponse(
            status: 400,
            headers: [
                HTTPField("apns-id", "11111111-2222-4333-8444-555555555555"),
                HTTPField("apns-unique-id", "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"),
            ],
            body: Array(#"{"reason":"BadDeviceToken"}"#.utf8), httpVersion: .http2)
        let response = APNsResponse(http)
        #expect(response.reason == .badDeviceToken)
        #expect(response.reasonText == "BadDeviceToken")
        #expect(response.apnsID == "11111111-2222-4333-8444-555555555555")
        #expect(response.apnsUniqueID == "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee")
        #expect(response.timestamp == nil)
        #expect(APNsResponse(ClientResponse(status: 200)).reasonText == nil)
        #expect(APNsResponse(ClientResponse(status: 400, body: Array(#"{"reason":"NotAReason"}"#.utf8))).reason == nil)
    }
}
