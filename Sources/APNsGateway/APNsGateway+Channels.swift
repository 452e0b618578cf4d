import Foundation
import PushModel

extension APNsGateway {
    /// Evaluates a channel-management request as APNs would ("Sending channel management requests to APNs";
    /// Tests/reference/apns.md §8.1, §8.3). Order of checks: HTTP/2 (if required; `http2Refusal`) → faults (route `channels`) → route (404 BadPath, 405
    /// MethodNotAllowed) → body over the listener limit (413 PayloadTooLarge) → `apns-request-id` (BadMessageId)
    /// → authentication and the bundle ID (`authenticateBroadcast`: 403s, TopicDisallowed, TopicMismatch) →
    /// FeatureNotEnabled → the route's own rules:
    /// - create `POST /1/apps/<id>/channels`: the body (`BroadcastRules.channelConfig`), then the app's limit in
    ///   this environment (CannotCreateChannelConfig) → **201**, empty body, `apns-channel-id` (base64);
    /// - read `GET …/channels` and delete `DELETE …/channels` with `apns-channel-id`: MissingChannelId,
    ///   BadChannelId, ChannelNotRegistered (unknown, deleted, another environment's or another app's) → **200**
    ///   `{"message-storage-policy":…,"push-type":"LiveActivity"}` / **204**;
    /// - list `GET /1/apps/<id>/all-channels` → **200** `{"channels":[…]}` (this environment only).
    /// Every answer carries `apns-request-id`. Each request is one delivery-log entry (its `apns_id` holds the
    /// request id, as channel requests have no `apns-id`).
    func evaluateChannelRequest(_ request: APNsChannelRequest) -> APNsChannelOutcome {
        let now = clock.now()
        let endpoint = request.environment
        let sentRequestID = request.headers.requestID.flatMap {
            APNsRequestValidation.isCanonicalLowercaseUUID($0) ? $0 : nil
        }
        var outcome = APNsChannelOutcome(
            status: 200, requestID: sentRequestID ?? APNsRequestValidation.newLowercaseUUID())
        let (effect, rules) = state.withLock { s in
            (
                s.faults.apply(endpoint: endpoint, token: nil, route: .channels),
                AuthRules(tokens: s.tokenRules, teamTopics: s.teamTopics)
            )
        }
        outcome.delay = effect.delay
        var bundleID: String?
        var channelID = request.headers.channelID
        var detail: String?
        if let refusal = http2Refusal(request.version) {
            (outcome.status, outcome.reason, outcome.actions) = (refusal.status, refusal.reason, refusal.actions)
            detail = Self.http2RequiredDetail
        } else if let answer = effect.preemptingAnswer {
            (outcome.status, outcome.reason, outcome.actions) = answer
        } else {
            var identity = BroadcastIdentity()
            let result = decideChannelRequest(request, rules: rules, now: now, identity: &identity)
            outcome.auth = identity.auth
            detail = identity.note
            switch result {
            case .failure(let refusal):
                bundleID = refusal.bundleID
                outcome.status = refusal.rejection.status
                outcome.reason = refusal.rejection.reason
                detail = [detail, refusal.detail].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            case .success(let answer):
                bundleID = answer.bundleID
                outcome.status = answer.status
                outcome.body = answer.body
                outcome.createdChannelID = answer.createdChannelID
                channelID = answer.createdChannelID ?? channelID
                detail = [detail, answer.warning].compactMap { $0 }.joined(separator: "; ").nilIfEmpty
            }
        }
        if let goAway = effect.goAwayAction { outcome.actions.append(goAway) }
        appendToLog(
            PackedLogEntry(
                sequence: 0, endpoint: endpoint, connectionID: request.connection.id, method: request.method,
                path: request.path, headers: request.loggedHeaders, payload: request.body, token: nil,
                topic: bundleID, pushType: nil, status: outcome.status,
                reason: effect.loggedReason(outcome.reason), apnsID: outcome.requestID,
                apnsUniqueID: nil, auth: outcome.auth, receivedAt: now,
                answeredAt: now.addingTimeInterval(outcome.delay),
                faultApplied: effect.applied,
                detail: detail, receivedBodySize: request.bodyOverLimit,
                maxStoredPayload: configuration.logMaxStoredPayload, channelID: channelID,
                apnsRequestID: outcome.requestID))
        return outcome
    }

    /// A refused channel request: why, and what was learnt before (for the log).
    struct ChannelRefusal: Error {
        var rejection: BroadcastRejection
        var bundleID: String?
        var detail: String?
    }

    /// An accepted channel request's answer.
    struct ChannelAnswer {
        var status: Int
        var bundleID: String
        var body: JSONValue?
        var createdChannelID: String?
        var warning: String?
    }

    /// A push or broadcast send's path on the channel-management listener: the answer stays APNs's (404 BadPath:
    /// the channel-management host lists no such path, Tests/reference/apns.md §8.3, §8.4), and the detail points at the
    /// push listener, as a channel-management path on the push listener points here
    /// (`APNsGateway.explanation`).
    static func pushPathHint(_ reason: APNsBroadcastReason, path: String) -> String? {
        guard reason == .badPath, path.hasPrefix("/3/device/") || path.hasPrefix(BroadcastRules.broadcastPrefix)
        else { return nil }
        return "Pushes (/3/device/<token>) and broadcasts (/4/broadcasts/apps/<bundle id>) go to the push listener "
            + "(`apns` in serve's ready line, sandbox or production; $PUSHCHECK_APNS_SANDBOX_URL), not to this "
            + "channel-management listener."
    }

