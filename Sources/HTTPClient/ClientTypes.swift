import Foundation
import HTTPTypes
import PushModel

/// A request to send. Headers are sent in order; a name listed twice is sent twice.
package struct ClientRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: [HTTPField]
    package var body: [UInt8]
    /// Overrides the client's total timeout for this request.
    package var timeout: Duration?

    package init(
        method: String = "GET", url: String, headers: [HTTPField] = [], body: [UInt8] = [],
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A `GET` of `url`.
    package static func get(_ url: String, headers: [HTTPField] = []) -> ClientRequest {
        ClientRequest(method: "GET", url: url, headers: headers)
    }

    /// A `POST` of `body` to `url`.
    package static func post(_ url: String, headers: [HTTPField] = [], body: [UInt8]) -> ClientRequest {
        ClientRequest(method: "POST", url: url, headers: headers, body: body)
    }
}

/// The HTTP version a response came back on.
package enum ClientHTTPVersion: String, Sendable, Equatable {
    case http1_0 = "HTTP/1.0"
    case http1_1 = "HTTP/1.1"
    case http2 = "HTTP/2"
    case http3 = "HTTP/3"
    case unknown = "unknown"
}

/// One hop of a followed redirect chain.
package struct ClientRedirect: Sendable, Equatable {
    /// Status of the redirecting response (301, 302, 303, 307, 308).
    package var status: Int
    /// The URL that answered with the redirect.
    package var from: String
    /// The `location` header resolved against `from`.
    package var to: String

    package init(status: Int, from: String, to: String) {
        self.status = status
        self.from = from
        self.to = to
    }
}

/// Where the time went, as curl measured it (from the start of the transfer).
package struct ClientTimings: Sendable, Equatable {
    /// Until the TCP connection was up (zero when an existing connection was reused).
    package var connect: Duration
    /// Until the TLS handshake finished (zero for cleartext or reuse).
    var tlsHandshake: Duration
    /// The whole transfer.
    package var total: Duration

    package init(connect: Duration, tlsHandshake: Duration, total: Duration) {
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.total = total
    }
}

/// A complete response.
package struct ClientResponse: Sendable {
    package var status: Int
    /// Header fields of the final response: lowercased names, wire order, duplicates kept.
    package var headers: [HTTPField]
    package var body: [UInt8]
    package var httpVersion: ClientHTTPVersion
    /// The URL of the final response (after redirects).
    package var effectiveURL: String
    /// The redirects that were followed, in order.
    package var redirects: [ClientRedirect]
    var remoteIP: String
    var remotePort: Int
    /// Local TCP port of the connection that carried the final response: equal local ports on
    /// concurrent responses mean they shared (were multiplexed over) one connection.
    package var localPort: Int
    /// How many new connections curl opened for this transfer (0 when it reused or multiplexed).
    var newConnections: Int
    package var timings: ClientTimings

    package init(
        status: Int, headers: [HTTPField] = [], body: [UInt8] = [], httpVersion: ClientHTTPVersion = .unknown,
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
    package func values(_ name: String) -> [String] { headers.values(name) }

    /// The first value of a header (case-insensitive name).
    package func value(_ name: String) -> String? { headers.value(name) }

    /// The body decoded as UTF-8 (invalid sequences repaired).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (`nil` when it is not JSON): how the APNs and FCM clients read an answer.
    var jsonBody: JSONValue? { try? JSONValue.parse(body) }
}
