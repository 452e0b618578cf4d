import Foundation
import HTTPServer
import PushModel

extension APNsGateway {
    /// Evaluates one push as APNs would, without sockets. Order of checks:
    /// HTTP/2 only (if `requireHTTP2`) → faults (drop / forced answer) → method, path, token syntax, duplicate headers, header syntax
    /// (`APNsRequestValidation.parse`) → authentication (certificate if the connection has one,
    /// else provider token) → topic (MissingTopic, suffix vs push type, background priority,
    /// credentials' topics) → payload → device-token registry → per-token rate limit → accepted.
    /// A push that carries `validated` skips the rules that validation ran (each rule runs once per push).
    /// Consuming: `decide` moves the validated request out of the push instead of copying it (a copy retained and
    /// released its strings and payload, 1.5 % of an FCM send's samples).
    package func evaluate(_ push: consuming APNsPushRequest) -> APNsOutcome {
        // Not a device-token path: maybe a broadcast send (`/4/broadcasts/apps/<bundle id>`), on the same listener.
        if push.tokenSegment == nil, BroadcastRules.isBroadcastPath(push.path) { return evaluateBroadcast(push) }
        let now = clock.now()
        let endpoint = push.environment
        let pathToken = push.token
        let sentID = push.headers.apnsID.flatMap { APNsRequestValidation.isCanonicalLowercaseUUID($0) ? $0 : nil }
        let apnsID = sentID ?? APNsRequestValidation.newLowercaseUUID()
        // The answer's parts are kept apart and the outcome built in its return value: an `APNsOutcome` built
        // first and returned copied its references whole (`return consume` is refused by this compiler).
        var status = 200
        var reason: String?
        var apnsUniqueID: String?
        var timestamp: Date?
        var actions: [ConnectionAction] = []
        // Faults and the auth rules in one lock hold (the two loops share this lock).
        let (effect, rules) = state.withLock { s in
            (
                s.faults.apply(endpoint: endpoint, token: pathToken),
                AuthRules(tokens: s.tokenRules, teamTopics: s.teamTopics)
            )
        }
        let delay = effect.delay
        // What the rules found, filled in place by `decide` and read from there (returned, it was copied out, and
        // each field taken from it retained again).
        var decision = Decision()
        // The accepted push, filled in place by `decide` (with its ids) and moved into the outcome at the end: built
        // by `DeliveredPush.init` into an optional, it was built in a temporary and copied twice per push.
        var accepted = DeliveredPush(unfilledAt: now)
        var isAccepted = false
        if let refusal = http2Refusal(push.version) {
            (status, reason, actions) = (refusal.status, refusal.reason, refusal.actions)
            decision.detail = Self.http2RequiredDetail
        } else if let answer = effect.preemptingAnswer {
            (status, reason, actions) = answer
            // Apple's 410 always carries when the token stopped being valid; clients read it (pyapns_client's
            // `KeyError: 'timestamp'` without it).
            if status == 410 { timestamp = now }
        } else {
            decide(&push, rules: rules, now: now, apnsID: apnsID, into: &decision, accepted: &accepted)
            if let rejection = decision.rejection {
                status = rejection.reason.status
                reason = rejection.reason.rawValue
                timestamp = rejection.timestamp
                // A rule that says no more than its reason is explained by what the reason means and what to do. A
                // token that passed (`auth` is set then) may have left a warning: it follows, it is not the cause.
                let meaning = Self.explanation(
                    rejection.reason, pushType: decision.parsedPushType, pushTypeInferred: decision.pushTypeInferred,
                    refusedAtTokenKind: decision.refusedAtTokenKind, path: push.path)
                if decision.detail == nil {
                    decision.detail = meaning
                } else if case .token = decision.auth, let warning = decision.detail {
                    decision.detail = meaning + " (token: " + warning + ")"
                }
            } else {
                isAccepted = true
                apnsUniqueID = accepted.apnsUniqueID
            }
            if decision.firstValidToken {
                actions.append(.setMaxConcurrentStreams(state.withLock { $0.maxConcurrentStreams }))
            }
        }
        if let goAway = effect.goAwayAction { actions.append(goAway) }
        let packed = PackedLogEntry(
            sequence: 0, endpoint: endpoint, connectionID: push.connection.id, method: push.method, path: push.path,
            headers: push.loggedHeaders, payload: push.payload, token: decision.parsedToken ?? pathToken,
            topic: decision.topic, pushType: decision.parsedPushType, status: status,
            reason: effect.loggedReason(reason), apnsID: apnsID,
            apnsUniqueID: apnsUniqueID, auth: decision.auth, receivedAt: now,
            answeredAt: now.addingTimeInterval(delay),
            faultApplied: effect.applied,
            detail: decision.detail, receivedBodySize: push.bodyOverLimit,
            maxStoredPayload: configuration.logMaxStoredPayload)
        // Storage and log in one lock hold; packing (log entry, history event) before it, and what the rings drop
        // freed after it. The accepted push is lent from here on and moved into the outcome. The log entry is moved
        // into the log through an optional the lock's closure empties (the closure cannot consume a captured `let`:
        // it copied it), and copied only for a log file.
        let forFile = configuration.logFilePath != nil ? packed : nil
        var logged: PackedLogEntry? = consume packed
        guard isAccepted, let entry = logged?.bytes else {
            let (sequence, droppedEntry, moreDropped) = state.withLock { $0.log.appendEvicting(logged.take()!) }
            withExtendedLifetime((droppedEntry, moreDropped)) {}
            if let forFile { writeToLogFile(forFile, sequence: sequence) }
            return APNsOutcome(
                status: status, reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID, timestamp: timestamp,
                delay: delay, actions: actions, push: nil, auth: decision.takeAuth())
        }
        // The history event shares the log entry's buffer when it can (see `PackedDeliveryEvent`).
        let packedEvent = PackedDeliveryEvent(
            accepted, loggedAs: entry, payloadCut: logged?.payloadSize != nil, .delivered, at: now)
        let (route, sequence, droppedEntry, droppedEvent) = state.withLock { s in
            let (route, droppedEvent) = s.store.acceptDeliveringNow(accepted, packed: packedEvent, now: now)
            let (sequence, droppedEntry, moreDropped) = s.log.appendEvicting(logged.take()!)
            return (route, sequence, (droppedEntry, moreDropped), droppedEvent)
        }
        withExtendedLifetime((droppedEntry, droppedEvent)) {}
        switch route {
        case .now: hand(accepted, packed: packedEvent, now: now)
        case .nowThenRecord: handOff(accepted, packed: packedEvent, now: now)
        case .kept: break
        }
        if let forFile { writeToLogFile(forFile, sequence: sequence) }
        return APNsOutcome(
            status: status, reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID, timestamp: timestamp,
            delay: delay, actions: actions, push: consume accepted, auth: decision.takeAuth())
    }

