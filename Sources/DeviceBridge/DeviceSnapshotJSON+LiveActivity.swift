import DeviceSimulator
import Foundation
import PushModel

extension HostedDevice {
    /// `live_activities` of `GET /devices/{name}`: each activity with its state at `now`, and each app's
    /// push-to-start tokens.
    static func liveActivitiesJSON(_ s: DeviceState, now: Date) -> JSONValue {
        let store = s.liveActivities
        var starts: [String: JSONValue] = [:]
        for (bundleID, types) in store.pushToStartTokens {
            starts[bundleID] = .object(types.mapValues { .string($0.hex) })
        }
        let activities = store.activities.map { a -> JSONValue in
            .object([
                "id": .string(a.id), "bundle_id": .string(a.bundleID), "attributes_type": .string(a.attributesType),
                "state": .string(a.state(at: now).rawValue), "origin": .string(a.origin.rawValue),
                "attributes": a.attributes, "content_state": a.contentState,
                "push_token": optional(a.pushToken?.hex), "channel_id": optional(a.channelID),
                "relevance_score": a.relevanceScore.map(JSONValue.number) ?? .null,
                "stale_date": a.staleDate.map(time) ?? .null, "alerted": .bool(a.alerted),
                "updates": .number(Double(a.updates)), "lock_screen": .bool(a.onLockScreen(at: now)),
            ])
        }
        return .object(["activities": .array(activities), "push_to_start_tokens": .object(starts)])
    }

    /// The ready line's ActivityKit addresses of this device: `push_to_start_tokens` (bundle id → attributes
    /// type → hex) and `activity_tokens` (activity id → hex), present only when the device has some.
    var liveActivityAddresses: [String: JSONValue] {
        guard let device = iphone,
            case .object(let o) = Self.liveActivitiesJSON(device.snapshot, now: device.clock.now())
        else { return [:] }
        var out: [String: JSONValue] = [:]
        if case .object(let starts)? = o["push_to_start_tokens"], !starts.isEmpty {
            out["push_to_start_tokens"] = .object(starts)
        }
        var tokens: [String: JSONValue] = [:]
        for a in device.snapshot.liveActivities.activities { if let t = a.pushToken { tokens[a.id] = .string(t.hex) } }
        if !tokens.isEmpty { out["activity_tokens"] = .object(tokens) }
        return out
    }
}
