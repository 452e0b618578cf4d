import Foundation
import Synchronization

/// A long-running child process (a server) whose stdout is read line by line.
package final class ChildProcess {
    // Test-only: mutated from the test thread only; Process itself is thread-safe for terminate().
    package let process = Process()
    private let outPipe = Pipe()
    package let stderrPath: String
    private let dir: TempDirectory

    package init(_ executable: String, _ arguments: [String]) throws {
        dir = try TempDirectory("child")
        stderrPath = dir.file("stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = outPipe
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Reads the first line the child prints, waiting at most `timeout`.
    package func firstLine(timeout: TimeInterval = 20) -> String? {
        let handle = outPipe.fileHandleForReading
        let box = LineBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            while true {
                let chunk = handle.readData(ofLength: 1)
                if chunk.isEmpty || chunk.first == 0x0A { break }
                bytes.append(contentsOf: chunk)
            }
            box.set(String(decoding: bytes, as: UTF8.self))
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return box.get()
    }

    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// What the child printed after the lines `firstLine` read, to its end (call it once the child has exited).
    package func remainingOutput() -> String {
        String(decoding: outPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Sends `signal` and waits for exit; returns the exit status (nil on timeout, after SIGKILL).
    package func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 15) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        dir.remove()
    }
}

private final class LineBox: Sendable {
    private let value = Mutex<String?>(nil)
    func set(_ s: String) { value.withLock { $0 = s } }
    func get() -> String? { value.withLock { $0 } }
}

/// A server process started for one test that is ready once it accepts TCP connections on a loopback
/// port; its stdout and stderr go to `logPath`. Call `stop()` in a `defer`; it also removes the
/// directory the server was given to own (its script, document root, log).
package final class ServerProcess {
    package let process = Process()
    /// The 127.0.0.1 port the server listens on.
    package let port: Int
    /// Where the server's combined stdout and stderr go.
    package let logPath: String
    /// The directory `stop()` removes, if any.
    package let ownedDirectory: TempDirectory?

    /// Starts `executable` (an absolute path) and waits at most `timeout` until it accepts connections
    /// on 127.0.0.1:`port`; throws `ServerProcessError` with the log when it exits or does not listen.
    /// `ownedDirectory` is removed by `stop()` (and when starting fails).
    package init(
        _ executable: String, _ arguments: [String], port: Int, logPath: String,
        owning ownedDirectory: TempDirectory? = nil, timeout: TimeInterval = 10
    ) throws {
        self.port = port
        self.logPath = logPath
        self.ownedDirectory = ownedDirectory
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = logFile
        process.standardError = logFile
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            ownedDirectory?.remove()
            throw error
        }
        let deadline = Date().addingTimeInterval(timeout)
        while !canConnectToLoopback(port: port) {
            guard process.isRunning, Date() < deadline else {
                let log = log()
                stop()
                throw ServerProcessError.notListening(
                    command: [executable] + arguments, port: port, timeout: timeout, log: log)
            }
            usleep(20_000)
        }
    }

    /// Everything the server has printed so far.
    package func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Kills the server (SIGKILL), waits for it to exit and removes its owned directory.
    package func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        ownedDirectory?.remove()
    }

    deinit { stop() }
}

/// A test server that never became ready.
package enum ServerProcessError: Error, CustomStringConvertible {
    /// The process exited, or did not accept connections on `port` within `timeout` seconds.
    case notListening(command: [String], port: Int, timeout: TimeInterval, log: String)

    package var description: String {
        switch self {
        case .notListening(let command, let port, let timeout, let log):
            "\(command.joined(separator: " ")) did not listen on 127.0.0.1:\(port) within \(timeout)s "
                + "(is it installed? is the port taken?); its output:\n\(log)"
        }
    }
}
