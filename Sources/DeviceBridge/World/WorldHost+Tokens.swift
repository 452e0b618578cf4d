import APNsGateway
import Foundation
import PushModel

/// Who holds a token, read from the fleet's `TokenIndex` (what delivery uses), so a read and a delivery never
/// disagree about a token's device.
extension WorldHost {
    /// The device and app holding `token` as their APNs device token now; nil when no device of this world holds
    /// it (a token from the configuration or the control endpoint, an uninstalled app's, or none at all).
    package func holder(ofAPNsToken token: DeviceToken) -> TokenHolder? { fleet.holder(ofAPNsToken: token) }

    /// The device and app holding `token` now, whatever its kind (a PushKit VoIP token too): whose push a backend
    /// request was, and whose reachability a token's is.
    package func holder(ofToken token: DeviceToken) -> TokenHolder? { fleet.holder(ofToken: token) }

    /// Whether pushes for `token` reach its device now: the holding device's own online state, else what the
    /// gateway keeps for a token no simulated device holds.
    func isReachable(_ token: DeviceToken) -> Bool {
        guard let holder = holder(ofToken: token), let device = fleet.device(named: holder.device) else {
            return apns.isDeviceOnline(token)
        }
        return device.isOnline
    }

    /// Takes the device that holds `token` on- or offline (a phone's reachability is the whole device's), or, for
    /// a token no simulated device holds, switches the gateway's store-and-forward for it.
    func setReachable(_ token: DeviceToken, _ online: Bool) {
        guard let holder = holder(ofToken: token), let device = fleet.device(named: holder.device) else {
            apns.setDeviceOnline(token, online)
            return
        }
        _ = try? device.apply(.online(online))
    }
}
