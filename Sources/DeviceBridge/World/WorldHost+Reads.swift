import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel

/// The one read API for what happened in a world, used by the runner's checks and by the control routes, so
/// neither reaches into a gateway's or a device's internals.
extension WorldHost {
    /// The APNs gateway's log entries (every request and its answer), oldest first; only those after
    /// `sequence` when given.
    package func gatewayLog(after sequence: UInt64? = nil) -> [APNsLogEntry] {
        let all = apns.log()
        guard let sequence else { return all }
        return all.filter { $0.sequence > sequence }
    }

    /// The sequence of the newest log entry (nil: the log is empty); what to pass as `after` to read only newer.
    package var lastLogSequence: UInt64? { apns.log().last?.sequence }

    /// A page of the log matching `query` (the control endpoint's `GET /apns/log`).
    package func gatewayLogPage(matching query: APNsLogQuery = APNsLogQuery(), after: UInt64? = nil, limit: Int)
        -> APNsLogPage
    {
        apns.logPage(matching: query, after: after, limit: limit)
    }

    /// A page of the store-and-forward history: each push handed to a device, kept for an offline one,
    /// or dropped (`GET /apns/deliveries`).
    func deliveries(token: DeviceToken? = nil, after: UInt64? = nil, limit: Int) -> APNsDeliveryPage {
        apns.deliveryPage(token: token, after: after, limit: limit)
    }

    /// The broadcast channels of both environments, oldest first (`GET /apns/channels`).
    var broadcastChannels: [BroadcastChannel] { apns.channels }

    /// The message a device subscribing now to `channelID` in `environment` gets: the channel's most recent one
    /// (Most Recent Message Stored channels, at most 8 hours), or nil.
    package func storedBroadcast(channelID: String, environment: APNsEnvironment) -> DeliveredPush? {
        apns.storedBroadcast(channelID: channelID, environment: environment)
    }

    /// The log entries of broadcast sends and channel-management requests naming `channelID`, oldest first.
    func channelLog(_ channelID: String) -> [APNsLogEntry] {
        apns.log(matching: APNsLogQuery(channelID: channelID))
    }

    /// The pushes the gateway keeps for `token` while its device is offline.
    package func storedPushes(for token: DeviceToken) -> [DeliveredPush] { apns.storedPushes(for: token) }

    /// The events of the device named `device` after `since` (a `DeviceEvent.sequence`; 0 = all), oldest first;
    /// nil when no such device is declared.
    func deviceEvents(_ device: String, since: Int = 0) -> [DeviceEvent]? {
        fleet.device(named: device)?.events(since: since)
    }

    /// The FCM log (each FCM request with the APNs requests it became), newest `limit`; empty without FCM.
    package func fcmLog(limit: Int? = nil) -> [FCMLogEntry] { fcm?.log(limit: limit) ?? [] }

    /// The FCM log entries after `sequence` (an `FCMLogEntry.sequence`, e.g. `lastFCMSequence` read earlier),
    /// oldest first; empty without FCM.
    package func fcmLog(after sequence: UInt64) -> [FCMLogEntry] {
        (fcm?.log() ?? []).filter { $0.sequence > sequence }
    }

    /// The sequence of the newest FCM log entry (nil: no FCM, or nothing logged yet); what to pass as `after`.
    package var lastFCMSequence: UInt64? { fcm?.log(limit: 1).last?.sequence }

    /// The device state of the device named `device` (its apps, Notification Center and whole event log) as it
    /// is now; nil when no such device is declared.
    package func deviceSnapshot(_ device: String) -> DeviceState? { fleet.device(named: device)?.iphone?.snapshot }

    /// The state of the Android phone named `device` as it is now; nil when no such Android phone is declared.
    package func androidSnapshot(_ device: String) -> AndroidDeviceState? {
        fleet.device(named: device)?.android?.snapshot
    }

    /// Apps that failed to install or register when the devices were set up, one line each.
    package var setupProblems: [String] {
        var out: [String] = []
        for d in fleet.devices {
            if let android = d.android {
                for e in android.events {
                    if case .tokenFailed(let why) = e.kind {
                        out.append("device '\(d.name)': \(e.packageName ?? "an app") got no FCM token — \(why)")
                    }
                }
            }
            for e in d.iphone?.events ?? [] {
                let what: String, why: String
                switch e.kind {
                case .installFailed(let f):
                    what = "failed to install"
                    why = f.map { "\($0.code): \($0.symptom)" }.joined(separator: "; ")
                case .registrationFailed(let f):
                    what = "failed to register for remote notifications"
                    why = f.map { "\($0.code): \($0.symptom)" }.joined(separator: "; ")
                default: continue
                }
                out.append("device '\(d.name)': \(e.bundleID ?? "an app") \(what)" + (why.isEmpty ? "" : " — \(why)"))
            }
        }
        return out
    }
}
