import Foundation
import Glibc

/// Errors from test fixtures, with enough text to see what went wrong.
struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A fresh temporary directory, removed by `remove()`.
struct TempDir {
    let path: String
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/pushcheck-httpclient-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw FixtureError("mkdtemp failed") }
        path = String(cString: made)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a command to completion (bounded), throwing with its output when it fails.
@discardableResult
func runTool(_ executable: String, _ arguments: [String], timeout: TimeInterval = 20) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw FixtureError("\(executable) \(arguments) did not finish within \(timeout)s")
    }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0 else {
        throw FixtureError("\(executable) \(arguments) failed (\(process.terminationStatus)): \(output)")
    }
    return output
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw FixtureError("socket failed") }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
            bind(fd, p, len) == 0 && getsockname(fd, p, &len) == 0
        }
    }
    guard bound else { throw FixtureError("bind/getsockname failed") }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// True once something accepts TCP connections on 127.0.0.1:`port`.
func canConnect(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// A server process started for one test; `stop()` kills it (call it in a `defer`).
final class ServerProcess {
    let process = Process()
    let port: Int
    let logPath: String

    /// Starts `executable` and waits (at most `timeout`) until it accepts connections on `port`.
    init(_ executable: String, _ arguments: [String], port: Int, logPath: String, timeout: TimeInterval = 10) throws {
        self.port = port
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let logFile = FileHandle(forWritingAtPath: logPath)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = logFile
        process.standardError = logFile
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while !canConnect(port: port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw FixtureError("\(executable) did not listen on \(port) within \(timeout)s: \(log())")
            }
            usleep(20_000)
        }
    }

    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Certificates made once per test run with the `openssl` CLI: a CA that the client trusts, a server
/// certificate for localhost/127.0.0.1, a second CA nobody trusts (with its own server certificate),
/// and a client certificate signed by the trusted CA.
struct TestCertificates: Sendable {
    let dir: String
    var caPEM: String { dir + "/ca.pem" }
    var serverCert: String { dir + "/server.pem" }
    var serverKey: String { dir + "/server.key" }
    var rogueCAPEM: String { dir + "/rogue-ca.pem" }
    var rogueServerCert: String { dir + "/rogue-server.pem" }
    var rogueServerKey: String { dir + "/rogue-server.key" }
    var clientCert: String { dir + "/client.pem" }
    var clientKey: String { dir + "/client.key" }

    static let shared: Result<TestCertificates, FixtureError> = {
        do { return .success(try TestCertificates()) } catch let e as FixtureError { return .failure(e) } catch {
            return .failure(FixtureError("\(error)"))
        }
    }()

    static func get() throws -> TestCertificates {
        let certificates = try shared.get()
        _ = removeAtExit
        return certificates
    }

    /// Registers (once) removal of the certificate directory when the test process exits.
    private static let removeAtExit: Void = {
        atexit {
            if case .success(let certificates) = TestCertificates.shared {
                try? FileManager.default.removeItem(atPath: certificates.dir)
            }
        }
    }()

    private init() throws {
        dir = try TempDir().path
        let openssl = "/usr/bin/openssl"
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"
            .write(toFile: dir + "/server.ext", atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(toFile: dir + "/client.ext", atomically: true, encoding: .utf8)
        for ca in ["ca", "rogue-ca"] {
            try runTool(
                openssl,
                ["req", "-x509"] + ec + [
                    "-keyout", "\(dir)/\(ca).key", "-out", "\(dir)/\(ca).pem", "-days", "2", "-subj",
                    "/CN=pushcheck \(ca)", "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
                    "keyUsage=critical,keyCertSign,cRLSign",
                ])
        }
        for (leaf, ca, cn, ext) in [
            ("server", "ca", "localhost", "server.ext"), ("rogue-server", "rogue-ca", "localhost", "server.ext"),
            ("client", "ca", "pushcheck-client", "client.ext"),
        ] {
            try runTool(
                openssl,
                ["req"] + ec + ["-keyout", "\(dir)/\(leaf).key", "-out", "\(dir)/\(leaf).csr", "-subj", "/CN=\(cn)"])
            try runTool(
                openssl,
                [
                    "x509", "-req", "-in", "\(dir)/\(leaf).csr", "-CA", "\(dir)/\(ca).pem", "-CAkey",
                    "\(dir)/\(ca).key",
                    "-CAcreateserial", "-out", "\(dir)/\(leaf).pem", "-days", "2", "-extfile", "\(dir)/\(ext)",
                ])
        }
    }
}
