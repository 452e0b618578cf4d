import Foundation
import Synchronization

/// Runs `/bin/sh -c command` with a timeout, capturing stdout and stderr. Cancelling the task kills it.
enum CommandRunner {
    struct Outcome: Sendable {
        var exitCode: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
        /// True when the process ended by a signal (other than our timeout kill).
        var signalled: Bool
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
        let data = Mutex<Data>(Data())
        let flag = Mutex(false)
    }

    /// Output beyond this many bytes per stream is dropped (the transcript stays readable).
    static let outputLimit = 1 << 20

    static func run(
        _ command: String, environment: [String: String], directory: String, timeout: Duration
    ) async throws(Failure) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch { throw .cannotStart("\(error)") }
        let pid = process.processIdentifier
        // Foundation starts the child in its own process group; when it does, a timeout or cancellation
        // kills the whole group, so the command's children cannot keep the output pipes open.
        let ownGroup = getpgid(pid) == pid
        // Blocking reads and waits run on threads of their own: parked on Dispatch's global queue they
        // would hold its few (one per core) threads and stall everything else queued there.
        let readers = DispatchGroup()
        let outBox = Box()
        let errBox = Box()
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            let handle = pipe.fileHandleForReading
            readers.enter()
            Thread.detachNewThread {
                let data = handle.readDataToEndOfFile()
                box.data.withLock { $0 = data.prefix(outputLimit) }
                readers.leave()
            }
        }
        let timedOut = Box()
        let deadline =
            DispatchTime.now()
            + .nanoseconds(
                Int(timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    if finished.wait(timeout: deadline) == .timedOut {
                        timedOut.flag.withLock { $0 = true }
                        kill(ownGroup ? -pid : pid, SIGKILL)
                        finished.wait()
                    }
                    readers.wait()
                    continuation.resume()
                }
            }
        } onCancel: {
            kill(ownGroup ? -pid : pid, SIGKILL)
        }
        if ownGroup { kill(-pid, SIGKILL) }  // leftovers of the group (background jobs)
        let reason = process.terminationReason
        return Outcome(
            exitCode: process.terminationStatus, stdout: String(decoding: outBox.data.withLock { $0 }, as: UTF8.self),
            stderr: String(decoding: errBox.data.withLock { $0 }, as: UTF8.self),
            timedOut: timedOut.flag.withLock { $0 },
            signalled: reason == .uncaughtSignal)
    }
}
