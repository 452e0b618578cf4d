import Foundation
import Synchronization

/// A source of "now", injected everywhere time matters (JWT age, token expiry, throttling, storage)
/// so that tests can move time forward without sleeping.
package protocol PushClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
}

/// The real wall clock.
package struct SystemClock: PushClock {
    package init() {}
    package func now() -> Date { Date() }
}

/// A clock that only moves when told to. Safe to share between threads.
package final class ManualClock: PushClock {
    private let current: Mutex<Date>

    /// Starts at `start` (default: 2026-01-01T00:00:00Z, a fixed point so tests are reproducible).
    package init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    package func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or backward, with a negative interval).
    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to an absolute time.
    package func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
