/// An HTTP/1.1 and HTTP/2 client on libcurl's multi interface.
///
/// One client owns one connection pool and one I/O thread. Concurrent requests to the same HTTP/2
/// origin share one connection (multiplexed streams). Safe to use from any task or thread; requests
/// never block a Swift concurrency thread. The thread ends when the client is released or `shutdown()`
/// is called; requests still in flight then fail with `HTTPClientError.shutDown`.
package final class HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    private let loop: CurlMultiLoop

    /// Starts the client's I/O thread.
    package init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) throws(HTTPClientError) {
        self.configuration = configuration
        self.loop = try CurlMultiLoop(configuration: configuration)
    }

    deinit { loop.shutdown() }

    /// Sends `request` and returns the complete response (any status is a response, not an error).
    /// Cancelling the calling task aborts the transfer with `.cancelled`.
    package func execute(_ request: ClientRequest) async throws(HTTPClientError) -> ClientResponse {
        try await loop.execute(request).get()
    }

    /// Stops the I/O thread; in-flight and later requests fail with `.shutDown`.
    package func shutdown() { loop.shutdown() }

    /// Stops the I/O thread and returns once it has closed every connection (call before a one-shot command exits).
    package func shutdownAndWait() async { await loop.shutdownAndWait() }
}
