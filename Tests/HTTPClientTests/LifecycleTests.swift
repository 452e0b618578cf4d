import Foundation
import Testing

@testable import HTTPClient

/// Cancellation and shutdown end requests promptly with typed errors.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct LifecycleTests {
    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try startPythonServer()
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: .seconds(20)))

        let url = "http://127.0.0.1:\(server.port)/slow"
        let task = Task { () -> HTTPClientError? in
            do throws(HTTPClientError) {
                _ = try await client.execute(.get(url))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let outcome = await task.value
        #expect(outcome == .cancelled)
    }

    /// `shutdownAndWait` returns only after the loop thread has failed what was in flight and cleaned up (so a
    /// one-shot command such as `send` can exit without OpenSSL's exit-time clean-up racing that thread); again at once.
    @Test func shutdownAndWaitReturnsAfterTheLoopEnded() async throws {
        let server = try startPythonServer()
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: .seconds(20)))
        let slow = "http://127.0.0.1:\(server.port)/slow"
        let task = Task { () -> HTTPClientError? in
            do throws(HTTPClientError) {
                _ = try await client.execute(.get(slow))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        await client.shutdownAndWait()
        #expect(await task.value == .shutDown)
        await client.shutdownAndWait()
        await #expect(throws: HTTPClientError.shutDown) {
            _ = try await client.execute(.get("http://127.0.0.1:\(server.port)/"))
        }
    }

    @Test func requestsAfterShutdownFail() async throws {
        let client = try HTTPClient()
        client.shutdown()
        await #expect(throws: HTTPClientError.shutDown) {
            _ = try await client.execute(.get("http://127.0.0.1:1/"))
        }
    }
}
