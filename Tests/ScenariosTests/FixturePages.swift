import Foundation
import HTTPServer
import PushCrypto
import Scenarios

/// A test-local stand-in for the runner's fixture server: serves Suites/pages/ over HTTP and HTTPS.
struct StaticPages: HTTPHandler {
    let root: String

    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        let path = request.path.split(separator: "?").first.map(String.init) ?? "/"
        guard !path.contains(".."),
            let data = FileManager.default.contents(atPath: root + (path == "/" ? "/index.html" : path))
        else {
            responder.respond(
                HTTPResponse(
                    status: 404, headers: [HTTPField("content-type", "text/html")],
                    body: Array("<title>404</title>".utf8)))
            return
        }
        responder.respond(
            HTTPResponse(
                status: 200, headers: [HTTPField("content-type", "text/html; charset=utf-8")], body: [UInt8](data)))
    }
}

/// One fixture server for the whole test process.
enum FixturePages {
    struct Running: Sendable {
        let server: HTTPServer
        let environment: RunEnvironment
    }

    static let running: Running = {
        let ca = try! CertificateAuthority.generate(commonName: "scenarios test fixture CA")
        let leaf = try! ca.issueServerCertificate()
        let caPath = try! Support.scratch("fixture-ca.pem")
        try! PEMFiles.write(ca.certificatePEM, to: caPath)
        let handler = StaticPages(root: Support.suites + "/pages")
        let server = HTTPServer(
            listeners: [
                ListenerConfiguration(name: "http", handler: handler),
                ListenerConfiguration(
                    name: "https",
                    tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
                    handler: handler),
            ], loops: 1)
        let bound = try! server.start()
        let env = RunEnvironment(
            fixtureHTTPURL: bound[0].url, fixtureHTTPSURL: bound[1].url, fixtureCAPath: caPath,
            environment: ["PATH": "/usr/bin:/bin", "GREETING": "hello"], stepTimeout: .seconds(20), seed: 7)
        return Running(server: server, environment: env)
    }()

    static var environment: RunEnvironment { running.environment }
}
