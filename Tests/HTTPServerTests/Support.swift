import Foundation
import HTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What an external process did.
struct ProcessOutput {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool
}

/// Runs an external tool with a hard timeout (killed on expiry). Output goes through files, so a chatty
/// tool cannot block on a full pipe.
func runTool(_ tool: String, _ arguments: [String], timeout: TimeInterval = 20) throws -> ProcessOutput {
    let dir = try TestFiles.shared.makeScratchDirectory()
    let outURL = dir.appendingPathComponent("stdout")
    let errURL = dir.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    var timedOut = false
    if done.wait(timeout: .now() + timeout) == .timedOut {
        timedOut = true
        process.terminate()
        _ = done.wait(timeout: .now() + 5)
    }
    try out.close()
    try err.close()
    return ProcessOutput(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
        timedOut: timedOut)
}

/// Test certificates made with the `openssl` CLI once per test process: a server CA and a server cert for
/// 127.0.0.1/localhost, a client CA with a client cert, and a self-signed client cert nobody trusts.
final class TestFiles: Sendable {
    static let shared = TestFiles()

    let root: URL
    let caPath: String
    let serverCertPEM: String
    let serverKeyPEM: String
    let clientCAPEM: String
    let clientCertPath: String
    let clientKeyPath: String
    let strangerCertPath: String
    let strangerKeyPath: String
    let counter = Mutex(0)

    private init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("httpserver-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFiles.shared.root) }
        let d = root.path
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        func openssl(_ args: [String]) {
            let r = try! runToolUnscratched("openssl", args)
            precondition(r.status == 0, "openssl \(args.joined(separator: " ")) failed: \(r.stderr)")
        }
        try! "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
            .write(toFile: "\(d)/server.ext", atomically: true, encoding: .utf8)
        try! "extendedKeyUsage=clientAuth\n".write(toFile: "\(d)/client.ext", atomically: true, encoding: .utf8)
        openssl(["req", "-x509"] + ec + ["-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem", "-subj", "/CN=Test CA", "-days", "3"])
        openssl(["req"] + ec + ["-keyout", "\(d)/server.key", "-out", "\(d)/server.csr", "-subj", "/CN=localhost"])
        openssl(["x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
                 "-CAcreateserial", "-out", "\(d)/server.pem", "-days", "3", "-extfile", "\(d)/server.ext"])
        openssl(["req", "-x509"] + ec + ["-keyout", "\(d)/clientca.key", "-out", "\(d)/clientca.pem",
                 "-subj", "/CN=Client CA", "-days", "3"])
        openssl(["req"] + ec + ["-keyout", "\(d)/client.key", "-out", "\(d)/client.csr", "-subj", "/CN=provider"])
        openssl(["x509", "-req", "-in", "\(d)/client.csr", "-CA", "\(d)/clientca.pem", "-CAkey", "\(d)/clientca.key",
                 "-CAcreateserial", "-out", "\(d)/client.pem", "-days", "3", "-extfile", "\(d)/client.ext"])
        openssl(["req", "-x509"] + ec + ["-keyout", "\(d)/stranger.key", "-out", "\(d)/stranger.pem",
                 "-subj", "/CN=stranger", "-days", "3"])
        caPath = "\(d)/ca.pem"
        serverCertPEM = try! String(contentsOfFile: "\(d)/server.pem", encoding: .utf8)
        serverKeyPEM = try! String(contentsOfFile: "\(d)/server.key", encoding: .utf8)
        clientCAPEM = try! String(contentsOfFile: "\(d)/clientca.pem", encoding: .utf8)
        clientCertPath = "\(d)/client.pem"
        clientKeyPath = "\(d)/client.key"
        strangerCertPath = "\(d)/stranger.pem"
        strangerKeyPath = "\(d)/stranger.key"
    }

    func tls(mutual: Bool = false) -> TLSConfiguration {
        TLSConfiguration(
            certificateChainPEM: serverCertPEM, privateKeyPEM: serverKeyPEM,
            clientCertificates: mutual ? .request(trustedCAPEMs: [clientCAPEM]) : .none)
    }

