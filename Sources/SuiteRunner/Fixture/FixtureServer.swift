import Foundation
import HTTPServer
import PushCrypto

/// Errors starting the fixture web server.
package enum FixtureServerError: Error, CustomStringConvertible {
    /// The local CA or the server certificate could not be made.
    case certificate(String)
    /// The CA file could not be written.
    case caFile(path: String, reason: String)
    /// The listeners could not start.
    case server(HTTPServerError)

    package var description: String {
        switch self {
        case let .certificate(reason):
            return
                "fixture server: cannot create the local test CA or certificate: \(reason). Check that OpenSSL 3 works."
        case let .caFile(path, reason):
            return
                "fixture server: cannot write the CA certificate to \(path): \(reason). Check that the temp directory is writable."
        case let .server(error):
            return "fixture server: cannot listen on loopback: \(error)"
        }
    }
}

/// The built-in web server behind web-view scenarios, started once per run: the pages directory over
/// HTTP (HTTP/1.1 and h2c) and HTTPS (HTTP/1.1 and h2 via ALPN) on ephemeral loopback ports. The HTTPS
/// certificate comes from a fresh local CA whose PEM is written to `caPath` for clients to trust.
package final class FixtureServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    let httpURL: String
    /// `https://127.0.0.1:PORT`.
    let httpsURL: String
    /// PEM file of the CA that signed the HTTPS certificate.
    package let caPath: String
    /// The CA certificate PEM (same as the file).
    package let caPEM: String
    /// The directory served.
    package let pagesDirectory: String

    private let server: HTTPServer
    private let caDirectory: String

    /// Starts serving `pagesDirectory` (which may be missing: everything is then `404`).
    package init(pagesDirectory: String, loops: Int = 1) throws(FixtureServerError) {
        let ca: CertificateAuthority
        let leaf: IssuedCertificate
        do {
            ca = try CertificateAuthority.generate(commonName: "pushcheck fixture CA")
            leaf = try ca.issueServerCertificate(commonName: "localhost", dnsNames: ["localhost"])
        } catch {
            throw .certificate("\(error)")
        }
        let directory = NSTemporaryDirectory() + "pushcheck-fixture-\(getpid())-\(UUID().uuidString.prefix(8))"
        let path = directory + "/fixture-ca.pem"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try PEMFiles.write(ca.certificatePEM, to: path)
        } catch {
            throw .caFile(path: path, reason: "\(error)")
        }
        let handler = StaticFileHandler(root: pagesDirectory)
        let tls = TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM)
        let server = HTTPServer(
            listeners: [
                ListenerConfiguration(name: "fixture-http", idleTimeout: .seconds(60), handler: handler),
                ListenerConfiguration(name: "fixture-https", tls: tls, idleTimeout: .seconds(60), handler: handler),
            ],
            loops: loops)
        let bound: [BoundListener]
        do {
            bound = try server.start()
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw .server(error)
        }
        self.server = server
        httpURL = bound[0].url
        httpsURL = bound[1].url
        caPath = path
        caPEM = ca.certificatePEM
        caDirectory = directory
        self.pagesDirectory = pagesDirectory
    }

    /// Stops the listeners and removes the CA file.
    package func stop() {
        server.shutdown(grace: .milliseconds(200))
        try? FileManager.default.removeItem(atPath: caDirectory)
    }
}
