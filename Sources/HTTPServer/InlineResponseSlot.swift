import Synchronization

/// Catches a response given while the handler is still running on the loop thread, so the connection can
/// queue it directly instead of waking its own loop through the eventfd (a write, a read and a task-queue
/// lock per request). A response given after the handler returned, from any thread, goes through
/// `EventLoop.execute` to the connection, if it is still open.
///
/// A connection reuses its slot for the next request when nothing kept a reference to it (the handler answered
/// inline and let its responder go): `reopen(stream:)` then readies it, which saves an allocation per request.
/// A slot some responder still holds is never reopened, so a late answer always finds its own stream.
final class InlineResponseSlot: Sendable {
    private struct State {
        var open = true
        var response: HTTPResponse?
        var stream: Int32?
    }

    private let state: Mutex<State>
    private let loop: EventLoop
    private let connection: UInt64

    init(loop: EventLoop, connection: UInt64, stream: Int32?) {
        self.loop = loop
        self.connection = connection
        state = Mutex(State(stream: stream))
    }

    /// Readies a closed slot for another request of the same connection. Only for a slot no responder can reach
    /// any more (the caller checked `isKnownUniquelyReferenced`).
    func reopen(stream: Int32?) {
        state.withLock { s in
            s.open = true
            s.response = nil
            s.stream = stream
        }
    }

    /// The responder's body: kept for the connection while the handler runs, else sent through the loop.
    func respond(_ response: consuming HTTPResponse) {
        var pending: HTTPResponse? = consume response
        guard let stream = offer(&pending), let response = pending.take() else { return }
        let id = connection
        loop.execute { $0.connections[id]?.respond(stream: stream, response) }
    }

    /// Moves `response` into the slot (leaving `nil`) if the handler has not returned yet, and returns `nil`;
    /// otherwise leaves it and returns the stream to send it on.
    private func offer(_ response: inout HTTPResponse?) -> Int32?? {
        state.withLock { s in
            guard s.open else { return .some(s.stream) }
            s.response = response.take()
            return nil
        }
    }

    /// Called once the handler returned: later responses are refused; returns the one kept, if any.
    func close() -> HTTPResponse? {
        state.withLock { s in
            s.open = false
            return s.response.take()  // moved out (`defer { s.response = nil }` copied it first)
        }
    }
}
