import Foundation
@testable import HTTPServer
import HTTPTypes
import PushcheckTestSupport
import Synchronization
import Testing

@testable import HTTPClient

/// Records what pushcheck's own HTTPServer received, and answers per path.
final class RecordingHandler: HTTPHandler {
    struct Seen: Sendable {
        var connectionID: UInt64
        var request: HTTPRequest
    }
    private let seen = Mutex<[Seen]>([])

    var requests: [Seen] { seen.withLock { $0 } }

    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        seen.withLock { $0.append(Seen(connectionID: context.id, request: request)) }
        var response = HTTPResponse(
            status: 200, headers: [HTTPField("apns-id", "00000000-0000-4000-8000-000000000000")])
        if request.path == "/goaway" {
            response.actions = [.goAway(errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))]
        }
        responder.respond(response)
    }
}

/// The client against pushcheck's own HTTPServer (the transport the mock gateways run on).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PushcheckServerTests {
    func startServer(handler: RecordingHandler) throws -> (HTTPServer, BoundListener, TrustRoots) {
        let certs = try TestCertificates.get()
        let tls = TLSConfiguration(
            certificateChainPEM: try String(contentsOfFile: certs.server.cert, encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: certs.server.key, encoding: .utf8))
        let server = HTTPServer(
            listeners: [ListenerConfiguration(name: "sandbox", tls: tls, handler: handler)], loops: 1)
        let bound = try server.start()
        return (server, bound[0], try TrustRoots.files([certs.ca.cert]))
    }

    @Test func concurrentPostsShareOneServerConnectionAndKeepHeaderOrder() async throws {
        let handler = RecordingHandler()
        let (server, bound, roots) = try startServer(handler: handler)
        defer { server.shutdown(grace: .seconds(1)) }
        let client = try HTTPClient(configuration: .apnsProvider(trustRoots: roots))
        let url = "https://localhost:\(bound.port)/3/device/abcd"

        let responses = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for i in 0..<50 {
                group.addTask {
                    try await client.execute(
                        .post(
                            url,
                            headers: [
                                HTTPField("apns-topic", "a.\(i)"), HTTPField("apns-push-type", "alert"),
                                HTTPField("apns-topic", "b.\(i)"),
                            ], body: Array("{}".utf8)))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.allSatisfy { $0.status == 200 && $0.httpVersion == .http2 })
        #expect(responses.allSatisfy { $0.value("apns-id") == "00000000-0000-4000-8000-000000000000" })
        let seen = handler.requests
        #expect(seen.count == 50)
        #expect(Set(seen.map(\.connectionID)).count == 1)
        #expect(Set(seen.compactMap(\.request.streamID)).count == 50)
        for entry in seen {
            let topics = entry.request.values("apns-topic")
            #expect(topics.count == 2 && topics[0].hasPrefix("a.") && topics[1].hasPrefix("b."))
        }
    }

    @Test func goAwayIsFollowedByAFreshConnection() async throws {
        let handler = RecordingHandler()
        let (server, bound, roots) = try startServer(handler: handler)
        defer { server.shutdown(grace: .seconds(1)) }
        let client = try HTTPClient(configuration: .apnsProvider(trustRoots: roots))

        let first = try await client.execute(.post("https://localhost:\(bound.port)/goaway", body: []))
        #expect(first.status == 200)
        let second = try await client.execute(.post("https://localhost:\(bound.port)/after", body: []))
        #expect(second.status == 200)
        #expect(second.newConnections == 1)
        let ids = handler.requests.map(\.connectionID)
        #expect(ids.count == 2 && ids[0] != ids[1])
    }
}
