import Foundation
import HTTPServer
@testable import PushCrypto
@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat
@testable import SuiteRunner

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
        // The runner's own fixture handler, so a suite sees the same pages (and 404 texts) here as in `pushcheck run`.
        let handler = StaticFileHandler(root: Support.suites + "/pages")
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
