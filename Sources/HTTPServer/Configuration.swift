/// Whether a TLS listener asks the client for a certificate (mutual TLS).
package enum ClientCertificatePolicy: Sendable, Equatable {
    /// No client certificate is requested.
    case none
    /// A certificate is requested but not required; any certificate is accepted. The handler sees its DER in
    /// `ConnectionContext.security` and, in `ConnectionContext.clientCertificateTrusted`, whether it chains to
    /// one of `trustedCAPEMs`.
    case request(trustedCAPEMs: [String])
}

/// TLS material of a listener.
package struct TLSConfiguration: Sendable, Equatable {
    /// Leaf certificate first, then intermediates, PEM.
    package var certificateChainPEM: String
    package var privateKeyPEM: String
    package var clientCertificates: ClientCertificatePolicy

    package init(
        certificateChainPEM: String, privateKeyPEM: String, clientCertificates: ClientCertificatePolicy = .none
    ) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.clientCertificates = clientCertificates
    }
}

/// One listening socket (per loop) and the handler behind it.
package struct ListenerConfiguration: Sendable {
    /// Reported in `ConnectionContext.listenerName` and `BoundListener.name`.
    package var name: String
    /// Numeric IPv4 or IPv6 address. Loopback by default: nothing listens beyond it unless asked.
    package var host: String
    /// 0 picks an ephemeral port (see `BoundListener.port`).
    package var port: Int
    /// `nil`: cleartext (h2c with prior knowledge and HTTP/1.1 on the same port).
    package var tls: TLSConfiguration?
    /// Default HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS (a handler may choose a per-connection value).
    package var maxConcurrentStreams: UInt32
    /// A connection with no traffic and no request in flight for this long is closed.
    package var idleTimeout: Duration
    /// A connection must finish its TLS handshake and send its 24-byte HTTP/2 client preface (or its first
    /// HTTP/1.1 request head) within this long of being accepted, however slowly it trickles bytes; else it is
    /// closed. Never longer than `idleTimeout` (see `openingTimeout`).
    package var handshakeTimeout: Duration
    /// Larger request bodies get 413 (the connection survives on HTTP/2).
    var maxBodySize: Int
    /// Total bytes of header names and values accepted per request; more gets 431.
    var maxHeaderListSize: Int
    package var handler: any HTTPHandler

    package init(
        name: String, host: String = "127.0.0.1", port: Int = 0, tls: TLSConfiguration? = nil,
        maxConcurrentStreams: UInt32 = 1000, idleTimeout: Duration = .seconds(300), maxBodySize: Int = 1 << 20,
        maxHeaderListSize: Int = 64 * 1024, handshakeTimeout: Duration = .seconds(10), handler: any HTTPHandler
    ) {
        self.handshakeTimeout = handshakeTimeout
        self.name = name
        self.host = host
        self.port = port
        self.tls = tls
        self.maxConcurrentStreams = maxConcurrentStreams
        self.idleTimeout = idleTimeout
        self.maxBodySize = maxBodySize
        self.maxHeaderListSize = maxHeaderListSize
        self.handler = handler
    }
}

extension ListenerConfiguration {
    /// The opening deadline actually applied: `handshakeTimeout`, never longer than `idleTimeout`.
    var openingTimeout: Duration { min(handshakeTimeout, idleTimeout) }
}

/// A listener after `start()`: where it actually listens.
package struct BoundListener: Sendable, Equatable {
    package var name: String
    package var host: String
    package var port: Int
    /// `"https"` or `"http"`.
    package var scheme: String
    /// e.g. `https://127.0.0.1:43123` (IPv6 hosts are bracketed).
    package var url: String
}

/// Counters across all listeners, for benchmarks and `serve`'s status output.
package struct HTTPServerStats: Sendable, Equatable {
    var openConnections: Int = 0
    var acceptedConnections: Int = 0
    var requestsServed: Int = 0
    var http2Connections: Int = 0
    var http1Connections: Int = 0
    /// Times a connection stopped reading because its unsent output passed the high-water mark.
    var backpressurePauses: Int = 0
}

extension Duration {
    var nanoseconds: Int64 {
        let (s, a) = components
        return s * 1_000_000_000 + a / 1_000_000_000
    }
}
