import DeviceSimulator
import YAMLSource

/// `expect: { activity: { <field>: … } }` — the app's latest Live Activity (the last started), or, for `count`,
/// all of them still on the Lock Screen.
///
/// ```yaml
/// expect:
///   activity: { state: active, content_state: { eta: 3, driver: Ann }, alerted: true, count: 1 }
/// ```
/// `content_state:` maps key paths in the activity's content state to checks.
package enum LiveActivityField: String, CaseIterable, Sendable {
    case state
    case contentState = "content_state"
    case relevance, alerted
    case alerts, updates, count
    case lockScreen = "lock_screen"
    case token, id, type, origin, channel
    case error

    /// `activity:`'s checks: one per field, one per key path under `content_state:`.
    static func decodeChecks(_ node: YAMLNode) throws(SourceError) -> [Check] {
        let m = try YAMLMapping(node)
        try m.checkKeys(allowed: names)
        var out: [Check] = []
        for f in m.pairs {
            guard let field = LiveActivityField(rawValue: f.keyString) else { continue }
            if field == .contentState, f.value.pairs != nil {
                for p in try YAMLMapping(f.value).pairs {
                    out.append(
                        Check(
                            label: "activity.content_state.\(p.keyString)",
                            subject: .activity(.contentState, path: p.keyString),
                            matcher: try ExpectationDecoder.matcher(p.value, .any), range: p.value.range))
                }
                continue
            }
            out.append(
                Check(
                    label: "activity.\(f.keyString)", subject: .activity(field, path: ""),
                    matcher: try ExpectationDecoder.matcher(f.value, field.checked), range: f.value.range))
        }
        return out
    }
}

extension LiveActivityField: ExpectFieldTable {}

extension LiveActivityField: CheckFieldTable {
    var checked: CheckedValue { self == .contentState ? .any : .one }
}

extension LiveActivityField: SuiteTable {
    static var place: String { "expect: { activity: … }" }
    var summary: String {
        switch self {
        case .state: "The latest activity's ActivityState now: active, stale, ended or dismissed."
        case .contentState: "Key paths in its content state (content_state: { eta: 3 })."
        case .relevance: "Its relevance-score."
        case .alerted: "Whether its last applied update carried an alert (the screen lit up)."
        case .alerts: "How many applied pushes carried an alert."
        case .updates: "How many pushes were applied to it (updates and the end)."
        case .count: "How many of the app's activities the Lock Screen shows now."
        case .lockScreen: "Whether the Lock Screen shows it now."
        case .token: "The push token its pushTokenUpdates reported (hex)."
        case .id: "Its id (a1, a2, … in start order on the device)."
        case .type: "Its attributes type."
        case .origin: "app (Activity.request) or push-to-start."
        case .channel: "The broadcast channel it listens to."
        case .error: "Why the app's last Activity.request (or push-to-start) failed, if it did."
        }
    }
}

extension DeviceVariable {
    /// `push_to_start_token`, `activity_token`, `activity_id` on the app.
    func liveActivityValue(in snapshot: DeviceState, bundleID: String?, argument: String?) -> String? {
        guard let bundleID else { return nil }
        let store = snapshot.liveActivities
        switch self {
        case .pushToStartToken:
            let tokens = store.pushToStartTokens[bundleID] ?? [:]
            let type = argument ?? snapshot.apps[bundleID]?.declaration.liveActivities.first?.attributesType
            return type.flatMap { tokens[$0] }?.hex
        case .activityToken:
            let all = store.activities(of: bundleID)
            let a = argument.map { id in all.first { $0.id == id } } ?? all.last
            return a?.pushToken?.hex
        case .activityID: return store.activities(of: bundleID).last?.id
        default: return nil
        }
    }
}
