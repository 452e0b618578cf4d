import DeviceSimulator
import Foundation
import PushModel
import YAMLSource

/// `expect: { callback: { <callback>: { <field>: … } } }` — one argument of the last call of one app-delegate
/// callback since the previous `expect` (`calls` counts the calls). The callbacks are `AppCallback.Kind`; the
/// fields are this table: a field names the callbacks that carry it and says how to read it from a call, so a new
/// field is one case here and the compiler asks for both. Case order is the order "expected one of: …" lists a
/// callback's fields in.
///
/// ```yaml
/// expect:
///   callback:
///     didReceiveResponse: { action: open, user_info: { url: "https://…" } }
///     didFailToRegisterForRemoteNotifications: { error: { contains: "Code=3000" } }
///     didFinishLaunching: { launch_options: { remoteNotification.test: aaa } }
///     willPresent: { options: [banner, sound], user_info: { test: aaa }, calls: 1 }
/// ```
package enum CallbackField: String, CaseIterable, Sendable {
    /// How many times the callback was called in the window (every callback has it).
    case calls
    /// `launchOptions` as the app sees it (a mapping of key paths: `remoteNotification.<path>`).
    case launchOptions = "launch_options"
    /// The action the user chose (`com.apple.UNNotificationDefaultActionIdentifier` for a tap).
    case action
    /// The `userInfo` the callback got (a mapping of key paths).
    case userInfo = "user_info"
    /// The device token, hex.
    case token
    /// The registration error's description.
    case error
    /// The presentation options `willPresent` answered.
    case options
    /// The app state a background push ran in.
    case state
    /// A home-screen quick action's type.
    case type

    /// The callbacks that carry this field.
    var callbacks: [AppCallback.Kind] {
        switch self {
        case .calls: AppCallback.Kind.allCases
        case .launchOptions: [.didFinishLaunching]
        case .action: [.didReceiveResponse]
        case .userInfo:
            [
                .didFinishLaunching, .willPresent, .didReceiveRemoteNotification, .legacyDidReceiveRemoteNotification,
                .didReceiveResponse, .sceneWillConnect, .didReceiveIncomingPush, .incomingPushResult,
            ]
        case .token: [.didRegisterForRemoteNotifications, .pushRegistryDidUpdate]
        case .error: [.didFailToRegisterForRemoteNotifications]
        case .options: [.willPresent]
        case .state: [.didReceiveRemoteNotification, .didReceiveIncomingPush]
        case .type: [.performQuickAction]
        }
    }

    /// The field's value is a mapping of key paths to checks (`user_info: { order.id: A1 }`), a check each.
    var takesKeyPaths: Bool { self == .userInfo || self == .launchOptions }

    /// The fields a suite may write for `callback`, in table order (`calls` first).
    static func names(for callback: AppCallback.Kind) -> [String] {
        allCases.filter { $0.callbacks.contains(callback) }.map(\.rawValue)
    }
}

/// Decoding `expect: callback:` (the table is `CallbackField`; `CallbackArguments.swift` in ScenarioChecks reads
/// the fields from the calls).
enum CallbackDetail {
    /// Callback names in the order the "expected one of: …" message lists them.
    static let callbackNames = AppCallback.Kind.allCases.map(\.rawValue).sorted()

    static func decode(_ node: YAMLNode) throws(SourceError) -> [Check] {
        let m = try YAMLMapping(node)
        try m.checkKeys(allowed: callbackNames)
        var checks: [Check] = []
        for pair in m.pairs {
            // `checkKeys` above refused every name that is not a callback, and below every field it lacks.
            guard let callback = AppCallback.Kind(rawValue: pair.keyString) else { continue }
            let f = try YAMLMapping(pair.value)
            try f.checkKeys(allowed: CallbackField.names(for: callback))
            for fieldPair in f.pairs {
                guard let field = CallbackField(rawValue: fieldPair.keyString) else { continue }
                let label = "callback.\(callback.rawValue).\(field.rawValue)"
                guard field.takesKeyPaths else {
                    checks.append(
                        Check(
                            label: label, subject: .callback(callback, field, path: ""),
                            matcher: try ExpectationDecoder.matcher(fieldPair.value, field.checked),
                            range: fieldPair.value.range))
                    continue
                }
                for p in try YAMLMapping(fieldPair.value).pairs {
                    checks.append(
                        Check(
                            label: "\(label).\(p.keyString)", subject: .callback(callback, field, path: p.keyString),
                            matcher: try ExpectationDecoder.matcher(p.value, field.checked), range: p.value.range))
                }
            }
        }
        return checks
    }
}
