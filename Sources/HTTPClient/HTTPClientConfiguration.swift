import Foundation

/// Which HTTP version the client asks for.
package enum HTTPVersionPolicy: Sendable, Equatable {
    /// HTTP/2 negotiated with ALPN over TLS; a response on any other version fails with
    /// `HTTPClientError.unexpectedHTTPVersion`. Cleartext URLs are refused the same way.
    case http2
    /// HTTP/2 without TLS and without upgrade (h2c "prior knowledge").
    case http2PriorKnowledge
    /// HTTP/1.1 only (ALPN offers only `http/1.1`).
    case http1_1
    /// HTTP/2 over TLS when the server agrees, otherwise HTTP/1.1 (what a browser does).
    case best
}

/// Whether and how far redirects are followed.
package enum RedirectPolicy: Sendable, Equatable {
    /// Return 3xx responses as they are.
    case none
    /// Follow up to `limit` redirects; one more fails with `HTTPClientError.tooManyRedirects`.
    case follow(limit: Int)
}

/// A client certificate for mutual TLS (APNs certificate-based auth), as PEM.
package struct ClientCertificate: Sendable, Equatable {
    /// PEM certificate (chain), leaf first.
    package var certificatePEM: [UInt8]
    /// PEM private key (PKCS#8 or traditional), unencrypted.
    package var privateKeyPEM: [UInt8]

    package init(certificatePEM: [UInt8], privateKeyPEM: [UInt8]) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Reads both PEM files now.
    package init(certificateFile: String, privateKeyFile: String) throws(HTTPClientError) {
        self.certificatePEM = try readFile(certificateFile, what: "client certificate")
        self.privateKeyPEM = try readFile(privateKeyFile, what: "client private key")
    }
}

/// Which certificate authorities the client trusts.
package struct TrustRoots: Sendable, Equatable {
    /// Concatenated PEM certificates (what curl gets as `CURLOPT_CAINFO_BLOB`).
    var pemBundle: [UInt8]

    package init(pemBundle: [UInt8]) { self.pemBundle = pemBundle }

    /// The system bundle Debian ships (`ca-certificates`).
    static let systemBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// Trusts only the CAs in these PEM files (e.g. pushcheck's local CA), optionally plus the system roots.
    /// Everything is read now, so later file changes do not matter.
    package static func files(_ paths: [String], includingSystemRoots: Bool = false) throws(HTTPClientError)
        -> TrustRoots
    {
        var pems: [[UInt8]] = []
        for path in paths { pems.append(try readFile(path, what: "CA certificate")) }
        return try pem(pems, includingSystemRoots: includingSystemRoots)
    }

    /// Trusts these PEM certificates (already in memory), optionally plus the system roots.
    package static func pem(_ pems: [[UInt8]], includingSystemRoots: Bool = false) throws(HTTPClientError) -> TrustRoots
    {
        var bundle: [UInt8] = []
        for pem in pems {
            bundle += pem
            bundle.append(UInt8(ascii: "\n"))
        }
        if includingSystemRoots {
            bundle += try readFile(systemBundlePath, what: "system CA bundle")
        }
        return TrustRoots(pemBundle: bundle)
    }

    /// Only the system roots (a browser's view of the world).
    package static func system() throws(HTTPClientError) -> TrustRoots {
        try files([], includingSystemRoots: true)
    }
}

/// Everything an `HTTPClient` needs to know up front.
package struct HTTPClientConfiguration: Sendable {
    /// CAs that may sign server certificates. `nil`: curl's built-in default (the system bundle).
    package var trustRoots: TrustRoots?
    /// Sent when a server asks for a client certificate.
    var clientCertificate: ClientCertificate?
    package var httpVersion: HTTPVersionPolicy
    package var redirects: RedirectPolicy
    package var connectTimeout: Duration
    /// Limit for a whole transfer (a request can override it).
    package var totalTimeout: Duration
    /// Connections kept per host; with HTTP/2 one connection carries many concurrent requests.
    var maxConnectionsPerHost: Int
    /// Ask curl to wait for an HTTP/2 connection to multiplex on rather than open another one.
    var preferMultiplexing: Bool
    /// Skip certificate verification entirely. Only for diagnosing; never the default.
    var insecureSkipVerify: Bool
    /// `User-Agent` sent with every request (`nil`: none; a request header of that name wins).
    var userAgent: String?
    /// Largest response body kept, in bytes (`nil`: no limit). A longer body — or a declared
    /// `Content-Length` over it — ends the transfer with `.responseTooLarge` as soon as it is seen.
    var maximumBodySize: Int?

    package init(
        trustRoots: TrustRoots? = nil,
        clientCertificate: ClientCertificate? = nil,
        httpVersion: HTTPVersionPolicy = .best,
        redirects: RedirectPolicy = .none,
        connectTimeout: Duration = .seconds(10),
        totalTimeout: Duration = .seconds(30),
        maxConnectionsPerHost: Int = 4,
        preferMultiplexing: Bool = true,
        insecureSkipVerify: Bool = false,
        userAgent: String? = nil,
        maximumBodySize: Int? = nil
    ) {
        self.trustRoots = trustRoots
        self.clientCertificate = clientCertificate
        self.httpVersion = httpVersion
        self.redirects = redirects
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.preferMultiplexing = preferMultiplexing
        self.insecureSkipVerify = insecureSkipVerify
        self.userAgent = userAgent
        self.maximumBodySize = maximumBodySize
    }

    /// A provider talking to APNs: HTTP/2 required, no redirects, one connection per host.
    static func apnsProvider(trustRoots: TrustRoots?, clientCertificate: ClientCertificate? = nil) -> Self {
        HTTPClientConfiguration(
            trustRoots: trustRoots, clientCertificate: clientCertificate, httpVersion: .http2, redirects: .none,
            maxConnectionsPerHost: 1)
    }

    /// Largest page a web view reads (`webView(trustRoots:)`): 10 MiB.
    static let webViewPageLimit = 10 * 1024 * 1024

    /// A web view: HTTP/2 or 1.1, follows up to 10 redirects, identifies as mobile Safari, reads pages of
    /// at most `webViewPageLimit` bytes (an endless page fails fast instead of filling memory).
    package static func webView(trustRoots: TrustRoots?) -> Self {
        HTTPClientConfiguration(
            trustRoots: trustRoots, httpVersion: .best, redirects: .follow(limit: 10),
            userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
                + "(KHTML, like Gecko) Mobile/15E148 pushcheck",
            maximumBodySize: webViewPageLimit)
    }
}

func readFile(_ path: String, what: String) throws(HTTPClientError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw .configuration("cannot read \(what) file '\(path)': check that it exists and is readable")
    }
    return [UInt8](data)
}

extension Duration {
    /// Whole milliseconds, rounded up so a tiny positive timeout never becomes "no timeout" (0).
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(ms))
    }
}
