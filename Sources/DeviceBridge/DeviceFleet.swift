import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import Synchronization

/// Every device of a `DeviceWorld` (`apps:` + `devices:`) hosted behind one gateway, in declaration order, and
/// the gateway's one consumer: each accepted push goes to the device and app the `TokenIndex` says hold its token
/// (ownership is that one look-up), and a device that is offline says so, so the gateway keeps the push.
package final class DeviceFleet: PushDeliveryConsumer, Sendable {
    /// The gateway the devices register with and receive from.
    package let apns: APNsGateway
    /// The hosted devices, in the order they were declared.
    package let devices: [HostedDevice]
    /// Which device and app hold each token, fed by the devices' registration sinks.
    package let index: TokenIndex
    /// `serve --record` and the control endpoint's `/apns/recording`: sees every push handed on.
    package let recording: RecordingSwitch
    private let byName: [String: HostedDevice]
    private let attached = Atomic<Bool>(false)

    /// Builds and sets up every declared device (install → permission → registration → tokens
    /// registered with `apns` and the index). Device names must be unique (`DeviceFleetError.duplicateName`).
    package convenience init(
        world: DeviceWorld, apns: APNsGateway, fcm: FCMGateway? = nil, clock: any PushClock, seedSalt: UInt64 = 0
    ) throws(DeviceFleetError) {
        try self.init(
            apps: world.apps, devices: world.devices, apns: apns, fcm: fcm, clock: clock, seedSalt: seedSalt)
    }

    /// The same from the two lists (`devices[i].apps` name bundle ids of `apps`). With `fcm`, apps using
    /// Firebase register their instances there (`FCMRegistrationSink`).
    package init(
        apps: [AppDeclaration], devices: [DeviceDeclaration], apns: APNsGateway, fcm: FCMGateway? = nil,
        clock: any PushClock, seedSalt: UInt64 = 0
    ) throws(DeviceFleetError) {
        var seen = Set<String>()
        for d in devices where !seen.insert(d.name).inserted { throw .duplicateName(d.name) }
        self.apns = apns
        let index = TokenIndex()
        self.index = index
        recording = RecordingSwitch()
        let hosted = devices.map {
            HostedDevice($0, apps: apps, apns: apns, fcm: fcm, index: index, clock: clock, seedSalt: seedSalt)
        }
        self.devices = hosted
        byName = Dictionary(hosted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // A gateway without a consumer hands nothing on (no lock per push): attach only once there is a device,
        // or a recording (the benchmarks' worlds have neither).
        recording.onStart { [weak self] in self?.attach() }
        if !hosted.isEmpty { attach() }
    }

    /// Becomes the gateway's consumer (once).
    private func attach() {
        guard attached.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        apns.setConsumer(self)
    }

    /// Detaches from the gateway (the world shuts down).
    package func detach() {
        attached.store(false, ordering: .releasing)
        apns.setConsumer(nil)
    }

    /// Hands `push` to the app the index says holds its token (the push's topic naming that app), and to the
    /// recording once handed over; a token no device holds ends here.
    package func deliver(_ push: DeliveredPush) -> PushHandOff {
        let apnsHolder = index.holder(of: .apns(push.token))
        // Not an APNs token: maybe an ActivityKit one (LiveActivitySink.swift); one look-up on the usual path.
        if apnsHolder == nil, let handOff = deliverToLiveActivityAddress(push) { return handOff }
        if let holder = apnsHolder,
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

    /// Every device back to its launch state (see `HostedDevice.resetToLaunchState()`).
    package func resetToLaunchState() { for d in devices { d.resetToLaunchState() } }

    /// Registers every device's tokens again (after `APNsGateway.reset()`).
    package func syncRegistrations() { for d in devices { d.syncRegistrations() } }

    /// `{"<name>": {"udid": …, "tokens": {"<bundle id>": "<hex>"}, "fcm_tokens": {"<bundle id>": "<fcm token>"}}}`:
    /// what `serve`'s ready line shows, so a backend script can address the devices (`fcm_tokens` only for
    /// devices with apps using Firebase).
    package var addressesJSON: JSONValue {
        var out: [String: JSONValue] = [:]
        for d in devices {
            var tokens: [String: JSONValue] = [:]
            for (id, t) in d.tokens { tokens[id] = .string(t.hex) }
            var o: [String: JSONValue] = ["udid": .string(d.device.udid), "tokens": .object(tokens)]
            let fcm = d.fcmTokens
            if !fcm.isEmpty { o["fcm_tokens"] = .object(fcm.mapValues(JSONValue.string)) }
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