    /// What a refusal's log detail says: the reason's meaning (`APNsReason.description`), or, where the request
    /// tells more, the rule it broke. Status and reason stay APNs's. The console's check and send answers say the
    /// same (`ConsoleSendForm.check`). `pushTypeInferred`: no `apns-push-type` header was sent;
    /// `refusedAtTokenKind`: the kind of the registered token the push type was refused at.
    package static func explanation(
        _ reason: APNsReason, pushType: APNsPushType?, pushTypeInferred: Bool, refusedAtTokenKind: PushTokenKind?,
        path: String
    ) -> String {
        switch reason {
        case .badPriority where pushType == .background:
            // "Always use priority 5. Using priority 10 is an error." (Tests/reference/apns.md §2)
            return "Background pushes take apns-priority 5 or 1, not 10"
                + (pushTypeInferred
                    ? ": with no apns-push-type header the type was inferred from the payload (content-available "
                        + "without alert, badge or sound is background); send apns-priority: 5, or apns-push-type "
                        + "alert if it shows something."
                    : ".")
        case .topicDisallowed where refusedAtTokenKind == .voip:
            // An alert or background push (bare bundle topic) at a PushKit token (Tests/reference/ios-push-types.md
            // §1.3).
            let type = pushType?.rawValue ?? "alert"
            return
                "The device token is a PushKit VoIP token: APNs refuses \(APNsPushType.article(type)) \(type) push (topic without .voip) at "
                + "it. Send \(type) pushes to the app's APNs device token, and only VoIP pushes (apns-topic "
                + "<bundle id>.voip, apns-push-type voip) to this one."
        case .methodNotAllowed where Self.isChannelManagementPath(path),
            .badPath where Self.isChannelManagementPath(path):
            return reason.description
                + " Channel management (/1/apps/<bundle id>/channels, /all-channels) is on the channel-management "
                + "listener (`broadcast` in serve's ready line, $PUSHCHECK_APNS_BROADCAST_SANDBOX_URL), not on this "
                + "push listener."
        default:
            return reason.description
        }
    }

    /// A path of the channel-management API (`/1/apps/…`).
    static func isChannelManagementPath(_ path: String) -> Bool { path.hasPrefix("/1/apps/") }

