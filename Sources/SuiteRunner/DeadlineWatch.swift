import Dispatch
import Foundation
import Synchronization

/// Runs actions at deadlines, on one thread of its own, and lets go of an action the moment it is disarmed: the
/// scheduler's scenario timeouts and cancellation grace periods.
///
/// Not `DispatchQueue.asyncAfter`: an attempt arms its timeout and nearly always finishes long before it, and a
/// Dispatch timer cannot be taken back. Each one stayed queued with what its block held (the attempt's `FirstOf`)
/// for the whole timeout — 300 s by default, so every scenario of a run — and arming one woke Dispatch's manager
/// thread (a write to its eventfd and two context switches per scenario). Here arming a deadline no earlier than
/// the one the thread sleeps until takes a lock and wakes nobody; the thread sleeps on a semaphore until the
/// earliest deadline armed, and ends when none is left.
final class DeadlineWatch: Sendable {
    /// An armed deadline, to disarm.
    struct Ticket: Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        var deadline: DispatchTime
        var action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// What the thread sleeps until once it has looked (`distantFuture`: nothing armed, or not started).
        var sleepingUntil = DispatchTime.distantFuture
        var started = false
    }

    private let state = Mutex(State())
    /// Signalled when a deadline earlier than `sleepingUntil` is armed.
    private let wake = DispatchSemaphore(value: 0)

    /// The process's watch (a thread runs while a deadline is armed: it wakes when the earliest one passes, and ends
    /// when it finds none left).
    static let shared = DeadlineWatch()

    init() {}

    /// Runs `action` on the watch's thread once `delay` has passed, unless `disarm`ed before.
    func arm(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Ticket {
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: max(0, delay.nanoseconds)))
        let (ticket, start, signal) = state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.entries[id] = Entry(deadline: deadline, action: action)
            let start = !s.started
            s.started = true
            return (Ticket(id: id), start, deadline < s.sleepingUntil)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "pushcheck.deadlines"
            thread.start()
        }
        if signal { wake.signal() }
        return ticket
    }

    /// Forgets the deadline (and releases its action) if it has not fired; a fired or unknown ticket is ignored.
    func disarm(_ ticket: Ticket) {
        let entry = state.withLock { $0.entries.removeValue(forKey: ticket.id) }
        withExtendedLifetime(entry) {}  // the action is released here, outside the lock
    }

    /// Deadlines armed and not yet fired or disarmed.
    var armedCount: Int { state.withLock { $0.entries.count } }

    private func run() {
        while true {
            let (due, next, idle) = state.withLock { s -> ([(UInt64, Entry)], DispatchTime, Bool) in
                let now = DispatchTime.now()
                var due: [(UInt64, Entry)] = []
                var next = DispatchTime.distantFuture
                for (id, entry) in s.entries {
                    if entry.deadline <= now {
                        due.append((id, entry))
                    } else if entry.deadline < next {
                        next = entry.deadline
                    }
                }
                for (id, _) in due { s.entries[id] = nil }
                s.sleepingUntil = next
                // Nothing left: the thread ends, and the next `arm` starts another (under this lock, so an `arm` either
                // sees it gone or is seen by it).
                if s.entries.isEmpty { s.started = false }
                return (due, next, s.entries.isEmpty)
            }
            // Due together (the thread was late): in deadline order, then in arming order.
            for (_, entry) in due.sorted(by: { ($0.1.deadline, $0.0) < ($1.1.deadline, $1.0) }) { entry.action() }
            if idle { return }
            _ = wake.wait(timeout: next)
        }
    }
}
