import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import SuiteFormat

/// What a `snapshot` records on an Android phone, in the iPhone's layout where the meaning is the same:
///
/// ```json
/// { "messages": [{ "package": …, "priority": "high", "ttl": 2419200, "bundle": {…}, "status": "delivered" }],
///   "callbacks": [{ "name": "onMessageReceived", "data": {…} }, { "name": "onCreate", "activity": …, "extras": {…} }],
///   "notification": { "title": …, "body": …, "channel": …, "tag": …, … }, "tray": ["…"],
///   "navigation": { "events": […], "activity": …, "activities": […], "stack": […], … }, "page": {…} }
/// ```
/// The FCM log's Android hops stand where the iPhone has the APNs requests (`pushes`); volatile values (message ids,
/// send times, tokens) are masked by `SnapshotMask` as for the iPhone.
extension SnapshotCapture {
    static func capture(_ a: AndroidObservation, _ o: Observation) -> JSONValue {
        var root: [String: JSONValue] = [:]
        let messages = o.fcmRequests.flatMap(\.android).map(\.json)
        if !messages.isEmpty { root["messages"] = .array(messages) }
        let callbacks = a.window.compactMap { e -> JSONValue? in
            guard case .callback(let c) = e.kind else { return nil }
            var item: [String: JSONValue] = ["name": .string(c.name)]
            switch c {
            case .onMessageReceived(let m):
                item["data"] = .object(m.data.mapValues(JSONValue.string))
                item["priority"] = .string(m.priority.rawValue)
                if let n = m.notification {
                    item["notification"] = .object(n.bundleEntries.mapValues(JSONValue.string))
                }
            case .onCreate(let activity, let action, let extras), .onNewIntent(let activity, let action, let extras):
                item["activity"] = .string(activity)
                item["action"] = action.map(JSONValue.string) ?? .null
                item["extras"] = .object(extras.mapValues(JSONValue.string))
            default: break
            }
            return .object(item)
        }
        if !callbacks.isEmpty { root["callbacks"] = .array(callbacks) }
        // What the step did: the notification posted in the window.
        let posted = a.window.compactMap { e -> AndroidTrayNotification? in
            if case .notificationPosted(let n) = e.kind { n } else { nil }
        }.last
        if let n = posted {
            var object: [String: JSONValue] = ["channel": n.channelID.map(JSONValue.string) ?? .null]
            object["title"] = n.title.map(JSONValue.string)
            object["body"] = n.body.map(JSONValue.string)
            object["tag"] = .string(n.tag)
            object["color"] = n.color.map(JSONValue.string)
            object["icon"] = .string(n.smallIcon)
            object["number"] = n.number.map { .number(Double($0)) }
            object["poster"] = .string(n.poster.rawValue)
            root["notification"] = .object(object)
        }
        if let tray = a.value(.tray, lastSend: o.lastSend), tray != .array([]) { root["tray"] = tray }
        let navigationEvents = a.window.compactMap { e -> JSONValue? in
            if case .navigation(let n) = e.kind { return .string(n.description) }
            return nil
        }
        var navigation: [String: JSONValue] = [:]
        if !navigationEvents.isEmpty { navigation["events"] = .array(navigationEvents) }
        for field: NavigationField in [.activity, .activities, .stack, .title, .url, .alert] {
            if let v = a.value(.navigation(field), lastSend: o.lastSend) { navigation[field.rawValue] = v }
        }
        if !navigation.isEmpty { root["navigation"] = .object(navigation) }
        if case .array(let urls)? = a.value(.openedURLs, lastSend: o.lastSend), !urls.isEmpty {
            root["opened_urls"] = .array(urls)
        }
        var page: [String: JSONValue] = [:]
        for field: PageField in [.status, .title, .url, .failed, .openedExternally] {
            if let v = a.value(.page(field), lastSend: o.lastSend) { page[field.rawValue] = v }
        }
        if !page.isEmpty { root["page"] = .object(page) }
        return .object(root)
    }
}
