import Foundation
import HTTPServer
import PushModel

/// Topic management, both ways clients do it: the v1 registrations API (current Admin SDKs) and the Instance ID
/// API (`iid.googleapis.com`, older SDKs and backends). At most 2 000 topics per instance, 1 000 tokens per batch.
extension FCMGateway {
    static let maxTopicsPerInstance = 2000
    static let maxBatchTokens = 1000

    enum SubscriptionProblem: Error {
        case invalidToken, notFound, wrongProject, tooManyTopics
    }

    /// Checks the token (exists, registered, in an allowed project) and applies the change.
    /// Returns whether anything changed (for ALREADY_EXISTS / allow_missing).
    func changeSubscription(token: String, topic: String, add: Bool, allowedProjects: (String) -> Bool)
        throws(SubscriptionProblem) -> Bool
    {
        let outcome: Result<Bool, SubscriptionProblem> = state.withLock { s in
            guard let record = s.tokens[token], !record.entry.unregistered else {
                return .failure(
                    Self.looksLikeRegistrationToken(token) || s.tokens[token] != nil ? .notFound : .invalidToken)
            }
            guard allowedProjects(record.project) else { return .failure(.wrongProject) }
            var topics = s.subscriptions[token, default: []]
            if add {
                if topics.contains(topic) { return .success(false) }
                guard topics.count < Self.maxTopicsPerInstance else { return .failure(.tooManyTopics) }
                topics.insert(topic)
            } else {
                guard topics.remove(topic) != nil else { return .success(false) }
            }
            s.subscriptions[token] = topics.isEmpty ? nil : topics
            return .success(true)
        }
        return try outcome.get()
    }

    func accountAllows(_ t: FCMAccessToken) -> (String) -> Bool {
        let account = configuration.serviceAccounts.first { $0.clientEmail == t.clientEmail }
        return { project in
            guard let account else { return false }
            if account.projects.isEmpty { return true }
            let number = self.project(project)?.number
            return account.projects.contains(project) || (number.map(account.projects.contains) ?? false)
        }
    }

    // MARK: v1 registrations API

    func registrationSubscribe(_ request: HTTPRequest, projectPath: String, token: String, topic: String?)
        -> HTTPResponse
    {
        topicLogged(request, project: projectPath) { () throws(FCMErrorResponse) -> HTTPResponse in
            let project = self.project(projectPath)
            _ = try authorize(request, project: project, projectPath: projectPath)
            let raw = topic ?? ""
            let name = raw.hasPrefix("/topics/") ? String(raw.dropFirst(8)) : raw
            guard FCMMessageRules.isValidTopicName(name) else {
                throw FCMErrorResponse.invalid(
                    "topic_name", "Invalid topic name '\(raw)'. Topic names must match [a-zA-Z0-9-_.~%]+.")
            }
            let changed = try registrationChange(token: token, topic: name, add: true, project: project!)
            guard changed else {
                throw FCMErrorResponse(
                    status: 409, canonical: "ALREADY_EXISTS", message: "Requested entity already exists")
            }
            return Self.json(
                200, ["name": .string("projects/\(project!.id)/registrations/\(token)/topicSubscriptions/\(name)")])
        }
    }

    func registrationUnsubscribe(
        _ request: HTTPRequest, projectPath: String, token: String, topic: String, allowMissing: Bool
    ) -> HTTPResponse {
        topicLogged(request, project: projectPath) { () throws(FCMErrorResponse) -> HTTPResponse in
            let project = self.project(projectPath)
            _ = try authorize(request, project: project, projectPath: projectPath)
            guard FCMMessageRules.isValidTopicName(topic) else {
                throw FCMErrorResponse.invalid(
                    "name", "Invalid topic name '\(topic)'. Topic names must match [a-zA-Z0-9-_.~%]+.")
            }
            let changed = try registrationChange(token: token, topic: topic, add: false, project: project!)
            guard changed || allowMissing else {
                throw FCMErrorResponse(status: 404, canonical: "NOT_FOUND", message: "Requested entity was not found.")
            }
            return Self.json(200, [:])
        }
    }

    func registrationChange(token: String, topic: String, add: Bool, project: FCMProject) throws(FCMErrorResponse)
        -> Bool
    {
        do {
            return try changeSubscription(token: token, topic: topic, add: add) { $0 == project.id }
        } catch {
            switch error {
            case .invalidToken:
                throw FCMErrorResponse.invalid(
                    "registration_token", "The registration token is not a valid FCM registration token")
            case .notFound: throw FCMErrorResponse(.unregistered)
            case .wrongProject: throw FCMErrorResponse(.senderIDMismatch)
            case .tooManyTopics:
                throw FCMErrorResponse.invalid(
                    "topic_name", "The app instance is subscribed to too many topics (at most 2000).")
            }
        }
    }

