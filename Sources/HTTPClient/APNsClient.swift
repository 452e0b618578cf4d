import Foundation
import HTTPTypes
import PushCrypto
import PushModel

/// The `apns-*` headers of one notification. Values are strings so tests can send invalid ones
/// (`apns-priority: 7`); the typed initializer covers the normal case.
package struct APNsRequestHeaders: Sendable, Equatable {
    package var topic: String?
    package var pushType: String?
    package var priority: String?
    /// UNIX seconds; `"0"` means deliver once or not at all.
    package var expiration: String?
    /// Canonical lowercase UUID.
    package var id: String?
    package var collapseID: String?
    /// Replaces the signer's `authorization` value verbatim (e.g. `"bearer garbage"`), for negative tests.
    package var authorizationOverride: String?
    /// Sent after the others, in order; a name already used above is sent twice (DuplicateHeaders tests).
    package var extra: [HTTPField]

    package init(
        topic: String? = nil, pushType: APNsPushType? = nil, priority: APNsPriority? = nil, expiration: Int? = nil,
        id: String? = nil, collapseID: String? = nil, authorizationOverride: String? = nil, extra: [HTTPField] = []
    ) {
        self.topic = topic
        self.pushType = pushType?.rawValue
        self.priority = priority.map { String($0.rawValue) }
        self.expiration = expiration.map(String.init)
        self.id = id
        self.collapseID = collapseID
        self.authorizationOverride = authorizationOverride
        self.extra = extra
    }

    /// The header fields in the order they are sent.
    package var fields: [HTTPField] {
        var out: [HTTPField] = []
        if let topic { out.append(HTTPField("apns-topic", topic)) }
        if let pushType { out.append(HTTPField("apns-push-type", pushType)) }
        if let priority { out.append(HTTPField("apns-priority", priority)) }
        if let expiration { out.append(HTTPField("apns-expiration", expiration)) }
        if let id { out.append(HTTPField("apns-id", id)) }
        if let collapseID { out.append(HTTPField("apns-collapse-id", collapseID)) }
        return out + extra
    }
}

/// How a provider proves who it is.
package enum APNsAuthentication: Sendable {
    /// `authorization: bearer <JWT>` on every request.
    case token(APNsProviderTokenSigner)
    /// Mutual TLS with the provider certificate (no `authorization` header).
    case certificate(ClientCertificate)
    /// Neither (to test `MissingProviderToken`).
    case none
}

/// What APNs answered.
package struct APNsResponse: Sendable {
    package var status: Int
    /// `reason` from the JSON body, as sent.
    package var reasonText: String?
    /// `reasonText` when it is one of Apple's documented reasons.
    package var reason: APNsReason? { reasonText.flatMap(APNsReason.init(rawValue:)) }
    package var apnsID: String?
    /// Only the sandbox returns it.
    package var apnsUniqueID: String?
    /// For 410: milliseconds since the epoch when the token stopped being valid.
    package var timestamp: Int64?
    /// `apns-request-id` (broadcast sends and channel management).
    package var requestID: String?
    /// `apns-channel-id` (a created channel).
    package var channelID: String?
    /// `reasonText` when it is one of Apple's broadcast/channel reasons.
    package var broadcastReason: APNsBroadcastReason? { reasonText.flatMap(APNsBroadcastReason.init(rawValue:)) }
    /// The whole HTTP response (version, connection, timings).
    package var http: ClientResponse

    package init(_ http: ClientResponse) {
        self.http = http
        status = http.status
        apnsID = http.value("apns-id")
        apnsUniqueID = http.value("apns-unique-id")
        requestID = http.value("apns-request-id")
        channelID = http.value("apns-channel-id")
        let json = http.jsonBody
        reasonText = json?["reason"]?.stringValue
        timestamp = json?["timestamp"]?.doubleValue.flatMap { $0.isFinite ? Int64(exactly: $0.rounded(.down)) : nil }
    }
}

/// Why an APNs send failed before an answer came back.
package enum APNsClientError: Error, Equatable, CustomStringConvertible {
    /// The request never got a response (connect, TLS, timeout, not HTTP/2).
    case transport(HTTPClientError)
    /// The provider token could not be signed (check the `.p8` key).
    case providerToken(JWTError)
    /// The device token or URL cannot form a request path.
    case invalidRequest(String)

    package var description: String {
        switch self {
        case .transport(let error): return "APNs request failed: \(error)"
        case .providerToken(let error): return "could not sign the APNs provider token: \(error)"
        case .invalidRequest(let message): return "invalid APNs request: \(message)"
        }
    }
}

