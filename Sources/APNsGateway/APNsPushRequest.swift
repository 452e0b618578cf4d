import Foundation
import HTTPServer
import HTTPTypes
import PushModel
import Synchronization

/// One push as APNs' rules read it, free of I/O: the endpoint it reached, the `:path` and its token, the
/// headers the rules read as named fields, the payload and what the connection proves. The HTTP handler builds
/// it from a request (`init(_:connection:environment:)`); the FCM gateway builds it from its translation.
package struct APNsPushRequest: Sendable {
    /// The endpoint (listener) the push arrived at.
    package var environment: APNsEnvironment
    /// The HTTP version it came on (`requireHTTP2`).
    package var version: HTTPVersion
    package var method: String
    /// `:path` as sent (logged).
    package var path: String
    /// The device-token part of `path`, `nil` when the path is not `/3/device/<token>`.
    var tokenSegment: String?
    /// `tokenSegment` as a token, when it is one.
    package var token: DeviceToken?
    /// The headers the rules read.
    package var headers: APNsHeaderFields
    /// The header fields as received, for the log.
    package var loggedHeaders: [HTTPField]
    package var payload: [UInt8]
    /// Set when the body passed the listener's limit: the bytes received by then (`payload` is empty).
    package var bodyOverLimit: Int?
    /// The caller wrote `payload` as a JSON object itself: its grammar is not scanned again.
    package var payloadWrittenAsJSONObject = false
    /// Set by `APNsRequestValidation.validate(_:)`: the header, topic-shape and payload rules passed already and
    /// are not run again (a caller that validates before deciding to send, as the FCM gateway does).
    var validated: APNsParsedRequest?
    package var connection: APNsConnectionFacts

    package init(
        environment: APNsEnvironment, version: HTTPVersion = .http2, method: String = "POST", path: String,
        tokenSegment: String?, token: DeviceToken?, headers: APNsHeaderFields, loggedHeaders: [HTTPField],
        payload: [UInt8], connection: APNsConnectionFacts
    ) {
        self.environment = environment
        self.version = version
        self.method = method
        self.path = path
        self.tokenSegment = tokenSegment
        self.token = token
        self.headers = headers
        self.loggedHeaders = loggedHeaders
        self.payload = payload
        self.connection = connection
    }

    /// `/3/device/<token>`, the path of a push to `token`.
    package static func path(to token: DeviceToken) -> String { APNsRequestValidation.pathPrefix + token.hex }

    /// A `POST /3/device/<token>` over HTTP/2, written by an in-process provider: `fields` are its headers
    /// (without `authorization`; see `setAuthorization`). `path` is `path(to: token)` when the provider keeps it
    /// (made once per token rather than once per push).
    package init(
        environment: APNsEnvironment, token: DeviceToken, path: String? = nil, fields: [HTTPField], payload: [UInt8],
        connection: APNsConnectionFacts
    ) {
        self.init(
            environment: environment, path: path ?? Self.path(to: token), tokenSegment: token.hex,
            token: token, headers: APNsHeaderFields(fields), loggedHeaders: fields, payload: payload,
            connection: connection)
    }

    /// The request a listener received. Its path, headers and body are moved out of it (swapped with empty
    /// values: a consuming parameter's fields are otherwise copied out, a retain each, and released with it).
    package init(_ request: consuming HTTPRequest, connection: ConnectionContext, environment: APNsEnvironment) {
        var path = "", method = "", headers: [HTTPField] = [], body: [UInt8] = []
        swap(&path, &request.path)
        swap(&method, &request.method)
        swap(&headers, &request.headers)
        swap(&body, &request.body)
        let (segment, token) = connection.withValue(RecentTokenKey.self) { $0.segmentAndToken(ofPath: path) }
        self.init(
            environment: environment, version: request.version, method: method, path: path,
            tokenSegment: segment, token: token,
            headers: APNsHeaderFields(headers), loggedHeaders: headers, payload: body,
            connection: APNsConnectionFacts(connection))
        bodyOverLimit = request.bodyOverLimit
    }

    /// Adds the `authorization` header (a provider token) after validation: a second one makes the request
    /// DuplicateHeaders, so the header rules run again in the gateway.
    package mutating func setAuthorization(_ value: String) {
        if headers.authorization != nil {
            headers.duplicate = true
            validated = nil
        } else {
            headers.authorization = value
            validated?.authorization = value
        }
        loggedHeaders.append(HTTPField(lowercased: "authorization", value))
    }
}

/// The first value of each header the APNs rules read, from one pass over the fields.
package struct APNsHeaderFields: Sendable, Equatable {
    package var apnsID, expiration, priority, pushType, topic, collapseID, authorization: String?
    /// `apns-channel-id` and `apns-request-id` (broadcast sends and channel management).
    package var channelID, requestID: String?
    /// A singleton header (`apns-*` or `authorization`) appeared twice.
    var duplicate = false

    package init(_ fields: [HTTPField]) {
        var duplicate = false
        func take(_ slot: inout String?, _ value: String) {
            if slot == nil { slot = value } else { duplicate = true }
        }
        for (i, field) in fields.enumerated() {
            // The name's length picks the one candidate it can equal: one comparison per field instead of a
            // failed String comparison against every name before its case.
            let name = field.name
            switch name.utf8.count {
            case 7 where name == "apns-id": take(&apnsID, field.value)
            case 15 where name == "apns-expiration": take(&expiration, field.value)
            case 13 where name == "apns-priority": take(&priority, field.value)
            case 14 where name == "apns-push-type": take(&pushType, field.value)
            case 10 where name == "apns-topic": take(&topic, field.value)
            case 16 where name == "apns-collapse-id": take(&collapseID, field.value)
            case 13 where name == "authorization": take(&authorization, field.value)
            case 15 where name == "apns-channel-id": take(&channelID, field.value)
            case 15 where name == "apns-request-id": take(&requestID, field.value)
            // Other names (`content-length`, `user-agent`, …) mostly stop at the first byte.
            case _ where name.utf8.first == UInt8(ascii: "a") && name.utf8.starts(with: "apns-".utf8):
                if fields[..<i].contains(where: { $0.name == name }) { duplicate = true }  // another apns-* header
            default: break
            }
        }
        self.duplicate = duplicate
    }
}