    /// The answer to a request on HTTP/1.1 when `requireHTTP2` is on (nil: it may go on), on every APNs listener:
    /// pushes, broadcasts and channel management (Apple requires HTTP/2 of each; Tests/reference/apns.md §1, §8.1).
    func http2Refusal(_ version: HTTPVersion) -> (status: Int, reason: String, actions: [ConnectionAction])? {
        guard configuration.requireHTTP2, version != .http2 else { return nil }
        return (505, Self.http2RequiredReason, [.goAway(errorCode: 0, debugData: [])])
    }

    /// The (non-Apple) reason for HTTP/1.1 requests when `requireHTTP2` is on.
    static let http2RequiredReason = "HTTP2Required"
    /// What the log says of such a request.
    static let http2RequiredDetail =
        "APNs speaks only HTTP/2: production answers no HTTP/1.1 request (the connection fails). Make the client "
        + "use HTTP/2 (ALPN h2), or set apns.allow_http1: true to answer it in tests"

    struct Rejection: Error {
        var reason: APNsReason
        var timestamp: Date?
    }

    /// The token rules and team topics as they were when the request arrived.
    struct AuthRules {
        var tokens: ProviderTokenRules
        var teamTopics: [String: Set<String>]
    }

    /// What `decide` found; on success (`rejection == nil`) the push itself is filled into its `accepted` argument.
    struct Decision {
        var rejection: Rejection? = nil
        var auth: APNsAuthKind = .none
        /// Token and push type of the request once it parsed (for the log; not the whole request, to spare copies).
        var parsedToken: DeviceToken?
        var parsedPushType: APNsPushType?
        var topic: String?
        var firstValidToken = false
        /// No `apns-push-type` header: the type was inferred from the topic and payload.
        var pushTypeInferred = false
        /// The kind of the registered token a push type was refused at (`PushTokenKind.outcome(of:at:)`).
        var refusedAtTokenKind: PushTokenKind?
        /// Why the request was refused (which rule, by how much) or a warning about what APNs tolerates.
        var detail: String?

        /// `auth` moved out (swapped with `.none`; a read copied its strings).
        mutating func takeAuth() -> APNsAuthKind {
            var taken = APNsAuthKind.none
            swap(&taken, &auth)
            return taken
        }
    }

