import PushModel

/// Whether APNs has a broadcast channel: the device's ActivityKit asks when an activity subscribes to one
/// (`Activity.request(…, pushType: .channel(id))`, a push-to-start's `input-push-channel`). Apple: "If the channel ID
/// isn't a valid channel, the Live Activity fails to start" (Tests/reference/apns.md §8).
///
/// A world wires the gateway's channel store (`HostedDevice`); a device on its own (`unwired`) has no APNs to ask and
/// takes every channel id as valid.
package struct BroadcastChannelLookup: Sendable {
    /// True when `channelID` is a channel of `bundleID` in `environment`.
    let exists: @Sendable (_ channelID: String, _ bundleID: String, _ environment: APNsEnvironment) -> Bool

    package init(
        _ exists: @escaping @Sendable (_ channelID: String, _ bundleID: String, _ environment: APNsEnvironment) -> Bool
    ) {
        self.exists = exists
    }

    /// No gateway to ask: every channel is taken to exist.
    package static let unwired = BroadcastChannelLookup { _, _, _ in true }
}

extension DeviceState {
    /// Why `channelID` cannot be subscribed to by `bundleID` (nil: it can): not a channel of the app in the app's
    /// APNs environment (never created, deleted, another app's or environment's, or not a channel id at all).
    func unknownChannelReason(_ channelID: String, bundleID: String, _ channels: BroadcastChannelLookup) -> String? {
        let environment = apps[bundleID]?.declaration.signing.apsEnvironment?.apnsEnvironment ?? .sandbox
        guard !channels.exists(channelID, bundleID, environment) else { return nil }
        return
            "channel \(channelID) is not a valid channel: APNs has no broadcast channel with that id for \(bundleID) in "
            + "\(environment.rawValue) (never created, deleted, or another app's); the Live Activity fails to start"
    }
}
