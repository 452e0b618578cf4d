import Foundation
import Testing

/// Result of running an external tool.
struct ToolResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

enum ToolError: Error { case timedOut([String]) }

/// Runs `/usr/bin/env args…` with optional stdin, killing it after `timeout` seconds.
func runTool(_ args: [String], stdin: [UInt8]? = nil, timeout: TimeInterval = 30) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = args
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
    try input.fileHandleForWriting.close()
    // Read pipes on background threads so a chatty tool cannot block on a full pipe.
    let outData = ReadBox(), errData = ReadBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { outData.set(out.fileHandleForReading.readDataToEndOfFile()) }
    DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        throw ToolError.timedOut(args)
    }
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus, stdout: Array(outData.get()),
                      stderr: String(decoding: errData.get(), as: UTF8.self))
}

final class ReadBox: @unchecked Sendable {  // test-only; guarded by the lock
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A fresh temporary directory, removed by the caller with `cleanup()`.
struct TempDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pushcrypto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func write(_ name: String, _ text: String) throws { try text.write(toFile: path(name), atomically: true, encoding: .utf8) }
    func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path(name))) }
    func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
    func cleanup() { try? FileManager.default.removeItem(at: url) }
}
