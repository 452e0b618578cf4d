import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import Synchronization

/// Every device of a `DeviceWorld` (`apps:` + `devices:`) hosted behind one gateway, in declaration order, and
/// the gateway's one consumer: each accepted push goes to the device and app the `TokenIndex` says hold its token
/// (ownership is that one look-up), and a device that is offline says so, so the gateway keeps the push. It is also
/// the FCM gateway's Android consumer: a message for an Android instance goes to the device holding that FCM token.
package final class DeviceFleet: PushDeliveryConsumer, FCMAndroidDeliveryConsumer, Sendable {
    /// The gateway the devices register with and receive from.
    package let apns: APNsGateway
    /// The hosted devices, in the order they were declared.
    package let devices: [HostedDevice]
    /// Which device and app hold each token, fed by the devices' registration sinks.
    package let index: TokenIndex
    /// `serve --record` and the control endpoint's `/apns/recording`: sees every push handed on.
    package let recording: RecordingSwitch
    private let byName: [String: HostedDevice]
    private let fcm: FCMGateway?
    private let attached = Atomic<Bool>(false)

    /// Builds and sets up every declared device (install → permission → registration → tokens
    /// registered with `apns` and the index). Device names must be unique (`DeviceFleetError.duplicateName`).
    package convenience init(
        world: DeviceWorld, apns: APNsGateway, fcm: FCMGateway? = nil, clock: any PushClock, seedSalt: UInt64 = 0
    ) throws(DeviceFleetError) {
        try self.init(
            apps: world.apps, androidApps: world.androidApps, devices: world.devices, apns: apns, fcm: fcm,
            clock: clock, seedSalt: seedSalt)
    }

    /// The same from the two lists (`devices[i].apps` name bundle ids of `apps`). With `fcm`, apps using
    /// Firebase register their instances there (`FCMRegistrationSink`).
    package init(
        apps: [AppDeclaration], androidApps: [AndroidAppDeclaration] = [], devices: [DeviceDeclaration],
        apns: APNsGateway, fcm: FCMGateway? = nil, clock: any PushClock, seedSalt: UInt64 = 0
    ) throws(DeviceFleetError) {
        var seen = Set<String>()
        for d in devices where !seen.insert(d.name).inserted { throw .duplicateName(d.name) }
        self.apns = apns
        let index = TokenIndex()
        self.index = index
        recording = RecordingSwitch()
        let hosted = devices.map {
            HostedDevice(
                $0, apps: apps, androidApps: androidApps, apns: apns, fcm: fcm, index: index, clock: clock,
                seedSalt: seedSalt)
        }
        self.devices = hosted
        self.fcm = fcm
        byName = Dictionary(hosted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // A gateway without a consumer hands nothing on (no lock per push): attach only once there is a device,
        // or a recording (the benchmarks' worlds have neither).
        recording.onStart { [weak self] in self?.attach() }
        if !hosted.isEmpty { attach() }
        if hosted.contains(where: { $0.platform == .android }) { fcm?.setAndroidConsumer(self) }
    }

    /// Becomes the gateway's consumer (once).
    private func attach() {
        guard attached.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        apns.setConsumer(self)
    }

    /// Detaches from the gateway (the world shuts down).
    func detach() {
        attached.store(false, ordering: .releasing)
        apns.setConsumer(nil)
        fcm?.setAndroidConsumer(nil)
    }

    /// Hands an FCM message to the Android device holding its token; what the device did becomes the FCM log's
    /// Android hop (a token no device holds: `noDevice`, accepted and lost, as with a real FCM).
    package func deliverAndroid(_ message: AndroidMessage) -> FCMAndroidDisposition {
        guard let holder = index.holder(of: .fcm(message.token)), let device = byName[holder.device] else {
            return .noDevice
        }
        switch device.receive(message) {
        case .delivered: return .delivered
        case .held(let d): return .held(d.description)
        case .dropped(let r): return .dropped(r.code)
        case .rejected(let r): return .dropped(r.code)
        }
    }

    /// Hands `push` to the app the index says holds its token, whatever the token's kind (the push's topic naming
    /// that app; the device applies `PushTokenKind.outcome(of:at:)` for the kind), and to the recording once
    /// handed over; a token no device holds ends here.
    package func deliver(_ push: DeliveredPush) -> PushHandOff {
        let holder = index.holder(ofToken: push.token)
        // An ActivityKit address (an activity's or a push-to-start token): LiveActivitySink.swift.
        if let holder, holder.kind == .activity || holder.kind == .pushToStart {
            return deliverToLiveActivityAddress(push, holder: holder)
        }
        if let holder,
            holder.bundleID == APNsPushType.bundleID(ofTopic: push.topic), let device = byName[holder.device],
            device.receive(push) == .deviceOffline
        {
            return .recipientOffline
        }
        recording.record(push)
        return .delivered
    }

    /// The device declared as `name`.
    package func device(named name: String) -> HostedDevice? { byName[name] }

    /// The device and app holding `token` as their APNs device token now.
    package func holder(ofAPNsToken token: DeviceToken) -> TokenHolder? { index.holder(of: .apns(token)) }

    /// The device and app holding `token` now, whatever its kind (APNs, PushKit VoIP, …).
    package func holder(ofToken token: DeviceToken) -> TokenHolder? { index.holder(ofToken: token) }

    /// Every device back to its launch state (see `HostedDevice.resetToLaunchState()`).
    func resetToLaunchState() { for d in devices { d.resetToLaunchState() } }

    /// Registers every device's tokens again (after `APNsGateway.reset()`).
    func syncRegistrations() { for d in devices { d.syncRegistrations() } }

    /// `{"<name>": {"udid": …, "tokens": {"<bundle id>": "<hex>"}, "fcm_tokens": {"<bundle id>": "<fcm token>"},
    /// "push_tokens": {"<bundle id>": {"voip": "<hex>", …}}}}`: what `serve`'s ready line shows, so a backend
    /// script can address the devices (`fcm_tokens` only for devices with apps using Firebase, `push_tokens` only
    /// for apps declaring `push_types:`).
    package var addressesJSON: JSONValue {
        var out: [String: JSONValue] = [:]
        for d in devices {
            var tokens: [String: JSONValue] = [:]
            for (id, t) in d.tokens { tokens[id] = .string(t.hex) }
            var o: [String: JSONValue] = [
                "udid": .string(d.declaration?.udid ?? ""), "platform": .string(d.platform.rawValue),
                "tokens": .object(tokens),
            ]
            let fcm = d.fcmTokens
            if !fcm.isEmpty { o["fcm_tokens"] = .object(fcm.mapValues(JSONValue.string)) }
            if let push = d.pushTokensJSON { o["push_tokens"] = push }
            o.merge(d.liveActivityAddresses) { a, _ in a }
            out[d.name] = .object(o)
        }
        return .object(out)
    }
}

/// Why a fleet could not be built.
package enum DeviceFleetError: Error, Equatable, CustomStringConvertible {
    /// Two devices share a name, so `/devices/{name}` would be ambiguous.
    case duplicateName(String)

    package var description: String {
        switch self {
        case .duplicateName(let n): return "two devices are named '\(n)'; give each device a unique name"
        }
    }
}
