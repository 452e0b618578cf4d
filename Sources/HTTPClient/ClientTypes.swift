import Foundation

/// One header field. Request headers keep the caller's spelling; response headers have lowercased names.
/// Order and duplicates are preserved in both directions.
public struct ClientHeader: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
    public var description: String { "\(name): \(value)" }
}

/// A request to send. Headers are sent in order; a name listed twice is sent twice.
public struct ClientRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [ClientHeader]
    public var body: [UInt8]
    /// Overrides the client's total timeout for this request.
    public var timeout: Duration?

    public init(
        method: String = "GET", url: String, headers: [ClientHeader] = [], body: [UInt8] = [],
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A `GET` of `url`.
    public static func get(_ url: String, headers: [ClientHeader] = []) -> ClientRequest {
        ClientRequest(method: "GET", url: url, headers: headers)
    }

    /// A `POST` of `body` to `url`.
    public static func post(_ url: String, headers: [ClientHeader] = [], body: [UInt8]) -> ClientRequest {
        ClientRequest(method: "POST", url: url, headers: headers, body: body)
    }
}

/// The HTTP version a response came back on.
public enum ClientHTTPVersion: String, Sendable, Equatable {
    case http1_0 = "HTTP/1.0"
    case http1_1 = "HTTP/1.1"
    case http2 = "HTTP/2"
    case http3 = "HTTP/3"
    case unknown = "unknown"
}

/// One hop of a followed redirect chain.
public struct ClientRedirect: Sendable, Equatable {
    /// Status of the redirecting response (301, 302, 303, 307, 308).
    public var status: Int
    /// The URL that answered with the redirect.
    public var from: String
    /// The `location` header resolved against `from`.
    public var to: String

    public init(status: Int, from: String, to: String) {
        self.status = status
        self.from = from
        self.to = to
    }
}

/// Where the time went, as curl measured it (from the start of the transfer).
public struct ClientTimings: Sendable, Equatable {
    /// Until the TCP connection was up (zero when an existing connection was reused).
    public var connect: Duration
    /// Until the TLS handshake finished (zero for cleartext or reuse).
    public var tlsHandshake: Duration
    /// The whole transfer.
    public var total: Duration

    public init(connect: Duration, tlsHandshake: Duration, total: Duration) {
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.total = total
    }
}

/// A complete response.
public struct ClientResponse: Sendable {
    public var status: Int
    /// Header fields of the final response: lowercased names, wire order, duplicates kept.
    public var headers: [ClientHeader]
    public var body: [UInt8]
    public var httpVersion: ClientHTTPVersion
    /// The URL of the final response (after redirects).
    public var effectiveURL: String
    /// The redirects that were followed, in order.
    public var redirects: [ClientRedirect]
    public var remoteIP: String
    public var remotePort: Int
    /// Local TCP port of the connection that carried the final response: equal local ports on
    /// concurrent responses mean they shared (were multiplexed over) one connection.
    public var localPort: Int
    /// How many new connections curl opened for this transfer (0 when it reused or multiplexed).
    public var newConnections: Int
    public var timings: ClientTimings

    public init(
        status: Int, headers: [ClientHeader] = [], body: [UInt8] = [], httpVersion: ClientHTTPVersion = .unknown,
        effectiveURL: String = "", redirects: [ClientRedirect] = [], remoteIP: String = "", remotePort: Int = 0,
        localPort: Int = 0, newConnections: Int = 0,
        timings: ClientTimings = ClientTimings(connect: .zero, tlsHandshake: .zero, total: .zero)
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
        self.effectiveURL = effectiveURL
        self.redirects = redirects
        self.remoteIP = remoteIP
        self.remotePort = remotePort
        self.localPort = localPort
        self.newConnections = newConnections
        self.timings = timings
    }

    /// All values of a header (case-insensitive name), in wire order.
    public func values(_ name: String) -> [String] {
        let n = name.lowercased()
        return headers.filter { $0.name == n }.map(\.value)
    }

    /// The first value of a header (case-insensitive name).
    public func value(_ name: String) -> String? { values(name).first }

    /// The body decoded as UTF-8 (invalid sequences repaired).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
