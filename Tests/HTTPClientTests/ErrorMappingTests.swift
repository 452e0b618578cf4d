import Foundation
import HTTPTypes
import Testing

@testable import HTTPClient

/// Broken servers produce the error case a caller can act on, with curl's text.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ErrorMappingTests {
    func failure(_ path: String, port: Int) async -> HTTPClientError? {
        do throws(HTTPClientError) {
            let client = try HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: .seconds(10)))
            _ = try await client.execute(.get("http://127.0.0.1:\(port)\(path)"))
            return nil
        } catch {
            return error
        }
    }

    @Test func brokenServersMapToTypedErrors() async throws {
        let server = try startPythonServer()
        defer { server.stop() }

        let nothing = await failure("/nothing", port: server.port)
        guard case .connectionClosed(_, let detail) = nothing else {
            Issue.record("closing without a reply should be connectionClosed, got \(String(describing: nothing))")
            return
        }
        #expect(!detail.isEmpty)

        let short = await failure("/short", port: server.port)
        guard case .protocolError = short else {
            Issue.record("a body cut short should be protocolError, got \(String(describing: short))")
            return
        }

        let garbage = await failure("/garbage", port: server.port)
        guard case .protocolError = garbage else {
            Issue.record("a non-HTTP reply should be protocolError, got \(String(describing: garbage))")
            return
        }
    }

    @Test func headerWithLineBreakIsRejectedBeforeSending() async throws {
        let client = try HTTPClient()
        await #expect {
            _ = try await client.execute(
                .get("http://127.0.0.1:1/", headers: [HTTPField("x-evil", "a\r\nx-injected: 1")]))
        } throws: { error in
            guard case .configuration(let message) = error as? HTTPClientError else { return false }
            return message.contains("x-evil")
        }
    }
}
