import DeviceBridge
import DeviceSimulator
import YAMLSource

/// `${device.<name>.<field>}`: the device variables, checked here at load time and read by `RunContext.lookup`.
enum DeviceVariable: String, CaseIterable {
    case token, udid
    case fcmToken = "fcm_token"
    /// Still readable after `uninstall`, to send to the old token and expect 410.
    case previousToken = "previous_token"
    /// The FCM token before the last uninstall or re-registration (UNREGISTERED at the mock).
    case previousFCMToken = "previous_fcm_token"
}

/// `${fixture.<field>}`: the fixture server's URLs and CA, checked here and read by `RunContext.lookup`.
enum FixtureVariable: String, CaseIterable {
    case http, https, ca
}

/// Checks every `${…}` reference of a scenario at load time, so a typo fails before anything runs.
/// `${env.…}` can only be checked when the step runs.
enum VariableCheck {
    static let deviceFields = DeviceVariable.allCases.map(\.rawValue)

    static func check(_ steps: [Step], world: WorldDeclaration, variables: [String: String], parameters: [String])
        throws(SourceError)
    {
        var captured: [String] = []
        let devices = world.devices.map(\.name)
        for step in steps {
            for template in templates(of: step) {
                for ref in template.references {
                    try checkName(ref.name, at: ref.range, devices: devices, bare: Array(variables.keys) + captured)
                }
            }
            captured += step.captures.map(\.name)
        }
    }

    static func checkName(_ name: String, at range: SourceRange, devices: [String], bare: [String]) throws(SourceError)
    {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func fail(_ expected: String, _ candidates: [String]) -> SourceError {
            SourceError(
                .invalidValue, "undefined variable '${\(name)}'", at: range, expected: expected,
                suggestion: Spelling.closest(to: name, in: candidates).map { "did you mean '${\($0)}'?" })
        }
        let all =
            devices.flatMap { d in deviceFields.map { "device.\(d).\($0)" } }
            + FixtureVariable.allCases.map { "fixture.\($0.rawValue)" }
            + ["gateway.sandbox", "gateway.production", "gateway.ca", "gateway.fcm", "scenario.name"]
            + bare
        switch parts.first {
        case "env":
            guard parts.count >= 2, !parts[1].isEmpty else { throw fail("expected ${env.NAME}", all) }
        case "device":
            guard parts.count == 3, devices.contains(parts[1]) else {
                throw fail(
                    "expected ${device.<name>.token} with a declared device: \(devices.joined(separator: ", "))", all)
            }
            guard deviceFields.contains(parts[2]) else {
                throw fail(
                    "expected one of: \(deviceFields.map { "device.\(parts[1]).\($0)" }.joined(separator: ", "))", all)
            }
        default:
            guard all.contains(name) else {
                throw fail(
                    "expected a device, env, fixture, gateway or scenario reference, a suite variable or a value captured earlier",
                    all)
            }
        }
    }

    static func templates(of step: Step) -> [Template] {
        var out: [Template] = []
        switch step.action {
        case .send(let s):
            out += [s.token, s.topic, s.project].compactMap { $0 } + s.headers.map(\.value) + s.payloadScalars
            if case .bearer(let t) = s.auth { out.append(t) }
        case .run(let r):
            out.append(r.command)
            out += r.environment.map(\.1)
        case .device(.followLink(let t)):
            out.append(t)
        case .device, .expect:
            break
        }
        for check in step.expectation?.checks ?? [] { out += expectedScalars(check.matcher) }
        return out
    }

    static func expectedScalars(_ m: Matcher) -> [Template] {
        switch m {
        case .equals(let e), .contains(let e): return e.scalars
        case .not(let inner): return expectedScalars(inner)
        case .exists, .absent, .matches: return []
        }
    }
}
