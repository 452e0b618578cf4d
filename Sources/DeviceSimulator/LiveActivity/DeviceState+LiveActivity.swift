import Foundation
import PushModel

/// ActivityKit's part of the device: the activities, newest last, and each app's push-to-start tokens.
package struct LiveActivityStore: Sendable, Equatable {
    package internal(set) var activities: [LiveActivity] = []
    /// bundle id → attributes type → push-to-start token.
    package internal(set) var pushToStartTokens: [String: [String: DeviceToken]] = [:]
    var started = 0

    /// The app's activities, in start order.
    package func activities(of bundleID: String) -> [LiveActivity] { activities.filter { $0.bundleID == bundleID } }

    /// The activity holding `token` as its push token.
    package func activity(withToken token: DeviceToken) -> LiveActivity? {
        activities.first { $0.pushToken == token }
    }
}

/// How a `start_activity` step (the app's `Activity.request(attributes:content:pushType:)`) asks.
package struct ActivityRequest: Sendable, Equatable {
    /// `pushType:` — nil (local updates only), `.token`, or `.channel(id)`.
    package enum PushType: Sendable, Equatable {
        case token
        case channel(String)
    }
    package var attributesType: String?
    package var attributes: JSONValue
    package var contentState: JSONValue
    package var pushType: PushType?
    /// `staleDate` as a delay from the start.
    var staleAfter: TimeInterval?
    package var relevanceScore: Double?

    package init(
        attributesType: String? = nil, attributes: JSONValue = .object([:]), contentState: JSONValue,
        pushType: PushType? = .token, staleAfter: TimeInterval? = nil, relevanceScore: Double? = nil
    ) {
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.pushType = pushType
        self.staleAfter = staleAfter
        self.relevanceScore = relevanceScore
    }
}

extension TokenGenerator {
    /// A 32-byte ActivityKit token (`kind` push-to-start or activity), distinct from the app's APNs token.
    func liveActivityToken(kind: String, udid: String, bundleID: String, key: String, generation: Int) -> DeviceToken {
        let text = "activity|\(kind)|\(udid)|\(bundleID)|\(key)|\(generation)"
        var rng = SplitMix64(seed: seed ^ StableHash.fnv1a64(text.utf8))
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: rng.next().bigEndian) { bytes.append(contentsOf: $0) } }
        return DeviceToken(bytes: bytes)!
    }
}

extension DeviceState {
    mutating func log(_ e: ActivityEvent, _ bundleID: String, _ now: Date) { log(.activity(e), bundleID, now) }

    /// Why the app cannot use ActivityKit pushes at all (nil: it can).
    func liveActivityRefusal(_ app: InstalledApp) -> String? {
        guard app.declaration.supportsLiveActivities else {
            return "NSSupportsLiveActivities is not YES in the app's Info.plist"
        }
        return nil
    }

    /// At install: a push-to-start token per declared attributes type (iOS 17.2+, NSSupportsLiveActivities, an
    /// aps-environment to address it in).
    mutating func issuePushToStartTokens(_ bundleID: String, now: Date) {
        guard let app = apps[bundleID], liveActivityRefusal(app) == nil,
            app.declaration.signing.apsEnvironment != nil,
            versionAtLeast(iosVersion, LiveActivityRules.pushToStartMinimumIOS)
        else { return }
        for d in app.declaration.liveActivities {
            let token = tokens.liveActivityToken(
                kind: "push-to-start", udid: udid, bundleID: bundleID, key: d.attributesType,
                generation: app.generation)
            liveActivities.pushToStartTokens[bundleID, default: [:]][d.attributesType] = token
            log(.pushToStartToken(attributesType: d.attributesType, token: token), bundleID, now)
        }
    }

    /// The app was deleted: its activities end and leave the Lock Screen, its tokens stop working.
    mutating func removeLiveActivities(of bundleID: String, now: Date) {
        for a in liveActivities.activities where a.bundleID == bundleID {
            log(.removed(id: a.id, token: a.pushToken), bundleID, now)
        }
        for (type, token) in (liveActivities.pushToStartTokens[bundleID] ?? [:]).sorted(by: { $0.key < $1.key }) {
            log(.pushToStartTokenRemoved(attributesType: type, token: token), bundleID, now)
        }
        liveActivities.activities.removeAll { $0.bundleID == bundleID }
        liveActivities.pushToStartTokens[bundleID] = nil
    }

