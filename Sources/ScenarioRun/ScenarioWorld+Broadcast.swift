import DeviceBridge
import Foundation
import PushModel

/// The channel-management API (Apple's `api-manage-broadcast.*`) of a scenario world, for `run:` steps: listeners
/// of the world's own at the root (as Apple's hosts), started together on first use, stopped with the world.
/// Broadcast sends go to the APNs URLs (`PUSHCHECK_APNS_SANDBOX_URL` + `/4/broadcasts/apps/<bundle id>`).
extension ScenarioWorld {
    /// The root URL of this world's own channel-management listener for `environment`.
    func ownBroadcastURL(_ environment: APNsEnvironment) throws -> String {
        let name = WorldEndpoint.broadcast(environment).rawValue
        if let url = host.ownListenerURL(name) { return url }
        var plan = ownListenPlan()
        plan.broadcastSandboxPort = 0
        plan.broadcastProductionPort = 0
        return try host.start(plan).url(name) ?? ""
    }

    /// `run:` steps' channel-management variables: `PUSHCHECK_APNS_BROADCAST_SANDBOX_URL` and
    /// `PUSHCHECK_APNS_BROADCAST_PRODUCTION_URL` (e.g. `https://127.0.0.1:PORT`: append `/1/apps/<bundle id>/channels`).
    func broadcastEnvironment() -> [String: String] {
        [
            "PUSHCHECK_APNS_BROADCAST_SANDBOX_URL": (try? ownBroadcastURL(.sandbox)) ?? "",
            "PUSHCHECK_APNS_BROADCAST_PRODUCTION_URL": (try? ownBroadcastURL(.production)) ?? "",
        ]
    }

    /// This world's channel-management URL on the runner's shared server (`…/w/<id>`), for pushcheck's own
    /// requests (a suite step that manages channels).
    func sharedBroadcastURL(_ environment: APNsEnvironment) throws -> String {
        try sharedURL(.broadcast(environment))
    }
}
