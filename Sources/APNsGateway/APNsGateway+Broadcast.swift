import Foundation
import PushModel

extension APNsGateway {
    /// Evaluates a broadcast send, `POST /4/broadcasts/apps/<bundle id>` with `apns-channel-id`, on the normal APNs
    /// listeners (`evaluate(_:)` routes it here). Order of checks (Tests/reference/apns.md §8.2–§8.3):
    /// HTTP/2 (if required) → faults (route `broadcast`) → method (405) → path (404 BadPath) → body over the
    /// listener limit (413) → DuplicateHeaders → header syntax (`BroadcastRules.checkSendHeaders`) →
    /// authentication and the bundle ID (`authenticateBroadcast`) → FeatureNotEnabled → the channel
    /// (MissingChannelId, BadChannelId, ChannelNotRegistered: unknown here, another environment's or another
    /// app's) → `apns-expiration` other than 0 (or none) on a No Messages Stored channel → BadExpirationDate →
    /// payload (PayloadEmpty, 413 PayloadTooLarge, BadRequestPayload) → the channel's send limit (TooManyRequests)
    /// → accepted: 200 with `apns-id` and `apns-request-id` (Apple does not document the success status; node-apn
    /// takes 200/201/204, Choice).
    ///
    /// Accepted: the push goes to the consumer's `deliverBroadcast` (every device subscribed to the channel), is
    /// kept as the channel's latest message when it stores one (`storedBroadcast`), and one history event records it.
    func evaluateBroadcast(_ push: APNsPushRequest) -> APNsOutcome {
        let now = clock.now()
        let endpoint = push.environment
        let h = push.headers
        let sentID = h.apnsID.flatMap { APNsRequestValidation.isCanonicalLowercaseUUID($0) ? $0 : nil }
        let sentRequestID = h.requestID.flatMap { APNsRequestValidation.isCanonicalLowercaseUUID($0) ? $0 : nil }
        var outcome = APNsOutcome(
            status: 200, reason: nil, apnsID: sentID ?? APNsRequestValidation.newLowercaseUUID(), apnsUniqueID: nil,
            timestamp: nil, delay: 0, actions: [], push: nil, auth: .none,
            requestID: sentRequestID ?? APNsRequestValidation.newLowercaseUUID())
        let (effect, rules) = state.withLock { s in
            (
                s.faults.apply(endpoint: endpoint, token: nil, route: .broadcast),
                AuthRules(tokens: s.tokenRules, teamTopics: s.teamTopics)
            )
        }
        outcome.delay = effect.delay
        var decision = BroadcastDecision()
        if let refusal = http2Refusal(push.version) {
            (outcome.status, outcome.reason, outcome.actions) = (refusal.status, refusal.reason, refusal.actions)
            decision.detail = Self.http2RequiredDetail
        } else if let answer = effect.preemptingAnswer {
            (outcome.status, outcome.reason, outcome.actions) = answer
        } else {
            decision = decideBroadcast(push, rules: rules, now: now, apnsID: outcome.apnsID)
            outcome.auth = decision.identity.auth
            if let r = decision.rejection {
                outcome.status = r.status
                outcome.reason = r.reason
            }
            if decision.identity.firstValidToken {
                outcome.actions.append(.setMaxConcurrentStreams(state.withLock { $0.maxConcurrentStreams }))
            }
        }
        if let goAway = effect.goAwayAction { outcome.actions.append(goAway) }
        var detail = decision.detail
        if let accepted = decision.accepted, let channel = decision.channel {
            // Kept first, so a device subscribing while the fan-out runs already finds this message.
            let kept = state.withLock { s in
                s.channels.keepLatest(accepted, in: channel, now: now)
                s.store.record(accepted, .delivered, now)
                return s.channels.storedMessage(channel.id, in: channel.environment, now: now) != nil
            }
            let reached = consumer.withLock({ $0 })?.deliverBroadcast(accepted, channelID: channel.id) ?? 0
            let line =
                "reached \(reached) subscribed device\(reached == 1 ? "" : "s")"
                + (kept ? "; kept as the channel's most recent message" : "")
            detail = detail.map { $0 + "; " + line } ?? line
            outcome.apnsUniqueID = accepted.apnsUniqueID
            outcome.push = accepted
        }
        let packed = PackedLogEntry(
            sequence: 0, endpoint: endpoint, connectionID: push.connection.id, method: push.method, path: push.path,
            headers: push.loggedHeaders, payload: push.payload, token: nil, topic: decision.bundleID,
            pushType: decision.bundleID == nil ? nil : .liveactivity, status: outcome.status,
            reason: effect.loggedReason(outcome.reason), apnsID: outcome.apnsID,
            apnsUniqueID: outcome.apnsUniqueID, auth: outcome.auth, receivedAt: now,
            answeredAt: now.addingTimeInterval(outcome.delay),
            faultApplied: effect.applied,
            detail: detail, receivedBodySize: push.bodyOverLimit, maxStoredPayload: configuration.logMaxStoredPayload,
            channelID: h.channelID, apnsRequestID: outcome.requestID)
        appendToLog(packed)
        return outcome
    }

    /// The delivery log (memory and file) gets `packed`; what the ring drops is freed outside the lock.
    func appendToLog(_ packed: PackedLogEntry) {
        let (sequence, dropped, more) = state.withLock { $0.log.appendEvicting(packed) }
        withExtendedLifetime((dropped, more)) {}
        writeToLogFile(packed, sequence: sequence)
    }

