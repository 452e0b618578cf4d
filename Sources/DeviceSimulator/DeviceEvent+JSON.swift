import Foundation
import Provisioning
import PushModel

extension DeviceEvent {
    /// The event as JSON for `serve`'s control endpoint and for reports:
    /// `{"seq":…,"at":"…","bundle_id":…,"type":"…", …fields}`. Keys are stable; `type` is the case name.
    package var jsonValue: JSONValue {
        var o: [String: JSONValue] = [
            "seq": .number(Double(sequence)),
            "at": .string(at.formatted(.iso8601)),
            "summary": .string(kind.description),
        ]
        if let bundleID { o["bundle_id"] = .string(bundleID) }
        for (k, v) in kind.jsonFields { o[k] = v }
        return .object(o)
    }
}

extension DeviceEventKind {
    /// `type` plus the case's fields.
    var jsonFields: [String: JSONValue] {
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        func findings(_ f: [ProvisioningFinding]) -> JSONValue {
            .array(
                f.map {
                    .object([
                        "code": .string($0.code), "cause": .string($0.cause), "symptom": .string($0.symptom),
                        "fix": .string($0.fix),
                    ])
                })
        }
        switch self {
        case .installed: return ["type": "installed"]
        case .uninstalled(let t): return ["type": "uninstalled", "token": s(t?.hex)]
        case .installFailed(let f): return ["type": "install-failed", "findings": findings(f)]
        case .launchRefused(let f): return ["type": "launch-refused", "findings": findings(f)]
        case .capabilityWarning(let f): return ["type": "capability-warning", "findings": findings([f])]
        case .registered(let t, let e):
            return ["type": "registered", "token": .string(t.hex), "environment": .string(e.rawValue)]
        case .registrationFailed(let f): return ["type": "registration-failed", "findings": findings(f)]
        case .pushTokenIssued(let k, let t, let e):
            return [
                "type": "push-token", "token_kind": .string(k.rawValue), "token": .string(t.hex),
                "environment": .string(e.rawValue),
            ]
        case .pushTokenNotIssued(let k, let r):
            return ["type": "push-token-not-issued", "token_kind": .string(k.rawValue), "reason": .string(r)]
        case .pushTokenInvalidated(let k, let t):
            return ["type": "push-token-invalidated", "token_kind": .string(k.rawValue), "token": .string(t.hex)]
        case .incomingCallReported: return ["type": "callkit", "reported": .bool(true)]
        case .pushHandled(let r): return ["type": "push-handled", "receiver": .string(r.rawValue)]
        case .fcmTokenIssued(let t, let m): return ["type": "fcm-token", "fcm_token": .string(t), "mapped": .bool(m)]
        case .fcmTokenFailed(let r): return ["type": "fcm-token-failed", "reason": .string(r)]
        case .authorizationChanged(let a): return ["type": "authorization", "status": .string(a.status.rawValue)]
        case .stateChanged(let f, let t, let r):
            return [
                "type": "state", "from": .string(f.rawValue), "to": .string(t.rawValue), "reason": .string(r.rawValue),
            ]
        case .pushReceived(let id, let k):
            return ["type": "push-received", "apns_id": .string(id), "kind": .string(k.rawValue)]
        case .pushDropped(let id, let r):
            return ["type": "push-dropped", "apns_id": .string(id), "reason": .string(r.text)]
        case .backgroundPushHeld(let id): return ["type": "background-push-held", "apns_id": .string(id)]
        case .callback(let c):
            return ["type": "callback", "callback": .string(c.name)].merging(c.jsonFields) { a, _ in a }
        case .fetchCompleted(let r, let d):
            return ["type": "fetch-completed", "result": .string(r.rawValue), "duration": .number(d)]
        case .appTerminated(let r): return ["type": "app-terminated", "reason": .string(r)]
        case .serviceExtensionRan(let m, let d):
            return ["type": "service-extension", "modified": .bool(m), "duration": .number(d)]
        case .serviceExtensionTimedOut(let d): return ["type": "service-extension-timeout", "duration": .number(d)]
        case .notificationPresented(let id, let c, let p):
            return [
                "type": "notification-presented", "id": .string(id), "title": s(c.title), "subtitle": s(c.subtitle),
                "body": s(c.body), "category": s(c.categoryID), "thread_id": s(c.threadID), "sound": s(p.sound),
                "banner": .bool(p.banner), "list": .bool(p.list), "quiet": .bool(p.quiet),
                "interruption_level": .string(p.interruptionLevel), "user_info": c.userInfo,
            ]
        case .notificationReplaced(let id, let cid):
            return ["type": "notification-replaced", "id": .string(id), "collapse_id": .string(cid)]
        case .notificationRemoved(let id, let r):
            return ["type": "notification-removed", "id": .string(id), "reason": .string(r)]
        case .badgeChanged(let b): return ["type": "badge", "badge": b.map { .number(Double($0)) } ?? .null]
        case .soundPlayed(let s): return ["type": "sound", "sound": .string(s)]
        case .contentExtensionShown(let n, let c):
            return ["type": "content-extension", "extension": .string(n), "category": .string(c)]
        case .contentExtensionHandledAction(let n, let a, let r):
            return [
                "type": "content-extension-action", "extension": .string(n), "action": .string(a),
                "response": .number(Double(r.rawValue)),
            ]
        case .urlOpened(let u, let by): return ["type": "url-opened", "url": .string(u), "by": .string(by)]
        case .navigation(let n): return ["type": "navigation", "navigation": .string(n.description)]
        case .webView(let o):
            switch o {
            case .loaded(let p):
                return [
                    "type": "web-view", "outcome": "loaded", "url": .string(p.finalURL),
                    "status": .number(Double(p.status)),
                    "title": s(p.title), "http_version": .string(p.httpVersion), "well_formed": .bool(p.wellFormed),
                    "links": .array(p.links.map { .string($0.href) }),
                ]
            case .openedExternally(let u):
                return ["type": "web-view", "outcome": "opened-externally", "url": .string(u)]
            case .cancelled(let u, let r):
                return ["type": "web-view", "outcome": "cancelled", "url": .string(u), "reason": .string(r)]
            case .failed(let f): return ["type": "web-view", "outcome": "failed", "error": .string(f.description)]
            }
        case .offlineChanged(let on): return ["type": "online", "online": .bool(on)]
        case .rebooted: return ["type": "rebooted"]
        case .activity(let a): return a.jsonFields
        }
    }
}

extension AppCallback {
    var jsonFields: [String: JSONValue] {
        switch self {
        case .didFinishLaunching(let n): return ["remote_notification": n ?? .null]
        case .didRegisterForRemoteNotifications(let t): return ["token": .string(t.hex)]
        case .didFailToRegisterForRemoteNotifications(let e): return ["error": .string(e)]
        case .willPresent(let u, let o): return ["user_info": u, "options": .array(o.names.map(JSONValue.string))]
        case .didReceiveRemoteNotification(let u, let st): return ["user_info": u, "app_state": .string(st.rawValue)]
        case .legacyDidReceiveRemoteNotification(let u): return ["user_info": u]
        case .didReceiveResponse(let a, let u): return ["action": .string(a), "user_info": u]
        case .performQuickAction(let t): return ["quick_action": .string(t)]
        case .sceneWillConnect(let r): return ["notification_response": r ?? .null]
        case .pushRegistryDidUpdate(let t): return ["token": .string(t.hex)]
        case .didReceiveIncomingPush(let p, let st): return ["user_info": p, "app_state": .string(st.rawValue)]
        case .incomingPushResult(let p): return ["user_info": p]
        }
    }
}