    /// Fills `d` (a fresh `Decision`). `push.validated`, if set, is moved out (the rest of `push` is left as it was).
    func decide(
        _ push: inout APNsPushRequest, rules snapshot: AuthRules, now: Date, apnsID: String, into d: inout Decision,
        accepted: inout DeliveredPush
    ) {
        func reject(_ r: APNsReason, timestamp: Date? = nil) {
            d.rejection = Rejection(reason: r, timestamp: timestamp)
        }
        let endpoint = push.environment
        d.rejection = Rejection(reason: .internalServerError)
        var parsed: APNsParsedRequest
        let wasValidated: Bool
        if let validated = push.validated.take() {
            parsed = validated
            wasValidated = true
        } else {
            wasValidated = false
            let result = APNsRequestValidation.parse(push)
            switch consume result {  // the parsed request moved out of the result, not copied
            case .failure(let r): return reject(r)
            case .success(let p): parsed = p
            }
        }
        // What validation covered: the topic shape of the topic sent, and the payload.
        let shapeChecked = wasValidated && parsed.topic != nil
        d.parsedToken = parsed.token
        d.parsedPushType = parsed.pushType
        d.pushTypeInferred = !parsed.pushTypeWasSent
        d.topic = parsed.topic
        // A body past the listener's 1 MiB limit was not kept (only counted): PayloadTooLarge before anything
        // reads it, authenticated or not, like any payload over the push type's limit.
        if push.bodyOverLimit != nil { return reject(.payloadTooLarge) }

        let topic: String
        // `push.connection` read in place: a `let` of it copied the facts (certificate and state retained).
        if let der = push.connection.clientCertificateDER {
            guard let facts = certificateFacts(der, on: push.connection) else { return reject(.badCertificate) }
            d.auth = .certificate(uid: facts.uid)
            switch CertificateAuthRules.authorize(
                facts, request: parsed, endpoint: endpoint, now: now, topicShapeChecked: shapeChecked)
            {
            case .failure(let r): return reject(r)
            case .success(let t): topic = t
            }
            if let accepted = configuration.certificateTopics, !accepted.contains(APNsPushType.bundleID(ofTopic: topic))
            {
                return reject(.topicDisallowed)
            }
        } else {
            let authorization = parsed.authorization  // the closure then captures one string, not a copy of `parsed`
            var note: String?
            let auth = push.connection.state.withProviderTokenBinding { binding in
                snapshot.tokens.authenticate(
                    authorization: authorization, endpoint: endpoint, now: now, state: &binding, note: &note)
            }
            d.detail = consume note
            let provider: AuthorizedProvider
            switch consume auth {  // the provider moved out of the result (a copy retained its strings)
            case .failure(let r): return reject(r)
            case .success(let p): provider = p
            }
            d.auth = .token(teamID: provider.teamID, keyID: provider.keyID)
            d.firstValidToken = provider.isFirstValidToken
            guard let t = parsed.topic, !t.isEmpty else { return reject(.missingTopic) }
            if !shapeChecked, let r = APNsRequestValidation.checkTopicShape(parsed, topic: t) { return reject(r) }
            if let r = TokenTopicRules.authorize(
                topic: t, provider: provider, teamTopics: snapshot.teamTopics[provider.teamID])
            {
                return reject(r)
            }
            topic = t
        }
        d.topic = topic

        if !wasValidated,
            let r = APNsRequestValidation.payloadRejection(
                parsed.payload, pushType: parsed.pushType, writtenAsJSONObject: push.payloadWrittenAsJSONObject)
        {
            return reject(r)
        }

        // The closure captures the two fields it reads, not `parsed` (a capture copied the whole parsed request,
        // retaining and releasing its strings and payload per push).
        let token = parsed.token
        let pushType = parsed.pushType
        let verdict: DeviceTokenVerdict = state.withLock { s in
            let v = s.registry.check(token: token, topic: topic, environment: endpoint, pushType: pushType, now: now)
            if v == .accepted, !s.limiter.allow(token, now: now) {
                return .rejected(.tooManyRequests, timestamp: nil)
            }
            return v
        }
        if case .rejected(let r, let ts) = verdict {
            if r == .topicDisallowed { d.refusedAtTokenKind = state.withLock { $0.registry.entries[token]?.kind } }
            return reject(r, timestamp: ts)
        }

        d.rejection = nil
        if parsed.pushType == .mdm {
            // Tests/reference/apns.md §1.3: an mdm push's topic is the UID topic of the MDM push certificate. What
            // APNs answers for another topic is undocumented, so the push passes; the log says so.
            let warning =
                "apns-push-type mdm: real APNs expects the MDM push certificate's UID topic "
                + "(com.apple.mgmt.External.<uid>), not an app's bundle ID; pushcheck does not model MDM topics or "
                + "the device's MDM check-in (the device drops it: not-modelled)"
            d.detail = d.detail.map { $0 + "; " + warning } ?? warning
        }
        // Field by field into the caller's push (which has `receivedAt`); see `DeliveredPush.init(unfilledAt:)`.
        accepted.environment = endpoint
        swap(&accepted.token, &parsed.token)  // moved (swapped with the placeholders), not retained
        accepted.topic = topic
        accepted.pushType = parsed.pushType
        accepted.priority = parsed.priority
        accepted.apnsID = apnsID
        if endpoint == .sandbox { accepted.apnsUniqueID = APNsRequestValidation.newLowercaseUUID() }
        swap(&accepted.collapseID, &parsed.collapseID)
        if let e = parsed.expiration { accepted.expiration = Date(timeIntervalSince1970: TimeInterval(e)) }
        swap(&accepted.payload, &parsed.payload)
    }
}

extension APNsGateway {
    /// The facts of the connection's client certificate `der` (inspected once per connection), untrusted when the
    /// listener did not verify it and the configuration requires that; `nil`: not an APNs certificate.
    func certificateFacts(_ der: [UInt8], on connection: APNsConnectionFacts) -> APNsClientCertificate? {
        let facts = connection.state.withCertificateFacts { cache -> APNsClientCertificate? in
            if !cache.inspected {
                cache.facts = configuration.certificateInspector?(der)
                cache.inspected = true
            }
            return cache.facts
        }
        guard var facts else { return nil }
        if configuration.requireTransportTrustedCertificates && !connection.clientCertificateTrusted {
            facts.isTrusted = false
        }
        return facts
    }

    /// A request a listener received on `connection`, evaluated at `endpoint` (what `APNsHTTPHandler` runs).
    package func evaluate(_ request: HTTPRequest, connection: ConnectionContext, endpoint: APNsEnvironment)
        -> APNsOutcome
    {
        evaluate(APNsPushRequest(request, connection: connection, environment: endpoint))
    }
}
