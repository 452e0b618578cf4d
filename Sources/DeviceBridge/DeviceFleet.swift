import APNsGateway
import DeviceSimulator
import FCMGateway
import Foundation
import PushModel

/// Every device of a `DeviceWorld` (`apps:` + `devices:`) hosted behind one gateway, in declaration order.
package final class DeviceFleet: Sendable {
    /// The gateway the devices register with and receive from.
    package let gateway: APNsGateway
    /// The hosted devices, in the order they were declared.
    package let devices: [HostedDevice]

    /// Builds and sets up every declared device (install → permission → registration → tokens
    /// registered with `gateway`). Device names must be unique (`DeviceFleetError.duplicateName`).
    package convenience init(
        world: DeviceWorld, gateway: APNsGateway, fcm: FCMGateway? = nil, clock: any PushClock, seedSalt: UInt64 = 0
    ) throws(DeviceFleetError) {
        try self.init(
            apps: world.apps, devices: world.devices, gateway: gateway, fcm: fcm, clock: clock, seedSalt: seedSalt)
    }

    /// The same from the two lists (`devices[i].apps` name bundle ids of `apps`). With `fcm`, apps using
    /// Firebase register their instances there (`FCMRegistrationSink`).
    package init(
        apps: [AppDeclaration], devices: [DeviceDeclaration], gateway: APNsGateway, fcm: FCMGateway? = nil,
        clock: any PushClock, seedSalt: UInt64 = 0
    ) throws(DeviceFleetError) {
        var seen = Set<String>()
        for d in devices where !seen.insert(d.name).inserted { throw .duplicateName(d.name) }
        self.gateway = gateway
        self.devices = devices.map {
            HostedDevice($0, apps: apps, gateway: gateway, fcm: fcm, clock: clock, seedSalt: seedSalt)
        }
    }

    /// The device declared as `name`.
    package func device(named name: String) -> HostedDevice? { devices.first { $0.name == name } }

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