    /// `Activity.request` in the app: only in the foreground, for a declared type, with an app that supports Live
    /// Activities; content and attributes must encode as declared; a channel must be one APNs has (`channels`).
    /// Fails with a `requestFailed` event.
    mutating func startActivity(
        _ bundleID: String, _ request: ActivityRequest, channels: BroadcastChannelLookup = .unwired, now: Date
    ) {
        guard let app = apps[bundleID] else { return }
        let type = request.attributesType ?? app.declaration.liveActivities.first?.attributesType ?? "(none declared)"
        func fail(_ reason: String) { log(.requestFailed(attributesType: type, reason: reason), bundleID, now) }
        if let refusal = liveActivityRefusal(app) { return fail(refusal) }
        guard versionAtLeast(iosVersion, LiveActivityRules.minimumIOS) else {
            return fail("Live Activities need iOS \(LiveActivityRules.minimumIOS) (device: \(iosVersion))")
        }
        guard let declaration = app.declaration.liveActivity(type) else {
            return fail("\(type) is not one of the app's live_activities")
        }
        guard app.state == .foreground else {
            return fail("the app is \(app.state.rawValue): Activity.request needs it in the foreground")
        }
        if let p = declaration.attributesProblem(request.attributes) { return fail(p) }
        if let p = declaration.contentStateProblem(request.contentState) { return fail(p) }
        if case .channel = request.pushType,
            !versionAtLeast(iosVersion, LiveActivityRules.channelMinimumIOS)
        {
            return fail("broadcast channels need iOS \(LiveActivityRules.channelMinimumIOS) (device: \(iosVersion))")
        }
        if request.pushType != nil, app.declaration.signing.apsEnvironment == nil {
            return fail("pushType needs the aps-environment entitlement")
        }
        if case .channel(let c) = request.pushType, let reason = unknownChannelReason(c, bundleID: bundleID, channels) {
            return fail(reason)
        }
        var a = LiveActivity(
            id: nextActivityID(), bundleID: bundleID, attributesType: type, attributes: request.attributes,
            contentState: request.contentState, origin: .app, startedAt: now,
            lastTimestamp: now.timeIntervalSince1970.rounded(.down),
            staleDate: request.staleAfter.map { now.addingTimeInterval($0) },
            relevanceScore: request.relevanceScore ?? 0)
        switch request.pushType {
        case .token?: a.pushToken = activityToken(for: a.id, app)
        case .channel(let c)?: a.channelID = c
        case nil: break
        }
        begin(a, now: now)
    }

    mutating func nextActivityID() -> String {
        liveActivities.started += 1
        return "a\(liveActivities.started)"
    }

    func activityToken(for id: String, _ app: InstalledApp) -> DeviceToken {
        tokens.liveActivityToken(
            kind: "activity", udid: udid, bundleID: app.declaration.bundleID, key: id, generation: app.generation)
    }

    /// Records a started activity and what it reported (push token, channel).
    private mutating func begin(_ a: LiveActivity, now: Date) {
        liveActivities.activities.append(a)
        log(
            .started(id: a.id, attributesType: a.attributesType, origin: a.origin, contentState: a.contentState),
            a.bundleID, now)
        if let t = a.pushToken { log(.pushToken(id: a.id, token: t), a.bundleID, now) }
        if let c = a.channelID { log(.channelSubscribed(id: a.id, channelID: c), a.bundleID, now) }
    }

    private mutating func drop(_ push: IncomingPush, _ d: ActivityDrop, activity: String?, now: Date) {
        log(.pushDropped(apnsID: push.apnsID, reason: d.reason), push.bundleID, now)
        log(.dropped(id: activity, apnsID: push.apnsID, detail: d.detail), push.bundleID, now)
    }

