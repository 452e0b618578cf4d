import HTTPTypes
import Synchronization

/// The HTTP version a request arrived on.
package enum HTTPVersion: String, Sendable, Equatable {
    case http1_1 = "HTTP/1.1"
    case http2 = "HTTP/2"
}

/// A complete request (headers and whole body), as the transport hands it to a handler.
package struct HTTPRequest: Sendable {
    package var version: HTTPVersion
    /// `:method` (HTTP/2) or the request-line method (HTTP/1.1).
    package var method: String
    /// `:path` including any query string.
    package var path: String
    /// `:authority` or the `Host` header.
    package var authority: String? = nil
    /// `:scheme` (HTTP/2); `nil` on HTTP/1.1.
    package var scheme: String? = nil
    /// Regular header fields (no pseudo-headers), lowercased names, wire order, duplicates kept.
    package var headers: [HTTPField] = []
    package var body: [UInt8] = []
    /// HTTP/2 stream id; `nil` on HTTP/1.1.
    var streamID: Int32? = nil
    /// Set when the body passed the listener's `maxBodySize`: the bytes received by then (`body` is empty).
    /// Only handlers that opt in with `HTTPHandler.answersOversizedRequests` ever see such a request.
    package var bodyOverLimit: Int? = nil

    /// An empty request (no method, path, headers or body) that a session fills by moving a stream's parts in.
    /// Assigning only these three lets the rest take their defaults in place: the general initializer, called with
    /// the same values, built the request in a temporary, copied it out and destroyed it (a retain and a release of
    /// each empty string and array, every request).
    init(empty version: HTTPVersion) {
        self.version = version
        self.method = ""
        self.path = ""
    }

    package init(
        version: HTTPVersion, method: String, path: String, authority: String? = nil, scheme: String? = nil,
        headers: [HTTPField] = [], body: [UInt8] = [], streamID: Int32? = nil, bodyOverLimit: Int? = nil
    ) {
        self.version = version
        self.method = method
        self.path = path
        self.authority = authority
        self.scheme = scheme
        self.headers = headers
        self.body = body
        self.streamID = streamID
        self.bodyOverLimit = bodyOverLimit
    }

    /// All values of a header, in wire order.
    package func values(_ name: String) -> [String] { headers.values(name) }

    /// The first value of a header.
    package func value(_ name: String) -> String? { headers.value(name) }
}

/// What the connection should do after a response has been written.
package enum ConnectionAction: Sendable, Equatable {
    /// HTTP/2: send GOAWAY (last stream = the highest processed) with this error code and debug data,
    /// finish in-flight streams, then close. HTTP/1.1: `Connection: close` and close.
    case goAway(errorCode: UInt32, debugData: [UInt8])
    /// Close the socket right away, without GOAWAY and without writing this response (a dropped connection).
    case drop
    /// HTTP/2: send a SETTINGS frame with this SETTINGS_MAX_CONCURRENT_STREAMS.
    case setMaxConcurrentStreams(UInt32)
}

/// A complete response.
package struct HTTPResponse: Sendable {
    package var status: Int
    /// Regular header fields (lowercased names). `content-length` is added by the transport.
    package var headers: [HTTPField]
    package var body: [UInt8]
    /// Applied after this response has been queued.
    package var actions: [ConnectionAction]

    package init(status: Int, headers: [HTTPField] = [], body: [UInt8] = [], actions: [ConnectionAction] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.actions = actions
    }
}

/// How a connection reached us.
package enum TransportSecurity: Sendable, Equatable {
    case cleartext
    /// `alpn` is the negotiated protocol (`nil` when the client offered none);
    /// `peerCertificateDER` is the verified client certificate (mutual TLS), if any.
    case tls(alpn: String?, peerCertificateDER: [UInt8]?)
}

/// Type-keyed per-connection storage for handlers (e.g. the APNs JWT binding).
package protocol ConnectionStorageKey {
    associatedtype Value: Sendable
    static var defaultValue: Value { get }
}

