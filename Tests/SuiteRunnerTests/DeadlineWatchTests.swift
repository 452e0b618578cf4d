import Foundation
import Synchronization
import Testing
@testable import SuiteRunner

/// The scheduler's timer (`DeadlineWatch`): a deadline fires, a disarmed one never does and lets go of what its action
/// holds at once, and a deadline armed earlier than the one the thread sleeps until wakes it. Each test has its own
/// watch; waits are bounded (a broken watch fails the test, it does not hang it) and no duration is asserted.
@Suite struct DeadlineWatchTests {
    /// Something an action holds, to see when the watch lets go of it.
    final class Held: Sendable {}

    /// Counts the actions that ran, and lets a test wait (up to `seconds`) for a count.
    final class Fired: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
        func wait(for count: Int, seconds: Double = 10) async -> Bool {
            let end = ContinuousClock.now + .seconds(seconds)
            while all.count < count {
                if ContinuousClock.now > end { return false }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return true
        }
    }

    @Test func aDeadlineFiresOnceAndIsThenForgotten() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        _ = watch.arm(after: .milliseconds(10)) { fired.add("a") }
        #expect(await fired.wait(for: 1))
        #expect(fired.all == ["a"])
        #expect(watch.armedCount == 0)
        // The thread ended with nothing left armed; the next deadline starts another.
        try? await Task.sleep(for: .milliseconds(20))
        _ = watch.arm(after: .milliseconds(10)) { fired.add("b") }
        #expect(await fired.wait(for: 2))
        #expect(fired.all == ["a", "b"])
    }

    /// What a scenario's timeout holds (its `FirstOf`) is released when the attempt ends, not when the timeout
    /// would have passed (300 s by default): `DispatchQueue.asyncAfter` kept every scenario's until then.
    @Test func aDisarmedDeadlineNeverFiresAndReleasesItsActionAtOnce() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        weak var weakHeld: Held?
        do {
            let held = Held()
            weakHeld = held
            let ticket = watch.arm(after: .milliseconds(50)) { withExtendedLifetime(held) { fired.add("disarmed") } }
            #expect(watch.armedCount == 1)
            watch.disarm(ticket)
            watch.disarm(ticket)  // twice: ignored
        }
        #expect(weakHeld == nil)
        #expect(watch.armedCount == 0)
        // A later deadline that does fire: by then the disarmed one's time is long past.
        _ = watch.arm(after: .milliseconds(150)) { fired.add("later") }
        #expect(await fired.wait(for: 1))
        #expect(fired.all == ["later"])
    }

    /// The thread sleeps until the earliest deadline it saw; one armed before that must wake it, and one armed after
    /// must not have to (the 60 s deadline here would fail the 10 s wait).
    @Test func anEarlierDeadlineWakesTheSleepingThread() async {
        let watch = DeadlineWatch()
        let fired = Fired()
        let far = watch.arm(after: .seconds(60)) { fired.add("far") }
        try? await Task.sleep(for: .milliseconds(20))  // the thread is asleep until the far deadline
        _ = watch.arm(after: .milliseconds(10)) { fired.add("near") }
        _ = watch.arm(after: .milliseconds(30)) { fired.add("after") }
        #expect(await fired.wait(for: 2))
        #expect(fired.all == ["near", "after"])
        watch.disarm(far)
        #expect(watch.armedCount == 0)
    }
}