    func topicLogged(_ request: HTTPRequest, project: String?, _ body: () throws(FCMErrorResponse) -> HTTPResponse)
        -> HTTPResponse
    {
        var entry = FCMLogEntry(
            sequence: 0, receivedAt: clock.now(), method: request.method, path: request.path, project: project,
            request: try? JSONValue.parse(request.body), validateOnly: false, status: 200, errorCode: nil,
            errorMessage: nil,
            name: nil, apns: [])
        let response: HTTPResponse
        do { response = try body() } catch {
            entry.errorCode = error.errorCode?.rawValue ?? error.canonical
            entry.errorMessage = error.message
            response = error.response
        }
        entry.status = response.status
        appendLog(entry)
        return response
    }

    // MARK: Instance ID API

    /// IID errors are `{"error":"CODE"}` with the HTTP status.
    static func iidError(_ status: Int, _ code: String) -> HTTPResponse { json(status, ["error": .string(code)]) }

    /// The bearer on an IID request (`Authorization: Bearer …`, with `access_token_auth: true` as the SDKs send).
    func iidAuthorize(_ request: HTTPRequest) -> FCMAccessTokenOrResponse {
        do throws(FCMErrorResponse) {
            // No project in IID paths: the bearer's validity and scopes here, the token's project per token.
            let issued = try issuedToken(request)
            guard issued.value.expiresAt > clock.now() else { throw FCMErrorResponse.invalidCredentials(expired: true) }
            guard issued.allowsMessaging else { throw FCMErrorResponse.insufficientScopes }
            return .token(issued.value)
        } catch {
            return .response(Self.iidError(error.status, error.status == 401 ? "UNAUTHENTICATED" : "PERMISSION_DENIED"))
        }
    }

    func iidCode(_ p: SubscriptionProblem) -> String {
        switch p {
        case .invalidToken: return "INVALID_ARGUMENT"
        case .notFound: return "NOT_FOUND"
        case .wrongProject: return "PERMISSION_DENIED"
        case .tooManyTopics: return "TOO_MANY_TOPICS"
        }
    }

    func iidBatch(_ request: HTTPRequest, add: Bool) -> HTTPResponse {
        topicLogged(request, project: nil) { () throws(FCMErrorResponse) -> HTTPResponse in
            let t: FCMAccessToken
            switch iidAuthorize(request) {
            case .response(let r): return r
            case .token(let v): t = v
            }
            guard let body = try? JSONValue.parse(request.body), case .string(let to)? = body["to"],
                case .array(let tokens)? = body["registration_tokens"]
            else { return Self.iidError(400, "INVALID_ARGUMENT") }
            let topic = to.hasPrefix("/topics/") ? String(to.dropFirst(8)) : to
            guard FCMMessageRules.isValidTopicName(topic) else { return Self.iidError(400, "INVALID_ARGUMENT") }
            guard !tokens.isEmpty, tokens.count <= Self.maxBatchTokens else {
                return Self.iidError(400, "INVALID_ARGUMENT")
            }
            let allowed = accountAllows(t)
            var results: [JSONValue] = []
            for token in tokens {
                guard case .string(let token) = token else {
                    results.append(["error": "INVALID_ARGUMENT"])
                    continue
                }
                do throws(SubscriptionProblem) {
                    _ = try changeSubscription(token: token, topic: topic, add: add, allowedProjects: allowed)
                    results.append([:])
                } catch {
                    results.append(["error": .string(iidCode(error))])
                }
            }
            return Self.json(200, ["results": .array(results)])
        }
    }

    func iidRelate(_ request: HTTPRequest, token: String, topic: String) -> HTTPResponse {
        topicLogged(request, project: nil) { () throws(FCMErrorResponse) -> HTTPResponse in
            let t: FCMAccessToken
            switch iidAuthorize(request) {
            case .response(let r): return r
            case .token(let v): t = v
            }
            guard FCMMessageRules.isValidTopicName(topic) else { return Self.iidError(400, "INVALID_ARGUMENT") }
            do throws(SubscriptionProblem) {
                _ = try changeSubscription(token: token, topic: topic, add: true, allowedProjects: accountAllows(t))
                return Self.json(200, [:])
            } catch {
                let code = iidCode(error)
                let status = ["NOT_FOUND": 404, "PERMISSION_DENIED": 403].first { $0.key == code }?.value ?? 400
                return Self.iidError(status, code)
            }
        }
    }
}

/// An IID request's bearer, or the answer that refuses it.
enum FCMAccessTokenOrResponse {
    case token(FCMAccessToken)
    case response(HTTPResponse)
}