    func makeScratchDirectory() throws -> URL {
        let n = counter.withLock { c in
            c += 1
            return c
        }
        let dir = root.appendingPathComponent("run-\(n)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `bytes` into a fresh file and returns its path.
    func file(_ bytes: [UInt8]) throws -> String {
        let url = try makeScratchDirectory().appendingPathComponent("data")
        try Data(bytes).write(to: url)
        return url.path
    }
}

/// `runTool` before `TestFiles.shared` exists (used to build it).
private func runToolUnscratched(_ tool: String, _ arguments: [String]) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self),
        timedOut: false)
}

/// Counts requests per connection (per-connection storage under test).
enum RequestCount: ConnectionStorageKey {
    static let defaultValue = 0
}

/// A tiny handler: the body describes the request; some paths trigger delays and connection actions.
final class EchoHandler: HTTPHandler {
    /// Paths in the order their responses were handed to the responder.
    let responded = Mutex<[String]>([])
    let initialStreams: UInt32?
    let received = DispatchSemaphore(value: 0)

    init(initialStreams: UInt32? = nil) { self.initialStreams = initialStreams }

    /// Connection ids seen by `connectionOpened` / `connectionClosed`.
    let opened = Mutex<[UInt64]>([])
    let closed = Mutex<[UInt64]>([])

    func connectionOpened(_ context: ConnectionContext) -> UInt32? {
        opened.withLock { $0.append(context.id) }
        return initialStreams
    }

    func connectionClosed(_ context: ConnectionContext) {
        closed.withLock { $0.append(context.id) }
    }

    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        received.signal()
        let count = context.withValue(RequestCount.self) { n in
            n += 1
            return n
        }
        var alpn = "none"
        var der = 0
        if case .tls(let a, let d) = context.security {
            alpn = a ?? "none"
            der = d?.count ?? 0
        }
        let description = "path=\(request.path) version=\(request.version.rawValue) method=\(request.method) "
            + "alpn=\(alpn) conn=\(context.id) count=\(count) len=\(request.body.count) der=\(der) "
            + "trusted=\(context.clientCertificateTrusted) x-test=\(request.values("x-test").joined(separator: ","))\n"
        var response = HTTPResponse(status: 200, headers: [HTTPField("content-type", "text/plain")],
                                    body: Array(description.utf8))
        let parts = request.path.split(separator: "?", omittingEmptySubsequences: false)[0].split(separator: "/")
        switch parts.first {
        case "goaway": response.actions = [.goAway(errorCode: 0, debugData: Array("bye-debug".utf8))]
        case "drop": response.actions = [.drop]
        case "big": response.body = Array(repeating: UInt8(ascii: "z"), count: Int(parts[1])!)
        case "settings": response.actions = [.setMaxConcurrentStreams(UInt32(parts[1])!)]
        case "delay":
            let ms = Int(parts[1])!
            let path = request.path
            let delayed = response
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) { [self] in
                self.responded.withLock { $0.append(path) }
                responder.respond(delayed)
            }
            return
        default: break
        }
        responded.withLock { $0.append(request.path) }
        responder.respond(response)
    }
}

/// A running server for one test; shut down at the end of the test.
final class TestServer {
    let server: HTTPServer
    let bound: [BoundListener]
    let handler: EchoHandler

    init(tls: TLSConfiguration? = nil, handler: EchoHandler = EchoHandler(), loops: Int = 2,
         configure: (inout ListenerConfiguration) -> Void = { _ in }) throws {
        var config = ListenerConfiguration(name: "test", tls: tls, handler: handler)
        configure(&config)
        self.handler = handler
        server = HTTPServer(listeners: [config], loops: loops)
        bound = try server.start()
    }

    var url: String { bound[0].url }
    var port: Int { bound[0].port }

    deinit { server.shutdown(grace: .seconds(1)) }
}

/// Field `key=value` from an EchoHandler body line.
func field(_ key: String, in text: String) -> [String] {
    text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        .filter { $0.hasPrefix("\(key)=") }
        .map { String($0.dropFirst(key.count + 1)) }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
