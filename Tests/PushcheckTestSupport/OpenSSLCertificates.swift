import Foundation

/// A PEM certificate and its unencrypted PEM private key, as files.
package struct CertificateFiles: Sendable, Hashable {
    package let cert: String
    package let key: String
}

/// Makes P-256 certificates with the `openssl` CLI (independent of PushCrypto, so tests can check
/// PushCrypto against it) in one directory; each name becomes `<name>.pem` and `<name>.key`.
package struct OpenSSLCertificateMaker: Sendable {
    /// X.509v3 extension lines for a TLS server on this machine (localhost and 127.0.0.1).
    package static let serverExtensions = ["subjectAltName=DNS:localhost,IP:127.0.0.1", "extendedKeyUsage=serverAuth"]
    /// X.509v3 extension lines for a TLS client certificate.
    package static let clientExtensions = ["extendedKeyUsage=clientAuth"]

    package let directory: TempDirectory
    package let days: Int

    package init(in directory: TempDirectory, days: Int = 2) {
        self.directory = directory
        self.days = days
    }

    /// A self-signed certificate; with `isCA` it carries CA basic constraints and cert-signing key usage.
    package func selfSigned(_ name: String, commonName: String, isCA: Bool = false) throws -> CertificateFiles {
        let files = CertificateFiles(cert: directory.file("\(name).pem"), key: directory.file("\(name).key"))
        let caExtensions =
            isCA
            ? ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"] : []
        try runTool(
            "openssl",
            ["req", "-x509"] + Self.newKey + [
                "-keyout", files.key, "-out", files.cert, "-days", String(days), "-subj", "/CN=\(commonName)",
            ] + caExtensions
        ).requireSuccess()
        return files
    }

    /// A certificate for `commonName` signed by `issuer`, with the given extension lines.
    package func issue(
        _ name: String, commonName: String, by issuer: CertificateFiles, extensions: [String]
    ) throws -> CertificateFiles {
        let files = CertificateFiles(cert: directory.file("\(name).pem"), key: directory.file("\(name).key"))
        let csr = directory.file("\(name).csr")
        let ext = try directory.write("\(name).ext", extensions.map { $0 + "\n" }.joined())
        try runTool(
            "openssl", ["req"] + Self.newKey + ["-keyout", files.key, "-out", csr, "-subj", "/CN=\(commonName)"]
        )
        .requireSuccess()
        try runTool(
            "openssl",
            [
                "x509", "-req", "-in", csr, "-CA", issuer.cert, "-CAkey", issuer.key, "-CAcreateserial",
                "-out", files.cert, "-days", String(days), "-extfile", ext,
            ]
        ).requireSuccess()
        return files
    }

    private static let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
}

/// Certificates made once per test process with the `openssl` CLI: a CA that the client trusts, a
/// server certificate for localhost/127.0.0.1, a second CA nobody trusts (with its own server
/// certificate), and a client certificate signed by the trusted CA. Removed when the process exits.
package struct TestCertificates: Sendable {
    package let ca: CertificateFiles
    package let server: CertificateFiles
    package let rogueCA: CertificateFiles
    package let rogueServer: CertificateFiles
    package let client: CertificateFiles

    /// The shared set, made on first use; throws the `openssl` failure on every call if making it failed.
    package static func get() throws -> TestCertificates { try shared.get() }

    private static let shared: Result<TestCertificates, any Error> = Result { try TestCertificates() }

    private init() throws {
        let maker = OpenSSLCertificateMaker(in: try TempDirectory.forProcess("pushcheck-test-certificates"))
        ca = try maker.selfSigned("ca", commonName: "pushcheck ca", isCA: true)
        rogueCA = try maker.selfSigned("rogue-ca", commonName: "pushcheck rogue-ca", isCA: true)
        server = try maker.issue(
            "server", commonName: "localhost", by: ca, extensions: OpenSSLCertificateMaker.serverExtensions)
        rogueServer = try maker.issue(
            "rogue-server", commonName: "localhost", by: rogueCA, extensions: OpenSSLCertificateMaker.serverExtensions)
        client = try maker.issue(
            "client", commonName: "pushcheck-client", by: ca, extensions: OpenSSLCertificateMaker.clientExtensions)
    }
}
