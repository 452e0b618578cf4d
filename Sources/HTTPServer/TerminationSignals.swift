import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT/SIGTERM handling for `pushcheck serve`, built on signalfd (no async-signal-unsafe handlers).
///
/// Call `TerminationSignals.block()` first thing in `main` (before starting any thread), then later
/// `TerminationSignals.wait()` on the main thread and `server.shutdown(grace:)` when it returns.
/// Loop threads block these signals themselves.
package enum TerminationSignals {
    /// Blocks SIGINT, SIGTERM and SIGPIPE in the calling thread; threads started afterwards inherit the mask.
    static func block() {
        pc_block_termination_signals()
    }

    /// Blocks until SIGINT or SIGTERM arrives; returns the signal number.
    /// - Throws: `HTTPServerError.system` if the signalfd cannot be created.
    package static func wait() throws(HTTPServerError) -> Int32 {
        let signals: [Int32] = [SIGINT, SIGTERM]
        let fd = pc_signalfd_for(signals, Int32(signals.count))
        if fd < 0 { throw .system(call: "signalfd", errno: pc_errno()) }
        defer { close(fd) }
        var info = signalfd_siginfo()
        while true {
            let n = read(fd, &info, MemoryLayout<signalfd_siginfo>.size)
            if n == MemoryLayout<signalfd_siginfo>.size { return Int32(info.ssi_signo) }
            if n < 0 && pc_errno() != EINTR { throw .system(call: "read(signalfd)", errno: pc_errno()) }
        }
    }
}
