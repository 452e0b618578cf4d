import Synchronization

/// Catches a response given while the handler is still running on the loop thread, so the connection can
/// queue it directly instead of waking its own loop through the eventfd (a write, a read and a task-queue
/// lock per request). A response given after the handler returned, from any thread, goes through
/// `EventLoop.execute` to the connection, if it is still open.
final class InlineResponseSlot: Sendable {
    private struct State {
        var open = true
        var response: HTTPResponse?
    }

    private let state = Mutex(State())
    private let loop: EventLoop
    private let connection: UInt64
    private let stream: Int32?

    init(loop: EventLoop, connection: UInt64, stream: Int32?) {
        self.loop = loop
        self.connection = connection
        self.stream = stream
    }

    /// The responder's body: kept for the connection while the handler runs, else sent through the loop.
    func respond(_ response: HTTPResponse) {
        if offer(response) { return }
        let (id, stream) = (connection, self.stream)
        loop.execute { $0.connections[id]?.respond(stream: stream, response) }
    }

    /// Keeps `response` if the handler has not returned yet; false otherwise.
    func offer(_ response: HTTPResponse) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            s.response = response
            return true
        }
    }

    /// Called once the handler returned: later responses are refused; returns the one kept, if any.
    func close() -> HTTPResponse? {
        state.withLock { s in
            s.open = false
            defer { s.response = nil }
            return s.response
        }
    }
}
