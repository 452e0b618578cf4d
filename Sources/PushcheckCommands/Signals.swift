import CLinux
import Foundation
import ScenarioRun
import SuiteRunner
import Synchronization

/// Process-wide SIGINT/SIGTERM routing. `install()` runs first in `main`: a signal handler writes
/// the signal number to a pipe and one watcher thread reads it. By default a signal exits with
/// 128+signal, as an unhandled one would; a command that wants a graceful stop (serve drains its
/// connections) takes the next signal with `next()`. A second signal while one is handled exits.
package enum Signals {
    fileprivate static let handler = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    package static func install() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0, pc_install_termination_pipe(fds[1]) == 0 else { return }
        let readFD = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readFD, &byte, 1) == 1 {
                let signal = Int32(byte)
                let current = handler.withLock { h in
                    defer { h = nil }; return h
                }
                guard let current else {
                    // Nothing handles it: exit as the signal would, leaving no child process behind.
                    ProcessTree.killAllDescendants()
                    exit(128 + signal)
                }
                current(signal)
            }
        }
        thread.name = "pushcheck-signals"
        thread.start()
    }

    /// `SIGINT`, `SIGTERM`, or `signal N` for any other number.
    package static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT (Ctrl-C)"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }

    /// Waits for the next SIGINT/SIGTERM.
    package static func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            handler.withLock { $0 = { continuation.resume(returning: $0) } }
        }
    }
}

extension Signals {
    /// Takes over the next SIGINT/SIGTERM *now* and returns a wait for it: no window between a command
    /// announcing it is ready and starting to wait, in which a signal would exit at once (skipping clean-up).
    static func armNext() -> @Sendable () async -> Int32 {
        // One signal, delivered before or after the wait starts (the handler is taken once, so one offer).
        let latch = FirstOf<Int32>()
        handler.withLock { $0 = { latch.offer($0) } }
        return { await latch.wait() }
    }
}
