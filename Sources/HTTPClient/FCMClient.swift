import Foundation
import HTTPTypes
import PushCrypto
import PushModel
import Synchronization

/// A Google service account as a sender holds it: who it is and the key that signs its OAuth assertions.
package struct GoogleServiceAccount: Sendable {
    package var clientEmail: String
    package var privateKey: RSAPrivateKey
    package var privateKeyID: String?

    package init(clientEmail: String, privateKey: RSAPrivateKey, privateKeyID: String? = nil) {
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.privateKeyID = privateKeyID
    }
}

/// FCM's answer to one `messages:send`, read as the Admin SDKs read it.
package struct FCMSendResponse: Sendable {
    package var status: Int
    /// `name` of an accepted message (`projects/p/messages/0:…`).
    package var name: String?
    /// `error.status` (google.rpc canonical code, e.g. `NOT_FOUND`).
    package var errorStatus: String?
    /// `error.message`.
    package var errorMessage: String?
    /// The `FcmError` detail's `errorCode` (UNREGISTERED, INVALID_ARGUMENT, …); the SDKs prefer it to the status.
    package var errorCode: String?
    /// The whole HTTP response.
    package var http: ClientResponse

    package init(_ http: ClientResponse) {
        self.http = http
        status = http.status
        let json = http.jsonBody
        name = json?["name"]?.stringValue
        let error = json?["error"]
        errorStatus = error?["status"]?.stringValue
        errorMessage = error?["message"]?.stringValue
        if case .array(let details)? = error?["details"] {
            errorCode =
                details.first {
                    $0["@type"]?.stringValue == "type.googleapis.com/google.firebase.fcm.v1.FcmError"
                }?["errorCode"]?.stringValue
        }
    }
}

/// Why the client could not get an access token (the send itself answers with any status).
package enum FCMClientError: Error, Sendable, CustomStringConvertible {
    case transport(HTTPClientError)
    case signing(String)
    /// The token endpoint refused the grant: its status and body.
    case tokenRefused(status: Int, body: String)

    package var description: String {
        switch self {
        case .transport(let e): return "\(e)"
        case .signing(let d): return "cannot sign the OAuth assertion: \(d)"
        case .tokenRefused(let s, let b): return "the token endpoint answered \(s): \(b)"
        }
    }
}

/// A sender on FCM's HTTP v1 API, as the Admin SDKs are: a JWT-bearer grant signed with the service account's
/// key (RS256, `aud` Google's token URL, scope `firebase.messaging`) traded at `<base>/token` for an access token,
/// reused until a minute before it expires, then `POST <base>/v1/projects/{p}/messages:send` with the bearer.
package final class FCMClient: Sendable {
    package let baseURL: String
    package let account: GoogleServiceAccount
    package let client: HTTPClient
    /// The sender's idea of now (a simulated clock in suites: the mock checks `iat` and expiry against its own).
    let now: @Sendable () -> Date
    private let cached = Mutex<(token: String, expires: Date)?>(nil)

    /// - Parameter baseURL: the root of the FCM service (no trailing slash): the mock's listener.
    package init(
        baseURL: String, account: GoogleServiceAccount, trustRoots: TrustRoots?, timeout: Duration = .seconds(30),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(HTTPClientError) {
        self.baseURL = baseURL
        self.account = account
        self.now = now
        client = try HTTPClient(
            configuration: HTTPClientConfiguration(trustRoots: trustRoots, httpVersion: .best, totalTimeout: timeout))
    }

    /// The current access token, fetched from `<base>/token` when there is none or it is about to expire.
    func accessToken() async throws(FCMClientError) -> String {
        let t = now()
        if let c = cached.withLock({ $0 }), c.expires.timeIntervalSince(t) > 60 { return c.token }
        let assertion: String
        do {
            assertion = try JWT.googleServiceAccountAssertion(
                clientEmail: account.clientEmail, scopes: ["https://www.googleapis.com/auth/firebase.messaging"],
                issuedAt: Int(t.timeIntervalSince1970), privateKeyID: account.privateKeyID, key: account.privateKey)
        } catch { throw .signing("\(error)") }
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let response: ClientResponse
        do {
            response = try await client.execute(
                .post(
                    baseURL + "/token", headers: [HTTPField("content-type", "application/x-www-form-urlencoded")],
                    body: Array(form.utf8)))
        } catch { throw .transport(error) }
        let json = response.jsonBody
        guard response.status == 200, let token = json?["access_token"]?.stringValue else {
            throw .tokenRefused(status: response.status, body: response.bodyText)
        }
        let lifetime: Double = if case .number(let n)? = json?["expires_in"] { n } else { 3599 }
        cached.withLock { $0 = (token, t.addingTimeInterval(lifetime)) }
        return token
    }

    /// The send URL for `project` (id or number).
    package func sendURL(project: String) -> String { baseURL + "/v1/projects/\(project)/messages:send" }

    /// Sends `{"message": message, "validate_only": …}` for `project`; any status is an answer.
    package func send(project: String, message: JSONValue, validateOnly: Bool = false) async throws(FCMClientError)
        -> FCMSendResponse
    {
        var body: [String: JSONValue] = ["message": message]
        if validateOnly { body["validate_only"] = .bool(true) }
        return try await send(project: project, body: JSONValue.object(body).serializedBytes())
    }

    /// Sends a raw body (what a suite wrote, possibly invalid JSON on purpose).
    package func send(project: String, body: [UInt8]) async throws(FCMClientError) -> FCMSendResponse {
        let bearer = try await accessToken()
        do {
            let response = try await client.execute(
                .post(
                    sendURL(project: project),
                    headers: [
                        HTTPField("authorization", "Bearer \(bearer)"),
                        HTTPField("content-type", "application/json; UTF-8"),
                        HTTPField("x-goog-api-format-version", "2"),
                    ], body: body))
            return FCMSendResponse(response)
        } catch { throw .transport(error) }
    }

    package func shutdown() { client.shutdown() }
}