    /// What `decideBroadcast` found.
    struct BroadcastDecision {
        var rejection: BroadcastRejection?
        var identity = BroadcastIdentity()
        /// The bundle ID of the path, once it parsed (the log's topic).
        var bundleID: String?
        var channel: BroadcastChannel?
        var accepted: DeliveredPush?
        var detail: String?
    }

    func decideBroadcast(_ push: APNsPushRequest, rules: AuthRules, now: Date, apnsID: String) -> BroadcastDecision {
        var d = BroadcastDecision()
        func reject(_ r: APNsBroadcastReason) -> BroadcastDecision {
            d.rejection = BroadcastRejection(r)
            return d
        }
        let h = push.headers
        guard push.method == "POST" else { return reject(.methodNotAllowed) }
        guard let bundleID = BroadcastRules.broadcastBundleID(push.path) else { return reject(.badPath) }
        d.bundleID = bundleID
        if push.bodyOverLimit != nil { return reject(.payloadTooLarge) }
        if h.duplicate {
            // Not in the broadcast table: the device-token API's reason for the same mistake (Choice).
            d.rejection = BroadcastRejection(deviceTokenReason: .duplicateHeaders)
            return d
        }
        let sent: BroadcastRules.SendHeaders
        switch BroadcastRules.checkSendHeaders(h) {
        case .failure(let r): return reject(r)
        case .success(let s): sent = s
        }
        if let r = authenticateBroadcast(
            connection: push.connection, headers: h, bundleID: bundleID, now: now, endpoint: push.environment,
            rules: rules, identity: &d.identity)
        {
            d.detail = d.identity.note
            d.rejection = r
            return d
        }
        d.detail = d.identity.note
        guard configuration.broadcast.isEnabled(bundleID) else { return reject(.featureNotEnabled) }
        let channelID: String
        switch BroadcastRules.checkChannelHeader(h) {
        case .failure(let r): return reject(r)
        case .success(let id): channelID = id
        }
        guard
            let channel = state.withLock({ $0.channels.channel(channelID, bundleID: bundleID, in: push.environment) })
        else { return reject(.channelNotRegistered) }
        d.channel = channel
        if channel.storagePolicy == .noMessageStored, sent.expiration != 0 {
            d.detail = "the channel stores no messages: only apns-expiration: 0 is allowed"
            return reject(.badExpirationDate)
        }
        if push.payload.isEmpty { return reject(.payloadEmpty) }
        if push.payload.count > configuration.broadcast.maxPayloadBytes {
            d.detail = "\(push.payload.count) bytes; the limit is \(configuration.broadcast.maxPayloadBytes)"
            return reject(.payloadTooLarge)
        }
        guard JSONValue.isValidObject(push.payload) else { return reject(.badRequestPayload) }
        guard state.withLock({ $0.channels.allowSend(channel, now: now) }) else { return reject(.tooManyRequests) }
        if let warning = Self.broadcastStartWarning(push.payload, channel: channel) {
            d.detail = d.detail.map { $0 + "; " + warning } ?? warning
        }
        var accepted = DeliveredPush(
            environment: push.environment, token: DeliveredPush.broadcastToken,
            topic: bundleID + APNsPushType.liveactivity.topicSuffix, pushType: .liveactivity, priority: sent.priority,
            // Apple's success answer carries `apns-unique-id` in both environments (Tests/reference/apns.md §8.2).
            apnsID: apnsID, apnsUniqueID: APNsRequestValidation.newLowercaseUUID(), collapseID: h.collapseID,
            expiration: sent.expiration.map { Date(timeIntervalSince1970: TimeInterval($0)) }, payload: push.payload,
            receivedAt: now)
        accepted.channelID = channelID
        d.accepted = accepted
        return d
    }

    /// A broadcast with `aps.event: start`: "You can't use broadcast push notifications to start a Live Activity"
    /// (Tests/reference/apns.md §8), so every device drops it. Apple does not document APNs refusing one (no reason
    /// exists for it): it is accepted, and kept as a storing channel's most recent message like any other, which a
    /// late subscriber then gets instead of the last update (README "Broadcast channels").
    static func broadcastStartWarning(_ payload: [UInt8], channel: BroadcastChannel) -> String? {
        guard (try? JSONValue.parse(payload))?[path: "aps.event"]?.stringValue == "start" else { return nil }
        return "aps.event is start: iOS ignores it (a broadcast push cannot start a Live Activity; every subscribed "
            + "device drops it)"
            + (channel.storagePolicy == .mostRecentMessageStored
                ? "; it still replaces the channel's stored message, so a late subscriber gets this start, not the "
                    + "last update" : "")
    }

    /// The message a device subscribing now to `channelID` gets at once: the channel's most recent message (Most
    /// Recent Message Stored channels, "for a maximum duration of 8 hours", or until its earlier
    /// `apns-expiration`); `nil` when there is none, it expired, the channel stores none or does not exist.
    package func storedBroadcast(channelID: String, environment: APNsEnvironment) -> DeliveredPush? {
        let now = clock.now()
        return state.withLock { $0.channels.storedMessage(channelID, in: environment, now: now) }
    }
}
