import DeviceBridge
import DeviceSimulator
import PushModel
import YAMLSource

/// What a device tells a scenario: `${device.<name>.<field>}` (checked here at load time, read by
/// `RunContext.lookup`) and `capture: { t: <field> }` after a device step (`DeviceCaptures`). The one list of them.
package enum DeviceVariable: String, CaseIterable, Sendable {
    /// The app's APNs token (hex).
    case token
    /// Still readable after `uninstall`, to send to the old token and expect 410.
    case previousToken = "previous_token"
    case fcmToken = "fcm_token"
    /// The FCM token before the last uninstall or re-registration (UNREGISTERED at the mock).
    case previousFCMToken = "previous_fcm_token"
    case udid
    /// The app's tokens of other kinds (`push_types:`), hex.
    case voipToken = "voip_token"
    case pushToTalkToken = "pushtotalk_token"
    case locationToken = "location_token"
    case widgetsToken = "widgets_token"
    case controlsToken = "controls_token"
    case fileProviderToken = "fileprovider_token"
    /// Live Activities (`${device.<name>.push_to_start_token.<AttributesType>}`, `….activity_token.<id>`):
    /// `argument` picks the attributes type (default the app's first) or the activity (default the latest).
    case pushToStartToken = "push_to_start_token"
    case activityToken = "activity_token"
    case activityID = "activity_id"

    /// The token kind a `<kind>_token` field reads.
    package var tokenKind: PushTokenKind? {
        switch self {
        case .voipToken: .voip
        case .pushToTalkToken: .pushToTalk
        case .locationToken: .location
        case .widgetsToken: .widgets
        case .controlsToken: .controls
        case .fileProviderToken: .fileProvider
        case .token, .previousToken, .fcmToken, .previousFCMToken, .udid, .pushToStartToken, .activityToken,
            .activityID:
            nil
        }
    }

    /// The fields that take a fourth part (`argument`).
    static let withArgument: [DeviceVariable] = [.pushToStartToken, .activityToken]

    /// The value on a device as it is now, for the app `bundleID` (nil when there is none).
    package func value(in snapshot: DeviceState, bundleID: String?, argument: String? = nil) -> String? {
        switch self {
        case .pushToStartToken, .activityToken, .activityID:
            return liveActivityValue(in: snapshot, bundleID: bundleID, argument: argument)
        case .udid: return snapshot.udid
        case .token: return bundleID.flatMap { snapshot.apps[$0] }?.token?.hex
        case .fcmToken: return bundleID.flatMap { snapshot.apps[$0] }?.fcmToken
        case .previousToken: return bundleID.flatMap { snapshot.previousToken(of: $0) }?.hex
        case .previousFCMToken: return bundleID.flatMap { snapshot.previousFCMToken(of: $0) }
        case .voipToken, .pushToTalkToken, .locationToken, .widgetsToken, .controlsToken, .fileProviderToken:
            guard let kind = tokenKind else { return nil }
            return bundleID.flatMap { snapshot.apps[$0] }?.pushTokens[kind]?.hex
        }
    }

    /// The same on an Android phone (`udid` is its serial; it has no APNs token).
    package func value(in snapshot: AndroidDeviceState, packageName: String?) -> String? {
        switch self {
        case .udid: return snapshot.serial
        case .token: return nil
        // An Android phone has no iPhone per-purpose tokens (PushKit, Push to Talk, …) and no Live Activities.
        case .voipToken, .pushToTalkToken, .locationToken, .widgetsToken, .controlsToken, .fileProviderToken,
            .pushToStartToken, .activityToken, .activityID:
            return nil
        case .fcmToken: return packageName.flatMap { snapshot.apps[$0] }?.fcmToken
        case .previousToken: return nil
        case .previousFCMToken:
            return snapshot.events.reversed().lazy.compactMap { e -> String? in
                guard e.packageName == packageName else { return nil }
                switch e.kind {
                case .uninstalled(let t?), .dataCleared(let t?): return t
                default: return nil
                }
            }.first
        }
    }
}

/// `${fixture.<field>}`: the fixture server's URLs and CA, checked here and read by `RunContext.lookup`.
package enum FixtureVariable: String, CaseIterable, Sendable {
    case http, https, ca
}

/// `${gateway.<field>}`: the APNs gateway URLs per environment, the CA that signs the mock's certificates and the
/// FCM gateway URL; checked here and read by `RunContext.lookup`.
package enum GatewayVariable: String, CaseIterable, Sendable {
    case sandbox, production, ca, fcm
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
        let suiteVariables = Array(variables.keys)
        for step in steps {
            lazy var bare = suiteVariables + captured  // once per step with references, not once per reference
            for template in templates(of: step) {
                for ref in template.references {
                    try checkName(ref.name, at: ref.range, devices: devices, bare: bare)
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
        // Every name there is, for the error's suggestion: made only when there is an error to make.
        var all: [String] {
            devices.flatMap { d in deviceFields.map { "device.\(d).\($0)" } }
                + FixtureVariable.allCases.map { "fixture.\($0.rawValue)" }
                + GatewayVariable.allCases.map { "gateway.\($0.rawValue)" } + ["scenario.name"]
                + bare
        }
        switch parts.first {
        case "env":
            guard parts.count >= 2, !parts[1].isEmpty else { throw fail("expected ${env.NAME}", all) }
        case "device":
            let takesArgument = parts.count == 4 && DeviceVariable.withArgument.map(\.rawValue).contains(parts[2])
            guard parts.count == 3 || takesArgument, devices.contains(parts[1]) else {
                throw fail(
                    "expected ${device.<name>.token} with a declared device: \(devices.joined(separator: ", "))", all)
            }
            guard deviceFields.contains(parts[2]) else {
                throw fail(
                    "expected one of: \(deviceFields.map { "device.\(parts[1]).\($0)" }.joined(separator: ", "))", all)
            }
        default:
            // What `all.contains(name)` answers for a name that is neither `env.` nor `device.`, without making `all`.
            let known =
                switch parts.first {
                case "fixture": parts.count == 2 && FixtureVariable(rawValue: parts[1]) != nil
                case "gateway": parts.count == 2 && GatewayVariable(rawValue: parts[1]) != nil
                default: false
                }
            guard known || name == "scenario.name" || bare.contains(name) else {
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
        case .device(.followLink(let t)), .device(.openLink(let t)):
            out.append(t)
        case .device(.action(.startActivity(_, let r))):
            if case .channel(let c)? = r.pushType, let t = try? Template(c, range: step.range) { out.append(t) }
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

extension Step {
    /// This step without what only `VariableCheck` reads — the string scalars of its payload and of its expected
    /// values, each a `Template` of its own — once the check has run: a loaded suite is kept for the whole run.
    func droppingCheckedScalars() -> Step {
        var step = self
        if case .send(var send) = action, !send.payloadScalars.isEmpty {
            send.payloadScalars = []
            step.action = .send(send)
        }
        if var expectation, expectation.checks.contains(where: { !VariableCheck.expectedScalars($0.matcher).isEmpty }) {
            for index in expectation.checks.indices {
                expectation.checks[index].matcher = expectation.checks[index].matcher.droppingScalars()
            }
            step.expectation = expectation
        }
        return step
    }
}

extension Matcher {
    fileprivate func droppingScalars() -> Matcher {
        switch self {
        case .equals(let e): return .equals(ExpectedValue(json: e.json))
        case .contains(let e): return .contains(ExpectedValue(json: e.json))
        case .not(let inner): return .not(inner.droppingScalars())
        case .exists, .absent, .matches: return self
        }
    }
}
