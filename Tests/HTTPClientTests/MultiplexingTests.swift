import Foundation
import HTTPTypes
import PushcheckTestSupport
import Testing

@testable import HTTPClient

/// HTTP/2 behaviour that APNs providers rely on, checked against nghttpd's frame log.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct MultiplexingTests {
    /// Both the APNs preset (one connection per host) and the default (up to four, but PIPEWAIT asks curl
    /// to wait for the first connection's ALPN answer) must put all 50 streams on one connection.
    @Test(arguments: ["apnsProvider", "default"])
    func fiftyConcurrentPostsShareOneConnection(preset: String) async throws {
        let certs = try TestCertificates.get()
        let server = try startNghttpd(certificate: certs.server)
        defer { server.stop() }
        let roots = try TrustRoots.files([certs.ca.cert])
        let client = try HTTPClient(
            configuration: preset == "default"
                ? HTTPClientConfiguration(trustRoots: roots) : .apnsProvider(trustRoots: roots))
        let url = "https://localhost:\(server.port)/index.html"

        let responses = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for i in 0..<50 {
                group.addTask {
                    try await client.execute(
                        .post(url, headers: [HTTPField("x-seq", String(i))], body: Array("{\"n\":\(i)}".utf8)))
                }
            }
            var all: [ClientResponse] = []
            for try await response in group { all.append(response) }
            return all
        }

        #expect(responses.count == 50)
        #expect(responses.allSatisfy { $0.status == 200 && $0.httpVersion == .http2 })
        // One TCP connection: curl opened exactly one, and every response came over the same local port.
        #expect(responses.map(\.newConnections).reduce(0, +) == 1)
        #expect(Set(responses.map(\.localPort)).count == 1)
        // nghttpd numbers its connections ([id=N], counting our readiness probe) and saw 50 POST
        // streams, all on one connection.
        let log = server.log()
        let posts = log.split(separator: "\n").filter { $0.contains(":method: POST") }
        #expect(posts.count == 50)
        #expect(Set(posts.map { $0.prefix { $0 != "]" } }).count == 1)
        let streamIDs = Set(
            posts.compactMap { line -> Int? in
                guard let start = line.firstRange(of: "stream_id=")?.upperBound,
                    let end = line[start...].firstIndex(of: ")")
                else { return nil }
                return Int(line[start..<end])
            })
        #expect(streamIDs.count == 50)
    }

    @Test func duplicateHeadersReachAnHTTP2Server() async throws {
        let server = try startNghttpd(certificate: nil)
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(httpVersion: .http2PriorKnowledge))

        let response = try await client.execute(
            .post(
                "http://127.0.0.1:\(server.port)/index.html",
                headers: [
                    HTTPField("apns-topic", "com.example.one"), HTTPField("apns-topic", "com.example.two"),
                ],
                body: Array("{}".utf8)))
        #expect(response.status == 200)
        let received = server.log().split(separator: "\n").filter { $0.contains("recv (stream_id=1) apns-topic:") }
        #expect(received.count == 2)
        #expect(received.first?.hasSuffix("apns-topic: com.example.one") == true)
        #expect(received.last?.hasSuffix("apns-topic: com.example.two") == true)
    }
}
