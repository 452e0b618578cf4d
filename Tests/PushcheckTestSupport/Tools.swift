import Foundation
import Synchronization

/// What an external process did.
public struct ToolOutput: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var timedOut: Bool
    public var description: String { "exit \(status)\(timedOut ? " (timed out)" : "")\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// A fresh directory under the system temp dir, removed by `remove()`.
public struct TempDirectory: Sendable {
    public let path: String
    public init(_ prefix: String = "pushcheck-test") throws {
        path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    public func file(_ name: String) -> String { path + "/" + name }
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs an external tool (looked up on PATH, or an absolute path) with a hard timeout; output goes
/// through files so a chatty tool cannot block on a full pipe.
public func runTool(
    _ tool: String, _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String]? = nil,
    timeout: TimeInterval = 30
) throws -> ToolOutput {
    let dir = try TempDirectory("tool")
    defer { dir.remove() }
    let outPath = dir.file("stdout"), errPath = dir.file("stderr"), inPath = dir.file("stdin")
    FileManager.default.createFile(atPath: outPath, contents: nil)
    FileManager.default.createFile(atPath: errPath, contents: nil)
    FileManager.default.createFile(atPath: inPath, contents: Data(stdin ?? []))
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
    let process = Process()
    if tool.hasPrefix("/") {
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
    }
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, b in b } }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    var timedOut = false
    if done.wait(timeout: .now() + timeout) == .timedOut {
        timedOut = true
        process.terminate()
        if done.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL); _ = done.wait(timeout: .now() + 5) }
    }
    try out.close()
    try err.close()
    try input.close()
    return ToolOutput(
        status: process.terminationStatus,
        stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
        timedOut: timedOut)
}

/// The built `pushcheck` executable next to the test bundle (`.build/debug/pushcheck`).
public func pushcheckExecutable() -> String {
    var url = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = url.appendingPathComponent("pushcheck").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        url.deleteLastPathComponent()
    }
    // Fallback: derive from this file's location in the checkout.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/pushcheck").path
}

/// A long-running child process (a server) whose stdout is read line by line.
public final class ChildProcess {
    // Test-only: mutated from the test thread only; Process itself is thread-safe for terminate().
    public let process = Process()
    private let outPipe = Pipe()
    public let stderrPath: String
    private let dir: TempDirectory

    public init(_ executable: String, _ arguments: [String]) throws {
        dir = try TempDirectory("child")
        stderrPath = dir.file("stderr")
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = outPipe
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Reads the first line the child prints, waiting at most `timeout`.
    public func firstLine(timeout: TimeInterval = 20) -> String? {
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

    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for exit; returns the exit status (nil on timeout, after SIGKILL).
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 15) -> Int32? {
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
