import DeviceSimulator
import Foundation
import ScenarioChecks
import SuiteFormat

/// `capture:` after a device step: the app's tokens as they are once the step is done.
///
/// ```yaml
/// - register
///   capture: { t: token }           # the APNs token (hex); also previous_token, fcm_token, previous_fcm_token, udid
/// - uninstall
/// - send: { token: "${t}", payload: { aps: { alert: gone } } }
///   expect: { status: 410, reason: Unregistered }
/// ```
enum DeviceCaptures {
    static let sources = DeviceVariable.allCases.map(\.rawValue)

    static func capture(_ step: Step, world: ScenarioWorld, context: inout RunContext) throws(StepStop) {
        guard !step.captures.isEmpty, let d = world.device(step.device) else { return }
        let bundle = world.bundleID(on: d, step.app)
        switch d.engine {
        case .iphone(let device):
            let snapshot = device.snapshot
            try StepRunner.captureAll(step, context: &context) { (source: DeviceVariable?, _) in
                source?.value(in: snapshot, bundleID: bundle)
            }
        case .android(let device):
            let snapshot = device.snapshot
            try StepRunner.captureAll(step, context: &context) { (source: DeviceVariable?, _) in
                source?.value(in: snapshot, packageName: bundle)
            }
        }
    }
}
