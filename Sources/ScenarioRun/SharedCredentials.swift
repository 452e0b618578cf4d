import DeviceSimulator
import Foundation
import PushModel
import HTTPClient
import PushCrypto
import SuiteFormat
import Synchronization

/// Key material made once per process and shared by every scenario world: the local CA, the gateway
/// listeners' server certificate, the default provider key (.p8) and provider certificates per topic.
/// Generating keys is the slow part of a world; scenarios still get their own gateways and devices.
final class SharedCredentials: Sendable {
    let ca: CertificateAuthority
    let server: IssuedCertificate
    let providerKey: P256PrivateKey
    /// Its public half (derived once: key decoding is slow in OpenSSL 3).
    let providerPublicKey: P256PublicKey
    /// Files for `run` steps: the CA and the .p8.
    let caPath: String
    let providerKeyPath: String
    private let providerCertificates = Mutex<[String: IssuedCertificate]>([:])
    private let webViews = WebViewPool()
    private let lastWebView = Mutex<(fixtureCAPath: String, timeout: Duration, engine: WebView)?>(nil)
    private let tokens = Mutex<[String: String]>([:])
    private let fcmAccount = Mutex<GoogleServiceAccount?>(nil)

    /// The runner's Google service account for worlds with FCM (`send: { via: fcm }` signs its OAuth grants with
    /// it; `run:` steps get it as a credentials file): an RSA key made on first use, once per process, as the APNs
    /// provider key is.
    static let fcmClientEmail = "pushcheck-runner@pushcheck.iam.gserviceaccount.com"

    func fcmServiceAccount() throws -> GoogleServiceAccount {
        try fcmAccount.withLock { (value: inout GoogleServiceAccount?) throws -> GoogleServiceAccount in
            if let value { return value }
            let new = GoogleServiceAccount(
                clientEmail: Self.fcmClientEmail, privateKey: try RSAPrivateKey.generate(),
                privateKeyID: "pushcheck-runner")
            value = new
            return new
        }
    }

    private init() throws {
        ca = try CertificateAuthority.generate(commonName: "pushcheck scenarios CA")
        server = try ca.issueServerCertificate()
        providerKey = try RunnerProviderKey.shared()
        providerPublicKey = providerKey.publicKey
        let dir = Self.directory
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The files are for this process's `run` steps only: remove them when it exits.
        atexit { try? FileManager.default.removeItem(atPath: SharedCredentials.directory) }
        caPath = dir + "/ca.pem"
        providerKeyPath = dir + "/AuthKey.p8"
        try PEMFiles.write(ca.certificatePEM, to: caPath)
        try PEMFiles.write(providerKey.pkcs8PEM, to: providerKeyPath, mode: 0o600)
    }

    private static let made = Mutex<SharedCredentials?>(nil)

    /// Where the CA, the .p8 and provider certificates are written for `run` steps.
    static let directory = NSTemporaryDirectory() + "pushcheck-scenarios-\(getpid())"

    /// The process-wide instance (made on first use).
    static func shared() throws -> SharedCredentials {
        try made.withLock { (value: inout SharedCredentials?) throws -> SharedCredentials in
            if let value { return value }
            let new = try SharedCredentials()
            value = new
            return new
        }
    }

    /// The web engine scenarios load pages with: one per fixture CA and timeout, shared by every world so
    /// connections to the fixture server are reused (loading the trust store and a TLS handshake per
    /// scenario cost more than the rest of a scenario). It holds no per-scenario state: each navigation
    /// passes the app's policy.
    func webView(fixtureCAPath: String, timeout: Duration) throws -> WebView {
        // Every page load of a run asks with the same arguments: the engine is remembered for them (the file check,
        // key and pool lock per load showed in the runner's profile).
        if let last = lastWebView.withLock({ $0 }), last.fixtureCAPath == fixtureCAPath, last.timeout == timeout {
            return last.engine
        }
        let engine = try webView(trusting: fixtureCAPath, timeout: timeout)
        lastWebView.withLock { $0 = (fixtureCAPath, timeout, engine) }
        return engine
    }

    private func webView(trusting fixtureCAPath: String, timeout: Duration) throws -> WebView {
        var files = [caPath]
        if !fixtureCAPath.isEmpty, FileManager.default.fileExists(atPath: fixtureCAPath) { files.append(fixtureCAPath) }
        return try webViews.engine(trusting: files, timeout: timeout)
    }

    /// A provider token for this key and `iat`, signed once per process: worlds start at the same simulated
    /// time, so most scenarios send the same token, and signing (key decoding) dominates a send's cost.
    func providerToken(teamID: String, keyID: String, keyFile: String?, issuedAt: Int) throws -> String {
        let key = "\(teamID)|\(keyID)|\(keyFile ?? "")|\(issuedAt)"
        if let token = tokens.withLock({ $0[key] }) { return token }
        let privateKey = try keyFile.map { try P256PrivateKey(pem: try PEMFiles.read($0)) } ?? providerKey
        let token = try JWT.apnsProviderToken(teamID: teamID, keyID: keyID, issuedAt: issuedAt, key: privateKey)
        tokens.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[key] = token
        }
        return token
    }

    /// PEM files of the provider certificate for `bundleID` and its key (for `run` steps).
    func providerCertificateFiles(bundleID: String, teamID: String) throws -> (certificate: String, key: String) {
        let dir = PathText.directory(of: caPath)
        let cert = dir + "/\(bundleID).cert.pem"
        let key = dir + "/\(bundleID).key.pem"
        if !FileManager.default.fileExists(atPath: key) {
            let issued = try providerCertificate(bundleID: bundleID, teamID: teamID)
            try PEMFiles.write(issued.pem, to: cert)
            try PEMFiles.write(issued.privateKeyPEM, to: key, mode: 0o600)
        }
        return (cert, key)
    }

    /// An Apple-shaped provider certificate for `bundleID` (both environments), valid 2000–2100 so the
    /// simulated clock can be set anywhere.
    func providerCertificate(bundleID: String, teamID: String) throws -> IssuedCertificate {
        if let cached = providerCertificates.withLock({ $0[bundleID] }) { return cached }
        let request = APNsClientCertificateRequest(
            bundleID: bundleID, teamID: teamID, notBefore: Date(timeIntervalSince1970: 946_684_800),
            notAfter: Date(timeIntervalSince1970: 4_102_444_800))
        let issued = try ca.issueAPNsClientCertificate(request)
        providerCertificates.withLock { $0[bundleID] = issued }
        return issued
    }
}
