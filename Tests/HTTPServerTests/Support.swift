import Foundation
@testable import HTTPServer
import HTTPTypes
import PushcheckTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shared `TestCertificates` as the server TLS configurations and client certificate paths these
/// tests use, plus a per-process scratch directory for request bodies.
struct TestFiles: Sendable {
    /// The CA that signs the server and the trusted client certificate; give it to clients as `--cacert`.
    let caPath: String
    /// A client certificate signed by the CA that `tls(mutual: true)` trusts.
    let clientCertPath: String
    let clientKeyPath: String
    /// A self-signed certificate nobody trusts (the rogue CA), presented as a client certificate.
    let strangerCertPath: String
    let strangerKeyPath: String
    private let serverCertPEM: String
    private let serverKeyPEM: String
    private let clientCAPEM: String
    private let scratch: TempDirectory

    /// The set made on first use; throws the `openssl` failure on every call if making it failed.
    static func get() throws -> TestFiles { try shared.get() }

    private static let shared: Result<TestFiles, any Error> = Result { try TestFiles() }

    private init() throws {
        let certificates = try TestCertificates.get()
        caPath = certificates.ca.cert
        clientCertPath = certificates.client.cert
        clientKeyPath = certificates.client.key
        strangerCertPath = certificates.rogueCA.cert
        strangerKeyPath = certificates.rogueCA.key
        serverCertPEM = try String(contentsOfFile: certificates.server.cert, encoding: .utf8)
        serverKeyPEM = try String(contentsOfFile: certificates.server.key, encoding: .utf8)
        clientCAPEM = try String(contentsOfFile: certificates.ca.cert, encoding: .utf8)
        scratch = try TempDirectory.forProcess("httpserver-tests")
    }

    func tls(mutual: Bool = false) -> TLSConfiguration {
        TLSConfiguration(
            certificateChainPEM: serverCertPEM, privateKeyPEM: serverKeyPEM,
            clientCertificates: mutual ? .request(trustedCAPEMs: [clientCAPEM]) : .none)
    }

    /// Writes `bytes` into a fresh file and returns its path.
    func file(_ bytes: [UInt8]) throws -> String { try scratch.write("data-\(UUID().uuidString)", bytes) }
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
        let description =
            "path=\(request.path) version=\(request.version.rawValue) method=\(request.method) "
            + "alpn=\(alpn) conn=\(context.id) count=\(count) len=\(request.body.count) der=\(der) "
            + "trusted=\(context.clientCertificateTrusted) x-test=\(request.values("x-test").joined(separator: ","))\n"
        var response = HTTPResponse(
            status: 200, headers: [HTTPField("content-type", "text/plain")],
            body: Array(description.utf8))
        let parts = request.path.split(separator: "?", omittingEmptySubsequences: false)[0].split(separator: "/")
        switch parts.first {
        case "goaway": response.actions = [.goAway(errorCode: 0, debugData: Array("bye-debug".utf8))]
        case "drop": response.actions = [.drop]
        case "big": response.body = Array(repeating: UInt8(ascii: "z"), count: Int(parts[1])!)
        case "empty": response = HTTPResponse(status: 200, headers: [], body: [])  // one HEADERS frame, as APNs' 200
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

    init(
        tls: TLSConfiguration? = nil, handler: EchoHandler = EchoHandler(), loops: Int = 2,
        configure: (inout ListenerConfiguration) -> Void = { _ in }
    ) throws {
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