    func decideChannelRequest(
        _ request: APNsChannelRequest, rules: AuthRules, now: Date, identity: inout BroadcastIdentity
    ) -> Result<ChannelAnswer, ChannelRefusal> {
        let route: BroadcastRules.ChannelRoute
        switch BroadcastRules.channelRoute(method: request.method, path: request.path) {
        case .failure(let r):
            return .failure(
                ChannelRefusal(rejection: BroadcastRejection(r), detail: Self.pushPathHint(r, path: request.path)))
        case .success(let r): route = r
        }
        let bundleID = route.bundleID
        func refuse(_ r: APNsBroadcastReason, _ detail: String? = nil) -> Result<ChannelAnswer, ChannelRefusal> {
            .failure(ChannelRefusal(rejection: BroadcastRejection(r), bundleID: bundleID, detail: detail))
        }
        if request.bodyOverLimit != nil { return refuse(.payloadTooLarge) }
        if let r = BroadcastRules.checkIDs(request.headers) { return refuse(r) }
        if let r = authenticateBroadcast(
            connection: request.connection, headers: request.headers, bundleID: bundleID, now: now,
            endpoint: request.environment, rules: rules, identity: &identity)
        {
            return .failure(ChannelRefusal(rejection: r, bundleID: bundleID))
        }
        guard configuration.broadcast.isEnabled(bundleID) else { return refuse(.featureNotEnabled) }
        let environment = request.environment
        switch route {
        case .create:
            let config: BroadcastRules.ChannelConfig
            switch BroadcastRules.channelConfig(request.body) {
            case .failure(let r): return refuse(r)
            case .success(let c): config = c
            }
            let created = state.withLock {
                $0.channels.create(bundleID: bundleID, in: environment, policy: config.policy, now: now)
            }
            switch created {
            case .failure(let r):
                return refuse(r, "\(configuration.broadcast.channelLimit) channels in \(environment.rawValue) already")
            case .success(let c):
                return .success(
                    ChannelAnswer(
                        status: 201, bundleID: bundleID, createdChannelID: c.id, warning: config.warning))
            }
        case .read, .delete:
            let id: String
            switch BroadcastRules.checkChannelHeader(request.headers) {
            case .failure(let r): return refuse(r)
            case .success(let c): id = c
            }
            let isDelete = route == .delete(bundleID: bundleID)
            let found = state.withLock { s -> BroadcastChannel? in
                guard let c = s.channels.channel(id, bundleID: bundleID, in: environment) else { return nil }
                if isDelete { s.channels.delete(id, in: environment) }
                return c
            }
            guard let found else {
                let elsewhere = state.withLock { $0.channels.channel(id, in: environment.other) } != nil
                return refuse(
                    .channelNotRegistered, elsewhere ? "the channel exists in \(environment.other.rawValue)" : nil)
            }
            return .success(
                isDelete
                    ? ChannelAnswer(status: 204, bundleID: bundleID)
                    : ChannelAnswer(status: 200, bundleID: bundleID, body: BroadcastRules.channelJSON(found)))
        case .list:
            let ids = state.withLock { $0.channels.ids(of: bundleID, in: environment) }
            return .success(
                ChannelAnswer(status: 200, bundleID: bundleID, body: ["channels": .array(ids.map(JSONValue.string))]))
        }
    }

    // MARK: Runtime control

    /// Every channel of both environments, oldest first.
    package var channels: [BroadcastChannel] { state.withLock { $0.channels.all } }

    /// The channel `id` in `environment`, if it exists.
    package func channel(_ id: String, environment: APNsEnvironment) -> BroadcastChannel? {
        state.withLock { $0.channels.channel(id, in: environment) }
    }

    /// Creates a channel as the config's `broadcast.channels` entries do (the control endpoint's
    /// `POST /apns/channels`): with the declared id, or a generated one.
    package func createChannel(_ d: APNsChannelDeclaration) -> Result<BroadcastChannel, APNsBroadcastReason> {
        guard configuration.broadcast.isEnabled(d.bundleID) else { return .failure(.featureNotEnabled) }
        let now = clock.now()
        return state.withLock { s in
            if let id = d.channelID {
                return s.channels.add(
                    id: id, bundleID: d.bundleID, in: d.environment, policy: d.storagePolicy, now: now)
            }
            return s.channels.create(bundleID: d.bundleID, in: d.environment, policy: d.storagePolicy, now: now)
        }
    }

    /// Deletes a channel; false when it does not exist.
    @discardableResult
    func deleteChannel(_ id: String, environment: APNsEnvironment) -> Bool {
        state.withLock { $0.channels.delete(id, in: environment) }
    }

    /// The `HTTPHandler` for the channel-management listener of `environment`.
    package func channelHandler(for environment: APNsEnvironment) -> APNsChannelHTTPHandler {
        APNsChannelHTTPHandler(apns: self, environment: environment)
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
