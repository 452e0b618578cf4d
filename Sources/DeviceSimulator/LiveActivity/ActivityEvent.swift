import Foundation
import PushModel

/// What ActivityKit did on the device, one `DeviceEventKind.activity` each.
package enum ActivityEvent: Sendable, Equatable, CustomStringConvertible {
    /// `Activity<T>.pushToStartTokenUpdates` reported the app's push-to-start token for `attributesType`.
    case pushToStartToken(attributesType: String, token: DeviceToken)
    /// `Activity.request` threw (or a push-to-start could not start one).
    case requestFailed(attributesType: String, reason: String)
    case started(id: String, attributesType: String, origin: ActivityOrigin, contentState: JSONValue)
    /// `activity.pushTokenUpdates` reported the activity's push token.
    case pushToken(id: String, token: DeviceToken)
    /// The activity listens to a broadcast channel.
    case channelSubscribed(id: String, channelID: String)
    /// A push-to-start's `input-push-channel` the device did not act on (broadcast channels need iOS 18): the
    /// activity started without a channel.
    case channelIgnored(id: String, channelID: String, reason: String)
    case updated(id: String, contentState: JSONValue, alerted: Bool, priority: Int)
    case ended(id: String, contentState: JSONValue, dismissalDate: Date?)
    /// A push ActivityKit did not apply (the `pushDropped` event beside it has the reason).
    case dropped(id: String?, apnsID: String, detail: String)
    /// The app was deleted: its activities and tokens are gone.
    case removed(id: String, token: DeviceToken?)
    /// The app was deleted: its push-to-start token for `attributesType` no longer works.
    case pushToStartTokenRemoved(attributesType: String, token: DeviceToken)

    package var description: String {
        switch self {
        case .pushToStartToken(let t, let token): return "push-to-start token for \(t): \(token.hex)"
        case .requestFailed(let t, let r): return "request for \(t) failed: \(r)"
        case .started(let id, let t, let o, let c): return "\(id) \(t) started (\(o.rawValue)) \(c.serialized())"
        case .pushToken(let id, let token): return "\(id) push token \(token.hex)"
        case .channelSubscribed(let id, let c): return "\(id) subscribed to channel \(c)"
        case .channelIgnored(let id, let c, let r): return "\(id) not subscribed to channel \(c): \(r)"
        case .updated(let id, let c, let alerted, let p):
            return "\(id) updated \(c.serialized()) priority \(p)" + (alerted ? " with an alert" : "")
        case .ended(let id, let c, let d):
            return "\(id) ended \(c.serialized())" + (d.map { " (dismissal \($0.formatted(.iso8601)))" } ?? "")
        case .dropped(let id, let apnsID, let detail):
            return "push \(apnsID) to \(id ?? "no activity") ignored: \(detail)"
        case .removed(let id, _): return "\(id) removed (app deleted)"
        case .pushToStartTokenRemoved(let t, _): return "push-to-start token for \(t) invalidated (app deleted)"
        }
    }

    var jsonFields: [String: JSONValue] {
        switch self {
        case .pushToStartToken(let t, let token):
            return ["type": "activity-push-to-start-token", "attributes_type": .string(t), "token": .string(token.hex)]
        case .requestFailed(let t, let r):
            return ["type": "activity-request-failed", "attributes_type": .string(t), "reason": .string(r)]
        case .started(let id, let t, let o, let c):
            return [
                "type": "activity-started", "activity_id": .string(id), "attributes_type": .string(t),
                "origin": .string(o.rawValue), "content_state": c,
            ]
        case .pushToken(let id, let token):
            return ["type": "activity-push-token", "activity_id": .string(id), "token": .string(token.hex)]
        case .channelSubscribed(let id, let c):
            return ["type": "activity-channel", "activity_id": .string(id), "channel_id": .string(c)]
        case .channelIgnored(let id, let c, let r):
            return [
                "type": "activity-channel-ignored", "activity_id": .string(id), "channel_id": .string(c),
                "detail": .string(r),
            ]
        case .updated(let id, let c, let alerted, let p):
            return [
                "type": "activity-updated", "activity_id": .string(id), "content_state": c, "alerted": .bool(alerted),
                "priority": .number(Double(p)),
            ]
        case .ended(let id, let c, let d):
            return [
                "type": "activity-ended", "activity_id": .string(id), "content_state": c,
                "dismissal_date": d.map { .string($0.formatted(.iso8601)) } ?? .null,
            ]
        case .dropped(let id, let apnsID, let detail):
            return [
                "type": "activity-push-ignored", "activity_id": id.map(JSONValue.string) ?? .null,
                "apns_id": .string(apnsID), "detail": .string(detail),
            ]
        case .pushToStartTokenRemoved(let t, let token):
            return [
                "type": "activity-push-to-start-token-removed", "attributes_type": .string(t),
                "token": .string(token.hex),
            ]
        case .removed(let id, let t):
            return [
                "type": "activity-removed", "activity_id": .string(id), "token": t.map { .string($0.hex) } ?? .null,
            ]
        }
    }
}
