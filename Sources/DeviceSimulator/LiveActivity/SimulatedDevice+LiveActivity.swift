import Foundation
import PushModel

/// Which ActivityKit address a token is.
package enum ActivityTokenKind: String, Sendable, Hashable {
    /// `Activity<T>.pushToStartTokenUpdates` (one per attributes type).
    case pushToStart = "push-to-start"
    /// `activity.pushTokenUpdates` (one per activity).
    case activity
}

/// What a registration sink hears from ActivityKit: a token to route to this device's app, a channel it now
/// listens to, or a token that stopped working.
package enum LiveActivityAddressChange: Sendable, Equatable {
    /// `slot` is the attributes type (push-to-start) or the activity id.
    case tokenIssued(DeviceToken, kind: ActivityTokenKind, slot: String, bundleID: String, environment: APNsEnvironment)
    case channelSubscribed(String, bundleID: String, environment: APNsEnvironment)
    case tokenRemoved(DeviceToken, kind: ActivityTokenKind)
}

extension DeviceRegistrationSink {
    /// Sinks that do not route ActivityKit addresses ignore them.
    package func liveActivityAddressChanged(_ change: LiveActivityAddressChange) {}
}

extension SimulatedDevice {
    /// The address change an ActivityKit event means, for the sinks (nil: none).
    func liveActivityAddressChange(_ e: ActivityEvent, bundleID: String?) -> LiveActivityAddressChange? {
        guard let bundleID else { return nil }
        let env = snapshot.apps[bundleID]?.declaration.signing.apsEnvironment?.apnsEnvironment ?? .sandbox
        switch e {
        case .pushToStartToken(let type, let token):
            return .tokenIssued(token, kind: .pushToStart, slot: type, bundleID: bundleID, environment: env)
        case .pushToken(let id, let token):
            return .tokenIssued(token, kind: .activity, slot: id, bundleID: bundleID, environment: env)
        case .channelSubscribed(_, let channel):
            return .channelSubscribed(channel, bundleID: bundleID, environment: env)
        case .removed(_, let token?): return .tokenRemoved(token, kind: .activity)
        case .pushToStartTokenRemoved(_, let token): return .tokenRemoved(token, kind: .pushToStart)
        default: return nil
        }
    }

    /// Entry point for the gateway's ActivityKit routes: a push to an activity's or a push-to-start token, or (with
    /// `channelID`) a broadcast on a channel.
    @discardableResult
    package func deliverLiveActivity(_ push: IncomingPush, channelID: String? = nil) -> (
        disposition: DeviceDeliveryResult, events: [DeviceEvent]
    ) {
        let channels = broadcastChannels.withLock { $0 }
        let r = perform { $0.deliverLiveActivity(push, channelID: channelID, channels: channels, now: $1) }
        return (r.result, r.events)
    }

    /// The app calls `Activity.request` (a `start_activity` step).
    @discardableResult
    package func startActivity(_ bundleID: String, _ request: ActivityRequest) -> [DeviceEvent] {
        let channels = broadcastChannels.withLock { $0 }
        return perform { $0.startActivity(bundleID, request, channels: channels, now: $1) }.events
    }

    /// The apps (bundle ids) with an updatable activity subscribed to `channelID` in `environment`.
    package func channelSubscribers(_ channelID: String, environment: APNsEnvironment) -> [String] {
        let now = clock.now()
        let s = snapshot
        let ids = Set(s.subscribers(of: channelID, now: now).map(\.bundleID))
        return ids.sorted().filter {
            (s.apps[$0]?.declaration.signing.apsEnvironment?.apnsEnvironment ?? .sandbox) == environment
        }
    }
}
