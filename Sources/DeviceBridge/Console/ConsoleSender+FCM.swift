import FCMGateway
import Foundation
import HTTPClient
import HTTPTypes
import HTTPServer
import PushCrypto
import PushModel
import Synchronization

extension WorldHost {
    /// What `serve` adds to a world that declares `fcm:` so its console can send for every project: the console's
    /// own service account (`ConsoleSender.fcmClientEmail`), with a public key nobody has the private half of.
    package static func consoleServiceAccounts(for declaration: WorldDeclaration) throws -> [FCMServiceAccount] {
        guard declaration.fcm != nil else { return [] }
        return [
            FCMServiceAccount(
                clientEmail: ConsoleSender.fcmClientEmail, publicKey: try RSAPrivateKey.generate().publicKey)
        ]
    }
}

extension ConsoleSender {
    /// The console's own Google service account, added to the world's FCM service by `serve` (`consoleAccounts`).
    /// Its access tokens are issued in-process, so nobody holds a key for it: it widens nothing a backend can do.
    static let fcmClientEmail = "pushcheck-console@pushcheck.iam.gserviceaccount.com"

    /// Sends the form's message the way a backend does: over TLS and HTTP/2 to the world's own FCM listener with a
    /// bearer, so every rule and fault applies and the send is in the FCM log. The answer is `{status, name,
    /// error_status, error_code, message, log_sequence, auth, http_version}`; a transport failure is a 502.
    static func send(_ form: ConsoleFCMForm, host: WorldHost) async -> HTTPResponse {
        guard let fcm = host.fcm else {
            return ControlAPI.problem(409, "this serve has no FCM service: declare fcm: in the config")
        }
        guard let bound = host.running.withLock({ $0.bound.first { $0.name == "fcm" } }) else {
            return ControlAPI.problem(409, "the fcm listener is not running in this serve")
        }
        let url = ["0.0.0.0", "::"].contains(bound.host) ? "https://127.0.0.1:\(bound.port)" : bound.url
        var headers = [HTTPField("content-type", "application/json; charset=utf-8")]
        let authText: String
        switch form.auth {
        case .console:
            let token = fcm.issueAccessToken(clientEmail: fcmClientEmail)
            headers.append(HTTPField("authorization", "Bearer " + token.token))
            authText = "console service account \(fcmClientEmail)"
        case .none:
            authText = "no access token"
        case .bearer(let token):
            headers.append(HTTPField("authorization", "Bearer " + token))
            authText = "pasted access token"
        }
        let client: HTTPClient
        do {
            let trust = try host.web.trustedCAPath.map { try TrustRoots.files([$0]) } ?? TrustRoots.system()
            client = try fcmClients.withLock { c throws -> HTTPClient in
                if let existing = c[url] { return existing }
                let made = try HTTPClient(
                    configuration: HTTPClientConfiguration(trustRoots: trust, httpVersion: .http2))
                c[url] = made
                return made
            }
        } catch {
            return ControlAPI.problem(500, "the console cannot prepare the send: \(error)")
        }
        let before = host.lastFCMSequence ?? 0
        let http: ClientResponse
        do {
            http = try await client.execute(.post(url + form.path, headers: headers, body: form.body))
        } catch {
            return ControlAPI.problem(502, "\(error)", extra: ["auth": .string(authText)])
        }
        let response = FCMSendResponse(http)
        var answer: [String: JSONValue] = [
            "status": .number(Double(response.status)), "auth": .string(authText),
            "http_version": .string(http.httpVersion.rawValue),
        ]
        if let name = response.name { answer["name"] = .string(name) }
        if let s = response.errorStatus { answer["error_status"] = .string(s) }
        if let c = response.errorCode { answer["error_code"] = .string(c) }
        if let m = response.errorMessage { answer["message"] = .string(m) }
        // The FCM log's entry for this request (the first after the send began with this path and status).
        if let entry = host.fcmLog(after: before).first(where: { $0.path == form.path && $0.status == response.status })
        {
            answer["log_sequence"] = .number(Double(entry.sequence))
        }
        return ControlAPI.json(200, answer)
    }

    /// One client per FCM listener URL, kept for the process (a backend's connection).
    private static let fcmClients = Mutex<[String: HTTPClient]>([:])
}
