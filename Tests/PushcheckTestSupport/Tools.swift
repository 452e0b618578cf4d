import Foundation

/// What an external process did.
package struct ToolOutput: Sendable, CustomStringConvertible {
    /// The tool and its arguments, as given to `runTool`.
    package var command: [String]
    package var status: Int32
    /// Everything the tool wrote to stdout, byte for byte (DER, PKCS#12, …).
    package var stdoutBytes: [UInt8]
    package var stderr: String
    package var timedOut: Bool
    /// stdout as UTF-8 text (invalid sequences replaced).
    package var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    /// stdout followed by stderr, for messages about what went wrong.
    package var output: String { stdout + stderr }
    /// True when the tool exited 0 within its time limit.
    package var succeeded: Bool { status == 0 && !timedOut }
    package var description: String {
        "\(command.joined(separator: " ")): exit \(status)\(timedOut ? " (timed out)" : "")\nstdout:\n\(stdout)\nstderr:\n\(stderr)"
    }

    /// Returns `self` when the tool exited 0 in time; otherwise throws `ToolError.failed` carrying the output.
    @discardableResult
    package func requireSuccess() throws(ToolError) -> ToolOutput {
        guard succeeded else { throw .failed(self) }
        return self
    }
}

/// A tool that did not do what a test fixture needed.
package enum ToolError: Error, CustomStringConvertible {
    /// The tool exited non-zero or ran out of time; the output says why.
    case failed(ToolOutput)

    package var description: String {
        switch self {
        case .failed(let output):
            "\(output.command.joined(separator: " ")) "
                + (output.timedOut ? "did not finish in time" : "failed with exit \(output.status)")
                + "; check the tool is installed and its arguments:\n\(output.stdout)\(output.stderr)"
        }
    }
}

/// Runs an external tool (looked up on PATH, or an absolute path) with a hard timeout; output goes
/// through files so a chatty tool cannot block on a full pipe.
package func runTool(
    _ tool: String, _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String]? = nil,
    timeout: TimeInterval = 30
) throws -> ToolOutput {
    let dir = try TempDirectory("tool")
    defer { dir.remove() }
    let outPath = dir.file("stdout"), errPath = dir.file("stderr"), inPath = dir.file("stdin")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdin ?? []))
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
        if done.wait(timeout: .now() + 5) == .timedOut {
            kill(process.processIdentifier, SIGKILL); _ = done.wait(timeout: .now() + 5)
        }
    }
    try out.close()
    try err.close()
    try input.close()
    return ToolOutput(
        command: [tool] + arguments,
        status: process.isRunning ? -1 : process.terminationStatus,
        stdoutBytes: Array((try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()),
        stderr: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self),
        timedOut: timedOut)
}

/// The built `pushcheck` executable next to the test bundle (`.build/debug/pushcheck`).
package func pushcheckExecutable() -> String {
    var url = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = url.appendingPathComponent("pushcheck").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        url.deleteLastPathComponent()
    }
    // Fallback: derive from this file's location in the checkout.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/pushcheck").path
}
