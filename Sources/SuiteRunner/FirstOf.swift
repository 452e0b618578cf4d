import Synchronization

/// A one-shot rendezvous: the first `offer` wins and wakes the single `wait`; later offers are ignored.
/// Used to race an attempt against its timeout and against Ctrl-C without waiting for the loser, and (`package`)
/// by `Signals.armNext` for a signal that may arrive before or after its wait starts.
package final class FirstOf<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var value: Value?
        var decided = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Offers a value; returns true when it was the first.
    @discardableResult
    package func offer(_ value: Value) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Never>?? in
            guard !state.decided else { return nil }
            state.decided = true
            if let waiting = state.continuation {
                state.continuation = nil
                return .some(waiting)
            }
            state.value = value
            return .some(nil)
        }
        guard let continuation else { return false }
        continuation?.resume(returning: value)
        return true
    }

    /// Waits for the first offered value (at most one waiter).
    package func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
