import Foundation
import PushModel

// The Android phone as JSON, for `serve`'s control endpoint, the console and reports: the same envelope as the
// iPhone's (`seq`, `at`, `summary`, `type`; `package` where the iPhone has `bundle_id`).

extension AndroidDeviceEvent {
    package var jsonValue: JSONValue {
        var o: [String: JSONValue] = [
            "seq": .number(Double(sequence)), "at": .string(at.formatted(.iso8601)),
            "summary": .string(kind.description), "type": .string(kind.typeName),
        ]
        if let packageName { o["package"] = .string(packageName) }
        switch kind {
        case .messageReceived(let id, let k, let p):
            o["message_id"] = .string(id)
            o["kind"] = .string(k.rawValue)
            o["priority"] = .string(p.rawValue)
        case .messageDeferred(let id, _), .priorityLowered(let id, _): o["message_id"] = .string(id)
        case .messageDropped(let id, let r):
            o["message_id"] = .string(id)
            o["reason"] = .string(r.code)
        case .callback(let c):
            o["callback"] = .string(c.name)
            switch c {
            case .onMessageReceived(let m):
                o["message_id"] = .string(m.messageID)
                o["data"] = .object(m.data.mapValues(JSONValue.string))
            case .onCreate(let a, _, let extras), .onNewIntent(let a, _, let extras):
                o["activity"] = .string(a)
                o["extras"] = .object(extras.mapValues(JSONValue.string))
            case .onNewToken(let t): o["token"] = .string(t)
            default: break
            }
        case .notificationPosted(let n): o["notification"] = n.jsonValue
        case .tokenIssued(let t): o["token"] = .string(t)
        case .uninstalled(let t?), .dataCleared(let t?): o["token"] = .string(t)
        default: break
        }
        return .object(o)
    }
}

extension AndroidEventKind {
    /// The case name, kebab-cased (`message-received`, `notification-posted`, …).
    package var typeName: String {
        switch self {
        case .installed: "installed"
        case .uninstalled: "uninstalled"
        case .dataCleared: "data-cleared"
        case .channelCreated: "channel-created"
        case .permissionChanged: "permission-changed"
        case .stateChanged: "state-changed"
        case .tokenIssued: "token-issued"
        case .tokenFailed: "token-failed"
        case .messageReceived: "message-received"
        case .messageDeferred: "message-deferred"
        case .messageDropped: "message-dropped"
        case .priorityLowered: "priority-lowered"
        case .callback: "callback"
        case .handlerTimedOut: "handler-timed-out"
        case .sdkWarning: "sdk-warning"
        case .notificationPosted: "notification-posted"
        case .notificationReplaced: "notification-replaced"
        case .notificationRemoved: "notification-removed"
        case .activityStarted: "activity-started"
        case .navigation: "navigation"
        case .webView: "web-view"
        case .urlOpened: "url-opened"
        case .offlineChanged: "online-changed"
        case .dozeChanged: "doze-changed"
        case .chargingChanged: "charging-changed"
        case .locked: "locked"
        case .unlocked: "unlocked"
        case .rebooted: "rebooted"
        }
    }
}

extension AndroidTrayNotification {
    package var jsonValue: JSONValue {
        func s(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        return .object([
            "id": .string(id), "package": .string(packageName), "poster": .string(poster.rawValue),
            "tag": .string(tag), "channel": s(channelID), "importance": .string(importance.name), "title": s(title),
            "body": s(body), "icon": .string(smallIcon), "color": s(color),
            "number": number.map { .number(Double($0)) } ?? .null, "click_action": s(clickAction), "link": s(link),
            "activity": s(activity), "extras": .object(extras.mapValues(JSONValue.string)),
            "message_id": .string(messageID), "posted_at": .string(postedAt.formatted(.iso8601)),
        ])
    }
}

extension AndroidDeviceState {
    /// `GET /devices/{name}` for an Android phone: conditions, apps (state, permission, token, channels, task),
    /// the tray, `last_seq`.
    package func snapshotJSON(name: String) -> JSONValue {
        var apps: [String: JSONValue] = [:]
        for (pkg, app) in self.apps {
            apps[pkg] = .object([
                "state": .string(app.state.rawValue), "permission": .string(app.permission.rawValue),
                "fcm_token": app.fcmToken.map(JSONValue.string) ?? .null,
                "channels": .array(
                    app.channels.map {
                        ["id": .string($0.id), "name": .string($0.name), "importance": .string($0.importance.name)]
                    }),
                "task": .array(
                    app.task.map {
                        [
                            "activity": .string($0.name), "action": $0.action.map(JSONValue.string) ?? .null,
                            "extras": .object($0.extras.mapValues(JSONValue.string)),
                            "stack": .array($0.router.stack.map { .string($0.id) }),
                        ]
                    }),
                "web_page": app.webPage.map { .string($0.finalURL) } ?? .null,
            ])
        }
        var o: [String: JSONValue] = [
            "name": .string(name), "platform": "android", "serial": .string(serial),
            "api_level": .number(Double(apiLevel)), "online": .bool(online), "doze": .bool(dozeSince != nil),
            "locked": .bool(locked), "apps": .object(apps), "tray": .array(tray.map(\.jsonValue)),
            "event_count": .number(Double(events.count)), "last_seq": .number(Double(events.last?.sequence ?? 0)),
        ]
        if eventsDropped > 0 { o["events_dropped"] = .number(Double(eventsDropped)) }  // AndroidRules.eventLogLimit
        return .object(o)
    }
}
