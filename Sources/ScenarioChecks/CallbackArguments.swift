import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

extension CallbackField {
    /// This argument of one call (nil when the call does not carry it; `calls` is counted, not read).
    func argument(of call: AppCallback) -> JSONValue? {
        switch self {
        case .calls: return nil
        case .launchOptions:
            // `launchOptions` as the app sees it: `.remoteNotification` holds the payload on a cold start from a tap.
            guard case .didFinishLaunching(let n) = call else { return nil }
            return .object(n.map { ["remoteNotification": $0] } ?? [:])
        case .userInfo:
            switch call {
            case .willPresent(let u, _), .didReceiveRemoteNotification(let u, _),
                .legacyDidReceiveRemoteNotification(let u),
                .didReceiveResponse(_, let u):
                return u
            case .didFinishLaunching(let u), .sceneWillConnect(let u): return u
            case .didReceiveIncomingPush(let u, _), .incomingPushResult(let u): return u
            case .didRegisterForRemoteNotifications, .didFailToRegisterForRemoteNotifications, .performQuickAction,
                .pushRegistryDidUpdate:
                return nil
            }
        case .action:
            guard case .didReceiveResponse(let a, _) = call else { return nil }
            return .string(a)
        case .token:
            switch call {
            case .didRegisterForRemoteNotifications(let t), .pushRegistryDidUpdate(let t): return .string(t.hex)
            default: return nil
            }
        case .error:
            guard case .didFailToRegisterForRemoteNotifications(let e) = call else { return nil }
            return .string(e)
        case .options:
            guard case .willPresent(_, let o) = call else { return nil }
            return .array(o.names.map(JSONValue.string))
        case .state:
            switch call {
            case .didReceiveRemoteNotification(_, let s), .didReceiveIncomingPush(_, let s): return .string(s.rawValue)
            default: return nil
            }
        case .type:
            guard case .performQuickAction(let t) = call else { return nil }
            return .string(t)
        }
    }
}

/// `expect: { callback: { <callback>: { <field>: … } } }` observed: the last call of the callback in the events.
enum CallbackArguments {
    /// The value of `field` (at `path`, for key-path fields) for the last `callback` call in `window` (nil when
    /// it was not called).
    static func value(
        _ callback: AppCallback.Kind, _ field: CallbackField, path: String, in window: [DeviceEvent]
    ) -> JSONValue? {
        let calls = window.compactMap { e -> AppCallback? in
            if case .callback(let c) = e.kind, c.kind == callback { return c }
            return nil
        }
        if field == .calls { return .number(Double(calls.count)) }
        guard let last = calls.last, let argument = field.argument(of: last) else { return nil }
        return lookup(path, in: argument)
    }
}