/// Facts about one accepted connection, plus storage that lives as long as the connection.
/// Safe to use from any thread.
package final class ConnectionContext: Sendable {
    /// Unique within the process.
    package let id: UInt64
    /// Name of the listener that accepted it (e.g. `"sandbox"`, `"production"`, `"control"`).
    package let listenerName: String
    package let remoteAddress: String
    package let localPort: Int
    package let security: TransportSecurity
    package let version: HTTPVersion
    /// Mutual TLS: `true` when the client certificate in `security` chains to one of the listener's
    /// `trustedCAPEMs`. Any certificate is accepted; the handler decides what an untrusted one means.
    package let clientCertificateTrusted: Bool

    /// One mutable box per key, only touched under the lock: `withValue` mutates in place instead of
    /// copying the value out of an existential and boxing it again on every call (once per request).
    private final class Slot<Value> {
        /// Unchecked: only touched under `storage`'s lock, which already makes each access exclusive. The run-time
        /// check of a class property's `inout` access (`swift_beginAccess`, a thread-local access set) was 0.4–0.6 %
        /// of the gateway's CPU samples, at two such accesses a request.
        @exclusivity(unchecked) var value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Keyed slots in a small array: a connection holds two or three keys, and a linear scan comparing
    /// `ObjectIdentifier`s costs less per request than hashing into a dictionary.
    private let storage = Mutex<[(key: ObjectIdentifier, slot: AnyObject)]>([])

    package init(
        id: UInt64, listenerName: String, remoteAddress: String, localPort: Int, security: TransportSecurity,
        version: HTTPVersion, clientCertificateTrusted: Bool = false
    ) {
        self.id = id
        self.listenerName = listenerName
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.security = security
        self.version = version
        self.clientCertificateTrusted = clientCertificateTrusted
    }

    /// Reads and mutates the value stored under `key` atomically.
    package func withValue<K: ConnectionStorageKey, R>(_ key: K.Type, _ body: (inout K.Value) throws -> R) rethrows -> R
    {
        try storage.withLock { slots in
            let id = ObjectIdentifier(key)
            let slot: Slot<K.Value>
            if let i = slots.firstIndex(where: { $0.key == id }) {
                slot = unsafeDowncast(slots[i].slot, to: Slot<K.Value>.self)  // a key's slot is always created below
            } else {
                slot = Slot(K.defaultValue)
                slots.append((id, slot))
            }
            return try body(&slot.value)
        }
    }
}

/// Completes one request. Call `respond` exactly once, from any thread, now or later (delays are fine).
package struct HTTPResponder: Sendable {
    // `consuming` all the way to the connection's slot, which keeps the answer: borrowed, it was copied there
    // (a retain and a release per header array, body and action list, every request).
    private let send: @Sendable (consuming HTTPResponse) -> Void
    package init(_ send: @escaping @Sendable (consuming HTTPResponse) -> Void) { self.send = send }
    package func respond(_ response: consuming HTTPResponse) { send(response) }
}

/// Application logic behind a listener. Called on a loop thread: do not block; respond later for delays.
package protocol HTTPHandler: Sendable {
    /// Called once when a connection is accepted (after the TLS handshake). Returns the initial
    /// SETTINGS_MAX_CONCURRENT_STREAMS for HTTP/2 (`nil`: the listener's default).
    func connectionOpened(_ context: ConnectionContext) -> UInt32?
    func handle(_ request: consuming HTTPRequest, context: ConnectionContext, responder: HTTPResponder)
    func connectionClosed(_ context: ConnectionContext)
    /// `true`: a request whose body passed `maxBodySize` is handed to `handle` with `bodyOverLimit` set (and an
    /// empty body), so the handler can answer in its own words and record it. `false` (default): the transport
    /// answers a bare 413 itself.
    var answersOversizedRequests: Bool { get }
}

extension HTTPHandler {
    package func connectionOpened(_ context: ConnectionContext) -> UInt32? { nil }
    package var answersOversizedRequests: Bool { false }
    package func connectionClosed(_ context: ConnectionContext) {}
}
