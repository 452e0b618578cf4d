import DeviceBridge
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
        try StepRunner.captureAll(step, context: &context) { (source: DeviceVariable?, _) in
            source?.value(in: d, app: bundle)
        }
    }
}

extension DeviceVariable {
    /// The variable on whichever phone `d` is (`${device.<name>.…}` and `capture:` both read it here).
    /// `argument` is a Live Activity variable's fourth part (the attributes type or the activity id).
    func value(in d: HostedDevice, app: String?, argument: String? = nil) -> String? {
        switch d.engine {
        case .iphone(let device): value(in: device.snapshot, bundleID: app, argument: argument)
        case .android(let device): value(in: device.snapshot, packageName: app)
        }
    }
}
