import CLinux
import Foundation
import Synchronization

/// Runs `/bin/sh -c command` with a timeout, capturing a bounded head and tail of stdout and stderr.
///
/// The step ends when the shell exits or the timeout fires, whichever is first; then every process the
/// command started is killed (`ProcessTree`), a `setsid` grandchild or a background job included, so
/// nothing it left can hold the output pipes open or outlive pushcheck. Cancelling the task kills them too.
enum CommandRunner {
    struct Outcome: Sendable {
        var exitCode: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
        /// True when the process ended by a signal (other than our timeout kill).
        var signalled: Bool
        /// Set when some output pipe was still held open after every process of the step was killed
        /// (a process that escaped both the subreaper and the step token); reading it was abandoned.
        var abandonedOutput = false
    }

    enum Failure: Error, CustomStringConvertible {
        case cannotStart(String)
        var description: String {
            switch self {
            case .cannotStart(let d): return "cannot start /bin/sh: \(d)"
            }
        }
    }

    /// Shared between the reader threads and the caller.
    private final class Box: Sendable {
        let output = Mutex(BoundedOutput())
        let flag = Mutex(false)
    }

    /// How long the output pipes may stay open once every process of the step is dead.
    static let drainGrace: Duration = .seconds(2)

    private static let tokens = Atomic<Int>(0)

    static func run(
        _ command: String, environment: [String: String], directory: String, timeout: Duration
    ) async throws(Failure) -> Outcome {
        ProcessTree.becomeSubreaper()
        let token = "\(getpid())-\(tokens.add(1, ordering: .relaxed).newValue)"
        var environment = environment
        environment[ProcessTree.tokenVariable] = token
        let (pid, outFD, errFD) = try spawn(command, environment: environment, directory: directory)
        // Blocking reads and waits run on threads of their own: parked on Dispatch's global queue they
        // would hold its few (one per core) threads and stall everything else queued there.
        let readers = DispatchGroup()
        let outBox = Box()
        let errBox = Box()
        let abandon = Box()
        for (fd, box) in [(outFD, outBox), (errFD, errBox)] {
            readers.enter()
            Thread.detachNewThread {
                drain(fd, into: box, abandon: abandon)
                close(fd)
                readers.leave()
            }
        }
        // The shell's exit, seen with waitid(WNOWAIT): it stays a zombie (its pid not reusable) until the
        // step's processes, found from it, are killed; it is reaped at the end.
        let exit = Mutex<(code: Int32, status: Int32)?>(nil)
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var code: Int32 = 0
            var status: Int32 = 0
            if pc_wait_exit_nowait(pid, &code, &status) == 0 { exit.withLock { $0 = (code, status) } }
            exited.signal()
        }
        let timedOut = Box()
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: timeout.nanosecondCount))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    let expired = exited.wait(timeout: deadline) == .timedOut
                    if expired { timedOut.flag.withLock { $0 = true } }
                    // The shell is done or out of time: whatever it started goes with it.
                    ProcessTree.kill(token: token, root: pid)
                    if expired { exited.wait() }
                    let grace = DispatchTime.now() + .nanoseconds(Int(clamping: drainGrace.nanosecondCount))
                    if readers.wait(timeout: grace) == .timedOut {
                        abandon.flag.withLock { $0 = true }
                        readers.wait()
                    }
                    pc_reap(pid)
                    continuation.resume()
                }
            }
        } onCancel: {
            ProcessTree.kill(token: token, root: pid)
        }
        let status: (code: Int32, status: Int32) = exit.withLock { $0 } ?? (code: pc_CLD_EXITED(), status: 255)
        return Outcome(
            exitCode: status.status,
            stdout: outBox.output.withLock { $0.text(stream: "stdout") },
            stderr: errBox.output.withLock { $0.text(stream: "stderr") },
            timedOut: timedOut.flag.withLock { $0 },
            signalled: status.code != pc_CLD_EXITED(), abandonedOutput: abandon.flag.withLock { $0 })
    }

    /// Starts `/bin/sh -c command` as a shell starts a command: an empty signal mask and default dispositions
    /// (not pushcheck's: SIGPIPE ignored, and the spawning thread's mask, which blocks almost every signal),
    /// stdin `/dev/null`, no descriptor but the output pipes inherited. Returns the shell's pid and the
    /// pipes' read ends.
    private static func spawn(
        _ command: String, environment: [String: String], directory: String
    ) throws(Failure) -> (pid: pid_t, out: Int32, err: Int32) {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pc_pipe_cloexec(&out) == 0 else { throw .cannotStart("pipe: \(String(cString: strerror(pc_errno())))") }
        guard pc_pipe_cloexec(&err) == 0 else {
            let e = pc_errno()
            close(out[0])
            close(out[1])
            throw .cannotStart("pipe: \(String(cString: strerror(e)))")
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (s: String) in strdup(s) }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for p in argv + envp { free(p) }
            close(out[1])
            close(err[1])
        }
        var pid: pid_t = 0
        let r = (argv + [nil]).withUnsafeBufferPointer { a in
            (envp + [nil]).withUnsafeBufferPointer { e in
                pc_spawn_command(directory, a.baseAddress, e.baseAddress, out[1], err[1], &pid)
            }
        }
        if r != 0 {
            close(out[0])
            close(err[0])
            throw .cannotStart("\(directory): \(String(cString: strerror(r)))")
        }
        return (pid, out[0], err[0])
    }

    /// Reads `fd` to end of file into a bounded buffer; polls so that `abandon` can stop it.
    private static func drain(_ fd: Int32, into box: Box, abandon: Box) {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let ready = pc_poll_readable(fd, 100)
            if ready == 0 {
                if abandon.flag.withLock({ $0 }) { return }
                continue
            }
            if ready < 0 {
                if pc_errno() == EINTR { continue }
                return
            }
            let n = read(fd, buffer, size)
            if n < 0, pc_errno() == EINTR { continue }
            if n <= 0 { return }
            box.output.withLock { $0.append(UnsafeRawBufferPointer(start: buffer, count: n)) }
        }
    }
}

extension Duration {
    /// Whole nanoseconds (saturating), for Dispatch deadlines.
    fileprivate var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product &+ attoseconds / 1_000_000_000
    }
}