/// What a provider connection proves and where its authentication state lives.
package struct APNsConnectionFacts: Sendable {
    /// Unique within the process (logged).
    package var id: UInt64
    /// The client certificate of mutual TLS (DER, non-empty), if any: certificate authentication.
    package var clientCertificateDER: [UInt8]?
    /// The listener verified `clientCertificateDER` against its trusted CAs.
    package var clientCertificateTrusted: Bool
    /// The JWT binding and the certificate's inspected facts, kept for the connection's lifetime.
    package var state: any APNsConnectionState

    package init(
        id: UInt64, clientCertificateDER: [UInt8]?, clientCertificateTrusted: Bool, state: any APNsConnectionState
    ) {
        self.id = id
        self.clientCertificateDER = clientCertificateDER.flatMap { $0.isEmpty ? nil : $0 }
        self.clientCertificateTrusted = clientCertificateTrusted
        self.state = state
    }

    /// A listener's connection: its TLS facts, its storage holding the state.
    package init(_ connection: ConnectionContext) {
        var der: [UInt8]?
        if case .tls(_, let cert?) = connection.security { der = cert }
        self.init(
            id: connection.id, clientCertificateDER: der,
            clientCertificateTrusted: connection.clientCertificateTrusted, state: connection)
    }
}

/// The per-connection state APNs' authentication keeps: the provider-token binding (team, key, the 20-minute
/// update rule) and the client certificate's facts, inspected once.
package protocol APNsConnectionState: Sendable {
    func withProviderTokenBinding<R>(_ body: (inout ProviderTokenConnectionState) -> R) -> R
    func withCertificateFacts<R>(_ body: (inout CertificateFactsCache) -> R) -> R
}

/// The client certificate's facts once inspected (`nil` facts: not an APNs certificate).
package struct CertificateFactsCache: Sendable {
    var inspected = false
    var facts: APNsClientCertificate?
}

enum CertificateFactsKey: ConnectionStorageKey {
    static var defaultValue: CertificateFactsCache { CertificateFactsCache() }
}

/// A listener's connection keeps the state in its storage, for as long as the socket lives.
extension ConnectionContext: APNsConnectionState {
    package func withProviderTokenBinding<R>(_ body: (inout ProviderTokenConnectionState) -> R) -> R {
        withValue(ProviderTokenBindingKey.self, body)
    }
    package func withCertificateFacts<R>(_ body: (inout CertificateFactsCache) -> R) -> R {
        withValue(CertificateFactsKey.self, body)
    }
}

/// The token of the last path a connection sent. A provider pushes to one device many times on a connection, and
/// the listener hands it one `:path` String for equal paths (`HTTP2Session`'s recent values): the segment's String
/// (an allocation and a copy) and the token's hex check were made again for every push. The pair is a function of
/// the path, so reusing it for an equal path changes nothing but the cost (a lock, and a compare that is one
/// pointer check when the storage is shared).
struct RecentToken: Sendable {
    var path = ""
    var segment: String?
    var token: DeviceToken?

    mutating func segmentAndToken(ofPath path: String) -> (String?, DeviceToken?) {
        if path != self.path {
            let segment = APNsRequestValidation.tokenSegment(ofPath: path)
            self = RecentToken(path: path, segment: segment, token: segment.flatMap { DeviceToken(hex: $0) })
        }
        return (segment, token)
    }
}

enum RecentTokenKey: ConnectionStorageKey {
    static var defaultValue: RecentToken { RecentToken() }
}

/// A provider connection with no socket (the FCM gateway's to APNs, one per project): the same state, kept
/// here. Reuse one per simulated connection so the JWT binding and the 20-minute rule behave as on a socket.
package final class APNsInProcessConnection: APNsConnectionState {
    package let id: UInt64
    /// A certificate the "listener" trusted (certificate authentication), or `nil` (provider tokens).
    package let clientCertificateDER: [UInt8]?
    private let binding = Mutex(ProviderTokenConnectionState())
    private let certificate = Mutex(CertificateFactsCache())

    package init(id: UInt64, clientCertificateDER: [UInt8]? = nil) {
        self.id = id
        self.clientCertificateDER = clientCertificateDER
    }

    /// The connection's facts, pointing at this state.
    package var facts: APNsConnectionFacts {
        APNsConnectionFacts(
            id: id, clientCertificateDER: clientCertificateDER, clientCertificateTrusted: clientCertificateDER != nil,
            state: self)
    }

    package func withProviderTokenBinding<R>(_ body: (inout ProviderTokenConnectionState) -> R) -> R {
        binding.withLock { body(&$0) }
    }
    package func withCertificateFacts<R>(_ body: (inout CertificateFactsCache) -> R) -> R {
        certificate.withLock { body(&$0) }
    }
}
