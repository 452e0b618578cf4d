import Foundation
import PushModel

/// Why ActivityKit did not apply a Live Activity push: the `DropReason` a suite's `dropped:` reads and the
/// detail the event log shows (`content-state.eta: expected int, got string "soon"`).
package struct ActivityDrop: Error, Sendable, Equatable {
    package var reason: DropReason
    package var detail: String
    package init(_ reason: DropReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}

/// What an applied push did to an activity.
package enum ActivityChange: String, Sendable, Equatable {
    case started, updated, ended
}

/// The pure part of ActivityKit on the device: what a Live Activity push (`apns-push-type: liveactivity`) does to
/// an activity, from its `aps` dictionary (Tests/reference/live-activities.md §4):
/// `event` (`start` / `update` / `end`), `timestamp` (required; older than the last applied one → ignored),
/// `content-state` (decoded against the declared `ContentState`: a missing or mistyped field drops the push, as the
/// system's decoder fails), `stale-date`, `dismissal-date`, `relevance-score`, `alert` (the screen lights up).
/// Priority 10 spends the activity's budget (`LiveActivityRules.priority10Budget`); priority 5 does not.
package enum LiveActivityEngine {
    /// `aps.timestamp` in seconds since 1970, or the drop.
    static func timestamp(_ aps: JSONValue) -> Result<Double, ActivityDrop> {
        guard let t = aps["timestamp"]?.doubleValue else {
            return .failure(ActivityDrop(.activityTimestampMissing, "aps.timestamp missing or not a number"))
        }
        return .success(t)
    }

    static func date(_ aps: JSONValue, _ key: String) -> Date? {
        aps[key]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
    }

    /// An `update` or `end` push to `activity`: by its push token, or by the broadcast channel `channelID`.
    package static func apply(
        _ aps: JSONValue, priority: APNsPriority?, to activity: LiveActivity, declaration: LiveActivityDeclaration?,
        channelID: String? = nil, now: Date
    ) -> Result<(LiveActivity, ActivityChange), ActivityDrop> {
        let event = aps["event"]?.stringValue
        guard event == "update" || event == "end" else {
            let what = event.map { "'\($0)'" } ?? "missing"
            // "You can't use broadcast push notifications to start a Live Activity" (Tests/reference/apns.md §8).
            let address =
                channelID.map {
                    "broadcast channel \($0) takes update or end"
                        + (event == "start" ? " (a broadcast push cannot start a Live Activity)" : "")
                } ?? "an activity's token takes update or end"
            return .failure(ActivityDrop(.activityEventInvalid, "aps.event \(what): \(address)"))
        }
        guard activity.updatable(at: now) else {
            return .failure(
                ActivityDrop(.activityEnded, "activity \(activity.id) is \(activity.state(at: now).rawValue)"))
        }
        let stamp: Double
        switch timestamp(aps) {
        case .failure(let d): return .failure(d)
        case .success(let t): stamp = t
        }
        guard stamp >= activity.lastTimestamp else {
            return .failure(
                ActivityDrop(
                    .activityTimestampOutdated,
                    "timestamp \(Int(stamp)) is older than the last applied \(Int(activity.lastTimestamp))"))
        }
        let state = aps["content-state"]
        if event == "update" || state != nil {
            if let problem = declaration?.contentStateProblem(state) ?? (state == nil ? "content-state missing" : nil) {
                return .failure(ActivityDrop(.activityContentStateInvalid, problem))
            }
        }
        var a = activity
        if (priority ?? .immediate) == .immediate {
            let recent = a.highPriorityUpdates.filter { now.timeIntervalSince($0) < LiveActivityRules.budgetWindow }
            let budget = LiveActivityRules.priority10Budget(frequentUpdates: declaration?.frequentUpdates ?? false)
            guard recent.count < budget else {
                return .failure(
                    ActivityDrop(
                        .activityBudgetExhausted,
                        "\(recent.count) priority-10 updates in the last hour (budget \(budget)); send priority 5"))
            }
            a.highPriorityUpdates = recent + [now]
        }
        a.lastTimestamp = stamp
        if let state { a.contentState = state }
        // The push carries a whole new `ActivityContent`: its stale date (none when absent) and relevance score
        // (ActivityContent's default 0 when absent) replace the previous ones (live-activities.md §4).
        a.staleDate = date(aps, "stale-date")
        a.relevanceScore = aps["relevance-score"]?.doubleValue ?? 0
        a.alerted = aps["alert"] != nil
        if a.alerted { a.alertCount += 1 }
        a.updates += 1
        guard event == "end" else { return .success((a, .updated)) }
        a.endedAt = now
        let latest = now.addingTimeInterval(LiveActivityRules.defaultDismissalDelay)
        a.dismissalDate = date(aps, "dismissal-date").map { min(max($0, now), latest) } ?? latest
        return .success((a, .ended))
    }

    /// What the device would drop a Live Activity push for, from its `aps` alone, checked against every type the app
    /// declares (`pushcheck check-payload --push-type liveactivity`): the event, `start`'s attributes type and
    /// attributes, the `content-state`, the `timestamp`. An `update`/`end` does not name its type: it is dropped
    /// only when it decodes as none of them. Nil: some activity of the app would take it. What depends on the
    /// activity (ended, older timestamp, budget) is not known here.
    package static func payloadDrop(_ aps: JSONValue, declarations: [LiveActivityDeclaration]) -> ActivityDrop? {
        let event = aps["event"]?.stringValue
        switch event {
        case "start":
            guard let type = aps["attributes-type"]?.stringValue else {
                return ActivityDrop(.activityAttributesInvalid, "aps.attributes-type missing")
            }
            guard let declaration = declarations.first(where: { $0.attributesType == type }) else {
                let known = declarations.map(\.attributesType).joined(separator: ", ")
                return ActivityDrop(
                    .activityAttributesInvalid,
                    "attributes-type '\(type)' is not one of the app's live_activities (\(known.isEmpty ? "none" : known))"
                )
            }
            if case .failure(let d) = start(aps, declaration: declaration, id: "", bundleID: "", now: Date()) {
                return d
            }
            return nil
        case "update", "end":
            if case .failure(let d) = timestamp(aps) { return d }
            let state = aps["content-state"]
            guard event == "update" || state != nil else { return nil }
            guard state != nil else { return ActivityDrop(.activityContentStateInvalid, "content-state missing") }
            let problems = declarations.map { ($0.attributesType, $0.contentStateProblem(state)) }
            guard !problems.isEmpty, !problems.contains(where: { $0.1 == nil }) else { return nil }
            if problems.count == 1 { return ActivityDrop(.activityContentStateInvalid, problems[0].1!) }
            return ActivityDrop(
                .activityContentStateInvalid,
                problems.map { "\($0.0): \($0.1!)" }.joined(separator: "; "))
        default:
            let what = event.map { "'\($0)'" } ?? "missing"
            return ActivityDrop(.activityEventInvalid, "aps.event \(what): start, update or end")
        }
    }

    /// A push-to-start push (`event: start`) for the attributes type whose push-to-start token it was sent to.
    /// Returns the new activity (its id, token and channel are the caller's to fill in).
    package static func start(
        _ aps: JSONValue, declaration: LiveActivityDeclaration, id: String, bundleID: String, now: Date
    ) -> Result<LiveActivity, ActivityDrop> {
        guard aps["event"]?.stringValue == "start" else {
            let what = aps["event"]?.stringValue.map { "'\($0)'" } ?? "missing"
            return .failure(
                ActivityDrop(.activityEventInvalid, "aps.event \(what): a push-to-start token takes start"))
        }
        guard let type = aps["attributes-type"]?.stringValue else {
            return .failure(ActivityDrop(.activityAttributesInvalid, "aps.attributes-type missing"))
        }
        guard type == declaration.attributesType else {
            return .failure(
                ActivityDrop(
                    .activityAttributesInvalid,
                    "attributes-type '\(type)' is not this token's type \(declaration.attributesType)"))
        }
        if let problem = declaration.attributesProblem(aps["attributes"]) {
            return .failure(ActivityDrop(.activityAttributesInvalid, problem))
        }
        if let problem = declaration.contentStateProblem(aps["content-state"]) {
            return .failure(ActivityDrop(.activityContentStateInvalid, problem))
        }
        let stamp: Double
        switch timestamp(aps) {
        case .failure(let d): return .failure(d)
        case .success(let t): stamp = t
        }
        var a = LiveActivity(
            id: id, bundleID: bundleID, attributesType: type, attributes: aps["attributes"] ?? .object([:]),
            contentState: aps["content-state"] ?? .object([:]), origin: .pushToStart, startedAt: now,
            lastTimestamp: stamp, staleDate: date(aps, "stale-date"),
            relevanceScore: aps["relevance-score"]?.doubleValue ?? 0)
        a.alerted = aps["alert"] != nil
        if a.alerted { a.alertCount = 1 }
        return .success(a)
    }
}