/// A provider's view of APNs: `POST /3/device/<token>` over one multiplexed HTTP/2 connection.
package final class APNsClient: Sendable {
    /// e.g. `https://localhost:2197` (no trailing slash needed).
    package let baseURL: String
    package let authentication: APNsAuthentication
    /// The underlying client (one connection pool, HTTP/2 required unless configured otherwise).
    package let client: HTTPClient

    /// A client with its own connection. `httpVersion` may be `.http2PriorKnowledge` for an h2c mock.
    package init(
        baseURL: String, authentication: APNsAuthentication, trustRoots: TrustRoots?,
        httpVersion: HTTPVersionPolicy = .http2, timeout: Duration = .seconds(30)
    ) throws(HTTPClientError) {
        var certificate: ClientCertificate?
        if case .certificate(let cert) = authentication { certificate = cert }
        var configuration = HTTPClientConfiguration.apnsProvider(trustRoots: trustRoots, clientCertificate: certificate)
        configuration.httpVersion = httpVersion
        configuration.totalTimeout = timeout
        self.baseURL = baseURL
        self.authentication = authentication
        self.client = try HTTPClient(configuration: configuration)
    }

    /// A client over `client`'s connections (made by `init(baseURL:…)` of another `APNsClient`, e.g. reused by the
    /// runner across scenarios to the same server): `authentication` must match what `client` was made with.
    package init(baseURL: String, authentication: APNsAuthentication, client: HTTPClient) {
        self.baseURL = baseURL
        self.authentication = authentication
        self.client = client
    }

    /// Sends one notification. Any HTTP status is a response; only transport or signing trouble throws.
    package func send(deviceToken: String, payload: [UInt8], headers: APNsRequestHeaders = APNsRequestHeaders())
        async throws(APNsClientError) -> APNsResponse
    {
        guard !deviceToken.contains("/"), !deviceToken.contains(" ") else {
            throw .invalidRequest("device token '\(deviceToken)' contains '/' or a space")
        }
        return try await execute("POST", "/3/device/\(deviceToken)", headers: headers, body: payload)
    }

    /// Sends one broadcast push, `POST /4/broadcasts/apps/<bundleID>` with `apns-channel-id: channelID`
    /// (iOS 18 broadcast channels; `headers` should carry `apns-push-type: liveactivity` and no topic). Any HTTP
    /// status is a response.
    package func broadcast(
        bundleID: String, channelID: String, payload: [UInt8], headers: APNsRequestHeaders = APNsRequestHeaders()
    ) async throws(APNsClientError) -> APNsResponse {
        guard !bundleID.contains("/"), !bundleID.contains(" "), !bundleID.isEmpty else {
            throw .invalidRequest("bundle ID '\(bundleID)' is empty or contains '/' or a space")
        }
        var headers = headers
        headers.extra.insert(HTTPField("apns-channel-id", channelID), at: 0)
        return try await execute("POST", "/4/broadcasts/apps/\(bundleID)", headers: headers, body: payload)
    }

    /// One request to `baseURL` + `path` with the provider's `authorization` (unless overridden or a certificate
    /// connection) and `headers`.
    func execute(_ method: String, _ path: String, headers: APNsRequestHeaders, body: [UInt8])
        async throws(APNsClientError) -> APNsResponse
    {
        var fields: [HTTPField] = []
        if let override = headers.authorizationOverride {
            fields.append(HTTPField("authorization", override))
        } else if case .token(let signer) = authentication {
            do { fields.append(HTTPField("authorization", "bearer \(try signer.currentToken())")) } catch {
                throw .providerToken(error)
            }
        }
        fields += headers.fields
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let request = ClientRequest(method: method, url: base + path, headers: fields, body: body)
        do { return APNsResponse(try await client.execute(request)) } catch { throw .transport(error) }
    }

    /// Sends a payload given as a JSON string.
    package func send(deviceToken: String, json: String, headers: APNsRequestHeaders = APNsRequestHeaders())
        async throws(APNsClientError) -> APNsResponse
    {
        try await send(deviceToken: deviceToken, payload: Array(json.utf8), headers: headers)
    }
}
