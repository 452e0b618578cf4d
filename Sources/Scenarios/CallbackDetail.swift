import DeviceSimulator
import Foundation
import PushModel
import YAMLSource

/// `expect: callback:` — the arguments one app-delegate callback received, not only its name.
///
/// ```yaml
/// expect:
///   callback:
///     didReceiveResponse: { action: open, user_info: { url: "https://…" } }
///     didFailToRegisterForRemoteNotifications: { error: { contains: "Code=3000" } }
///     didFinishLaunching: { launch_options: { remoteNotification.test: aaa } }
///     willPresent: { options: [banner, sound], user_info: { test: aaa }, calls: 1 }
/// ```
/// Each field is the callback's last call since the previous `expect`; `calls` counts them.
enum CallbackDetail {
    /// Callback names as `callbacks:` lists them, and the fields each has besides `calls`.
    static let fields: [String: [String]] = [
        "didFinishLaunching": ["launch_options", "user_info"],
        "didRegisterForRemoteNotifications": ["token"],
        "didFailToRegisterForRemoteNotifications": ["error"],
        "willPresent": ["user_info", "options"],
        "didReceiveRemoteNotification": ["user_info", "state"],
        "legacyDidReceiveRemoteNotification": ["user_info"],
        "didReceiveResponse": ["action", "user_info"],
        "sceneWillConnect": ["user_info"],
        "performQuickAction": ["type"],
    ]
    /// Fields whose value is a mapping of key paths to checks.
    static let pathFields = ["user_info", "launch_options"]

    static func decode(_ node: YAMLNode) throws(SourceError) -> [Check] {
        let m = try YAMLMapping(node)
        try m.checkKeys(allowed: fields.keys.sorted())
        var checks: [Check] = []
        for pair in m.pairs {
            let name = pair.keyString
            let f = try YAMLMapping(pair.value)
            try f.checkKeys(allowed: ["calls"] + fields[name]!)
            for field in f.pairs {
                let key = field.keyString
                if pathFields.contains(key) {
                    for p in try YAMLMapping(field.value).pairs {
                        checks.append(
                            Check(
                                label: "callback.\(name).\(key).\(p.keyString)",
                                subject: .callback(name: name, field: "\(key).\(p.keyString)"),
                                matcher: try ExpectationDecoder.matcher(p.value), range: p.value.range))
                    }
                } else {
                    checks.append(
                        Check(
                            label: "callback.\(name).\(key)", subject: .callback(name: name, field: key),
                            matcher: try ExpectationDecoder.matcher(field.value), range: field.value.range))
                }
            }
        }
        return checks
    }

    /// The value of `field` for the last `name` call in `window` (nil when it was not called).
    static func value(_ name: String, _ field: String, in window: [DeviceEvent]) -> JSONValue? {
        let calls = window.compactMap { e -> AppCallback? in
            if case .callback(let c) = e.kind, c.name == name { return c }
            return nil
        }
        if field == "calls" { return .number(Double(calls.count)) }
        guard let last = calls.last else { return nil }
        let (head, path) = split(field)
        switch (last, head) {
        case (.didFinishLaunching(let n), "launch_options"):
            // `launchOptions` as the app sees it: `.remoteNotification` holds the payload on a cold start from a tap.
            return lookup(path, in: .object(n.map { ["remoteNotification": $0] } ?? [:]))
        case (.didFinishLaunching(let n?), "user_info"), (.sceneWillConnect(let n?), "user_info"):
            return lookup(path, in: n)
        case (.willPresent(let u, _), "user_info"), (.didReceiveRemoteNotification(let u, _), "user_info"),
            (.legacyDidReceiveRemoteNotification(let u), "user_info"), (.didReceiveResponse(_, let u), "user_info"):
            return lookup(path, in: u)
        case (.willPresent(_, let o), "options"): return .array(o.names.map(JSONValue.string))
        case (.didReceiveRemoteNotification(_, let s), "state"): return .string(s.rawValue)
        case (.didReceiveResponse(let a, _), "action"): return .string(a)
        case (.didFailToRegisterForRemoteNotifications(let e), "error"): return .string(e)
        case (.didRegisterForRemoteNotifications(let t), "token"): return .string(t.hex)
        case (.performQuickAction(let t), "type"): return .string(t)
        default: return nil
        }
    }

    private static func split(_ field: String) -> (String, String) {
        guard let dot = field.firstIndex(of: ".") else { return (field, "") }
        return (String(field[..<dot]), String(field[field.index(after: dot)...]))
    }
}
