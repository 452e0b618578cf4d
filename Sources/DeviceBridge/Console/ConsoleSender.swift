import APNsGateway
import Foundation
import HTTPClient
import HTTPServer
import PushModel
import Synchronization

/// Sends the console form's push the way a provider does: over TLS and HTTP/2 to the world's own APNs listener,
/// through libcurl, so the answer is the gateway's (every rule, fault and delay applies, and the request is in
/// the delivery log like any other). Console-key sends reuse one connection per listener and team, as a provider
/// keeps its connection; a pasted token or no token gets a connection of its own each time.
enum ConsoleSender {
    /// The answer as the console shows it: `{status, reason, message, apns_id, apns_unique_id, timestamp, detail,
    /// log_sequence, auth}`; a transport failure is a 502 with `error`.
    static func send(_ form: ConsoleSendForm, host: WorldHost) async -> HTTPResponse {
        let listener = form.endpoint == .sandbox ? "sandbox" : "production"
        guard let bound = host.running.withLock({ $0.bound.first { $0.name == listener } }) else {
            return ControlAPI.problem(409, "the \(listener) listener is not running in this serve")
        }
        // A wildcard listener is reached on loopback (the certificate names 127.0.0.1, not 0.0.0.0).
        let url = ["0.0.0.0", "::"].contains(bound.host) ? "https://127.0.0.1:\(bound.port)" : bound.url
        var headers = APNsRequestHeaders()
        func text(_ s: String) -> String? { s.isEmpty ? nil : s }
        headers.topic = text(form.topic)
        headers.pushType = text(form.pushType)
        headers.priority = text(form.priority)
        headers.expiration = text(form.expiration)
        headers.collapseID = text(form.collapseID)
        headers.id = text(form.apnsID)
        let client: APNsClient
        let reusable: Bool
        var authText: String
        do {
            let trust = try host.web.trustedCAPath.map { try TrustRoots.files([$0]) } ?? TrustRoots.system()
            switch form.auth {
            case .console:
                let bundle = APNsPushType.bundleID(ofTopic: form.topic)
                guard let app = host.declaration.apps.first(where: { $0.bundleID == bundle }) else {
                    return ControlAPI.problem(
                        422,
                        "no app with bundle id '\(bundle)' is declared, so the console has no team to sign for",
                        extra: ["help": "declare the app under apps: in the config, or paste a provider token"])
                }
                let team = app.signing.teamID
                let signer = try ConsoleKeys.shared.signer(team: team, apns: host.apns)
                client = try clients.withLock { c throws -> APNsClient in
                    let key = url + " " + team
                    if let existing = c[key] { return existing }
                    let made = try APNsClient(baseURL: url, authentication: .token(signer), trustRoots: trust)
                    c[key] = made
                    return made
                }
                reusable = true
                authText = "console key \(signer.keyID) of team \(team)"
            case .none:
                client = try APNsClient(baseURL: url, authentication: .none, trustRoots: trust)
                reusable = false
                authText = "no provider token"
            case .bearer(let token):
                client = try APNsClient(baseURL: url, authentication: .none, trustRoots: trust)
                headers.authorizationOverride = "bearer " + token
                reusable = false
                authText = "pasted provider token"
            }
        } catch {
            return ControlAPI.problem(500, "the console cannot prepare the send: \(error)")
        }
        defer { if !reusable { client.client.shutdown() } }
        let response: APNsResponse
        do {
            response = try await client.send(
                deviceToken: form.token, payload: Array(form.payload.utf8), headers: headers)
        } catch {
            return ControlAPI.problem(502, "\(error)", extra: ["auth": .string(authText)])
        }
        var answer: [String: JSONValue] = [
            "status": .number(Double(response.status)), "auth": .string(authText),
            "http_version": .string(response.http.httpVersion.rawValue),
        ]
        var detail: String?
        if let id = response.apnsID {
            answer["apns_id"] = .string(id)
            // The gateway's own words on why (which rule, by how much), from its log.
            let entry = host.gatewayLogPage(matching: APNsLogQuery(apnsID: id), limit: 1).entries.last
            if let entry {
                answer["log_sequence"] = .number(Double(entry.sequence))
                detail = entry.detail
                if let d = entry.detail { answer["detail"] = .string(d) }
            }
        }
        if let r = response.reasonText {
            answer["reason"] = .string(r)
            // A refusal's log detail is the gateway's own words: the rule's detail, or its explanation
            // (`APNsGateway.explanation`: the reason's meaning or the rule that applied). The reason's bare meaning
            // is the message only without one (a fault's forced answer), so message and detail never disagree.
            if let known = response.reason { answer["message"] = .string(detail ?? known.description) }
        }
        if let id = response.apnsUniqueID { answer["apns_unique_id"] = .string(id) }
        if let t = response.timestamp { answer["timestamp"] = .number(Double(t)) }
        return ControlAPI.json(200, answer)
    }

    /// Console-key clients, one per listener URL and team, kept for the process (a provider's connection).
    private static let clients = Mutex<[String: APNsClient]>([:])
}
