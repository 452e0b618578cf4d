import DeviceSimulator
import Foundation

/// `capture:` after a device step: the app's tokens as they are once the step is done.
///
/// ```yaml
/// - register
///   capture: { t: token }           # the APNs token (hex); also previous_token, fcm_token, udid
/// - uninstall
/// - send: { token: "${t}", payload: { aps: { alert: gone } } }
///   expect: { status: 410, reason: Unregistered }
/// ```
enum DeviceCaptures {
    static let sources = ["token", "previous_token", "fcm_token", "udid"]

    static func capture(_ step: Step, world: ScenarioWorld, context: inout RunContext) throws(StepStop) {
        guard !step.captures.isEmpty, let d = world.device(step.device) else { return }
        let snapshot = d.device.snapshot
        let bundle = world.bundleID(on: d, step.app) ?? ""
        let app = snapshot.apps[bundle]
        for c in step.captures {
            let value: String?
            switch c.source {
            case "token": value = app?.token?.hex
            case "previous_token": value = snapshot.previousToken(of: bundle)?.hex
            case "fcm_token": value = app?.fcmToken
            default: value = snapshot.udid
            }
            try StepRunner.capture(c, value, context: &context)
        }
    }
}