    /// A push the gateway delivered to one of the app's ActivityKit addresses: an activity's push token
    /// (`update`/`end`), a push-to-start token (`start`) or, with `channelID`, a broadcast channel (every activity
    /// of the app subscribed to it).
    @discardableResult
    package mutating func deliverLiveActivity(
        _ push: IncomingPush, channelID: String? = nil, channels: BroadcastChannelLookup = .unwired, now: Date
    ) -> DeviceDeliveryResult {
        guard online else { return .deviceOffline }
        let bundleID = push.bundleID
        if let channelID, !push.apnsID.isEmpty,
            !liveActivities.activities.contains(where: {
                $0.bundleID == bundleID && $0.channelID == channelID && $0.lastPushID != push.apnsID
            })
        {
            return .accepted  // every subscribed activity already applied this message
        }
        // Another push type at an ActivityKit address: the one token-kind rule (`PushTokenKind.outcome(of:at:)`),
        // before anything is received, as for every other kind.
        if channelID == nil, let token = push.token, apps[bundleID] != nil {
            let kind: PushTokenKind =
                liveActivities.activities.contains { $0.pushToken == token } ? .activity : .pushToStart
            if let dropped = tokenKindDrop(push, kind: kind, now: now) { return dropped }
        }
        log(.pushReceived(apnsID: push.apnsID, kind: .liveactivity), bundleID, now)
        guard let app = apps[bundleID] else {
            log(.pushDropped(apnsID: push.apnsID, reason: .appNotInstalled), bundleID, now)
            return .rejected(.appNotInstalled)
        }
        let aps = push.aps.raw ?? .object([:])
        if let channelID {
            let targets = liveActivities.activities.indices.filter {
                let a = liveActivities.activities[$0]
                return a.bundleID == bundleID && a.channelID == channelID && a.lastPushID != push.apnsID
            }
            for i in targets { update(at: i, push, aps, app, channelID: channelID, now: now) }
            return .accepted
        }
        if let token = push.token, let i = liveActivities.activities.firstIndex(where: { $0.pushToken == token }) {
            update(at: i, push, aps, app, now: now)
            return .accepted
        }
        if let token = push.token,
            let type = liveActivities.pushToStartTokens[bundleID]?.first(where: { $0.value == token })?.key,
            let declaration = app.declaration.liveActivity(type)
        {
            // An iOS 18 device asks APNs for the channel; an older one ignores the key (below).
            let channelProblem = aps["input-push-channel"]?.stringValue.flatMap {
                versionAtLeast(iosVersion, LiveActivityRules.channelMinimumIOS)
                    ? unknownChannelReason($0, bundleID: bundleID, channels) : nil
            }
            switch LiveActivityEngine.start(aps, declaration: declaration, id: "", bundleID: bundleID, now: now) {
            case .failure(let d): drop(push, d, activity: nil, now: now)
            case .success(var a):
                if let problem = channelProblem {
                    drop(
                        push, ActivityDrop(.activityChannelNotFound, "input-push-channel: " + problem), activity: nil,
                        now: now)
                    break
                }
                a.id = nextActivityID()
                if aps["input-push-token"]?.intValue == 1 { a.pushToken = activityToken(for: a.id, app) }
                var ignoredChannel: String?
                if let c = aps["input-push-channel"]?.stringValue {
                    // Channels are iOS 18 (live-activities.md §2.3, §5.3): an older ActivityKit has no
                    // `input-push-channel`, so the activity starts and listens to no channel.
                    if versionAtLeast(iosVersion, LiveActivityRules.channelMinimumIOS) {
                        a.channelID = c
                    } else {
                        ignoredChannel = c
                    }
                }
                begin(a, now: now)
                if let c = ignoredChannel {
                    log(
                        .channelIgnored(
                            id: a.id, channelID: c,
                            reason:
                                "broadcast channels need iOS \(LiveActivityRules.channelMinimumIOS) (device: \(iosVersion))"
                        ), bundleID, now)
                }
            }
            return .accepted
        }
        drop(
            push, ActivityDrop(.activityNotFound, "no activity or push-to-start type holds this token"), activity: nil,
            now: now)
        return .accepted
    }

    /// `channelID`: the broadcast channel it came by (nil: the activity's push token).
    private mutating func update(
        at i: Int, _ push: IncomingPush, _ aps: JSONValue, _ app: InstalledApp, channelID: String? = nil, now: Date
    ) {
        let a = liveActivities.activities[i]
        let declaration = app.declaration.liveActivity(a.attributesType)
        switch LiveActivityEngine.apply(
            aps, priority: push.priority, to: a, declaration: declaration, channelID: channelID, now: now)
        {
        case .failure(let d): drop(push, d, activity: a.id, now: now)
        case .success((var changed, let change)):
            changed.lastPushID = push.apnsID
            liveActivities.activities[i] = changed
            if change == .ended {
                log(
                    .ended(id: a.id, contentState: changed.contentState, dismissalDate: changed.dismissalDate),
                    a.bundleID, now)
            } else {
                log(
                    .updated(
                        id: a.id, contentState: changed.contentState, alerted: changed.alerted,
                        priority: (push.priority ?? .immediate).rawValue), a.bundleID, now)
            }
        }
    }

    /// The app's activities subscribed to `channelID`, still updatable at `now`.
    /// None below iOS 18 (live-activities.md §5.3): such a device has no broadcast channels.
    package func subscribers(of channelID: String, now: Date) -> [LiveActivity] {
        guard versionAtLeast(iosVersion, LiveActivityRules.channelMinimumIOS) else { return [] }
        return liveActivities.activities.filter { $0.channelID == channelID && $0.updatable(at: now) }
    }
}
