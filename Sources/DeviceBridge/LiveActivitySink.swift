import APNsGateway
import DeviceSimulator
import Foundation
import PushModel

/// Makes the world follow one device's ActivityKit addresses: a push-to-start or activity push token becomes a
/// registered token at the gateway (topic = bundle id, so `<bundle id>.push-type.liveactivity` passes the topic
/// check) and an index entry of kind `.pushToStart` / `.activity`; a channel subscription fetches the channel's
/// stored "most recent message" at once (`APNsGateway.storedBroadcast`), as a late subscriber gets it.
struct LiveActivitySink: DeviceRegistrationSink {
    let apns: APNsGateway
    let index: TokenIndex
    /// The device's declared name.
    let name: String
    /// Weak: the device holds the sink.
    weak var device: SimulatedDevice?

    func tokenRegistered(_ token: DeviceToken, bundleID: String, environment: APNsEnvironment) {}
    func tokenInvalidated(_ token: DeviceToken, at date: Date) {}
    /// Back online: the pushes the gateway kept for the device's ActivityKit tokens are handed over, and each channel
    /// it listens to hands over its stored message (missed while offline; applied once).
    func deviceOnlineChanged(tokens: [DeviceToken], online: Bool) {
        guard online, let device else { return }
        let s = device.snapshot
        for token in Self.tokens(s) { apns.recipientCameOnline(token) }
        for a in s.liveActivities.activities {
            guard let channel = a.channelID else { continue }
            deliverStored(channel, bundleID: a.bundleID, environment: Self.environment(a.bundleID, s))
        }
    }

    /// Every ActivityKit token the device holds.
    static func tokens(_ s: DeviceState) -> [DeviceToken] {
        s.liveActivities.pushToStartTokens.values.flatMap(\.values)
            + s.liveActivities.activities.compactMap(\.pushToken)
    }

    static func environment(_ bundleID: String, _ s: DeviceState) -> APNsEnvironment {
        s.apps[bundleID]?.declaration.signing.apsEnvironment?.apnsEnvironment ?? .sandbox
    }

    /// ActivityKit's channel check: a channel of the app in the gateway's channel store.
    static func channelLookup(_ apns: APNsGateway) -> BroadcastChannelLookup {
        BroadcastChannelLookup { [weak apns] id, bundleID, environment in
            apns?.channel(id, environment: environment)?.bundleID == bundleID
        }
    }

    func deliverStored(_ channel: String, bundleID: String, environment: APNsEnvironment) {
        guard let stored = apns.storedBroadcast(channelID: channel, environment: environment) else { return }
        device?.deliverLiveActivity(IncomingPush(stored, bundleID: bundleID), channelID: channel)
    }

    func liveActivityAddressChanged(_ change: LiveActivityAddressChange) {
        switch change {
        case .tokenIssued(let token, let kind, let slot, let bundleID, let environment):
            apns.registerToken(RegisteredDeviceToken(token: token, topic: bundleID, environment: environment))
            index.register(
                IndexedAddress(kind: PushTokenKind(kind), value: token.hex),
                holder: TokenHolder(device: name, bundleID: bundleID, kind: PushTokenKind(kind), slot: slot))
            // Store-and-forward follows the device, as for its APNs token (GatewayRegistrationSink).
            apns.followRecipientReachability(of: token)
            if device?.snapshot.online == true { apns.recipientCameOnline(token) }
        case .tokenRemoved(let token, let kind):
            apns.unregisterToken(token)
            index.remove(IndexedAddress(kind: PushTokenKind(kind), value: token.hex))
        case .channelSubscribed(let channel, let bundleID, let environment):
            deliverStored(channel, bundleID: bundleID, environment: environment)
        }
    }

    /// Registers every ActivityKit token `state` holds again (after a gateway reset or a restore).
    func sync(_ state: DeviceState) {
        for (bundleID, types) in state.liveActivities.pushToStartTokens {
            let env = state.apps[bundleID]?.declaration.signing.apsEnvironment?.apnsEnvironment ?? .sandbox
            for (type, token) in types {
                liveActivityAddressChanged(
                    .tokenIssued(token, kind: .pushToStart, slot: type, bundleID: bundleID, environment: env))
            }
        }
        for a in state.liveActivities.activities {
            guard let token = a.pushToken else { continue }
            let env = state.apps[a.bundleID]?.declaration.signing.apsEnvironment?.apnsEnvironment ?? .sandbox
            liveActivityAddressChanged(
                .tokenIssued(token, kind: .activity, slot: a.id, bundleID: a.bundleID, environment: env))
        }
    }
}

extension PushTokenKind {
    init(_ kind: ActivityTokenKind) {
        switch kind {
        case .pushToStart: self = .pushToStart
        case .activity: self = .activity
        }
    }
}

extension IncomingPush {
    /// A gateway push as the device's ActivityKit receives it.
    init(_ push: DeliveredPush, bundleID: String? = nil) {
        self.init(
            topic: push.topic, token: push.token, json: push.json, pushType: push.pushType, priority: push.priority,
            collapseID: push.collapseID, apnsID: push.apnsID)
        if let bundleID { self.bundleID = bundleID }
    }
}

extension DeviceFleet {
    /// A push to a token the index holds as an ActivityKit address (`.activity` / `.pushToStart`) goes to that
    /// device's ActivityKit, which applies the token-kind rule (`PushTokenKind.outcome(of:at:)`) first.
    func deliverToLiveActivityAddress(_ push: DeliveredPush, holder: TokenHolder) -> PushHandOff {
        if holder.bundleID == APNsPushType.bundleID(ofTopic: push.topic), let device = device(named: holder.device),
            device.iphone?.deliverLiveActivity(IncomingPush(push)).disposition == .deviceOffline
        {
            return .recipientOffline
        }
        recording.record(push)
        return .delivered
    }

    /// A broadcast on `channelID` reaches every device whose app has an updatable activity subscribed to it in
    /// the push's environment; returns how many devices it reached.
    package func deliverBroadcast(_ push: DeliveredPush, channelID: String) -> Int {
        var reached = 0
        for d in devices {
            guard let iphone = d.iphone else { continue }
            let apps = iphone.channelSubscribers(channelID, environment: push.environment)
            var handed = false
            for bundleID in apps {
                let r = iphone.deliverLiveActivity(IncomingPush(push, bundleID: bundleID), channelID: channelID)
                handed = handed || r.disposition != .deviceOffline
            }
            // An offline device gets the channel's stored message when it is back (deviceOnlineChanged).
            if handed { reached += 1 }
        }
        recording.record(push)
        return reached
    }
}
