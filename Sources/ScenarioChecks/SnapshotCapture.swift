import APNsGateway
import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

/// What a `snapshot` records: what the device got and did since the previous `expect`, as one JSON
/// object with stable keys, volatile values masked.
///
/// ```json
/// { "pushes": [{ "status": 200, "headers": { "apns-push-type": "alert", … }, "payload": {…} }],
///   "callbacks": [{ "name": "willPresent", "user_info": {…} }],
///   "notification": { "title": …, "body": …, … }, "extensions": { "service": "ran" },
///   "navigation": { "events": ["routed order (tap)", "pushed order: Order A1001"], "stack": […], … },
///   "page": { "status": 200, "title": …, "url": … } }
/// ```
enum SnapshotCapture {
    /// Request headers that change what the device does (the rest — ids, auth — are volatile or noise).
    static let requestHeaders = [
        "apns-push-type", "apns-priority", "apns-topic", "apns-collapse-id", "apns-expiration",
    ]

    /// The lifeline of the report's sequence diagram a snapshot path is about, by its top-level key (the layout
    /// above), so a mismatch is marked on the hop of its first difference; nil for a key it does not know.
    static func focus(ofPath path: String) -> TraceFocus? {
        switch path.prefix(while: { $0 != "." && $0 != "[" }) {
        case "pushes": TraceFocus(.apns, .request)
        case "messages": TraceFocus(.fcm, .request)
        case "tray": TraceFocus(.device, .presented)
        case "callbacks": TraceFocus(.app, .callback)
        case "notification": TraceFocus(.device, .presented)
        case "extensions": TraceFocus(path.hasPrefix("extensions.service") ? .serviceExtension : .contentExtension)
        case "navigation": TraceFocus(.router, .navigation)
        case "page": TraceFocus(.webView, .page)
        default: nil
        }
    }

    static func capture(_ o: Observation) -> JSONValue {
        if let android = o.android { return capture(android, o) }
        var root: [String: JSONValue] = [:]
        let pushes = o.gatewayRequests.map(push)
        if !pushes.isEmpty { root["pushes"] = .array(pushes) }
        let callbacks = o.window.compactMap { e -> JSONValue? in
            guard case .callback(let c) = e.kind else { return nil }
            var item: [String: JSONValue] = ["name": .string(c.name)]
            switch c {
            case .willPresent(let u, let options):
                item["user_info"] = u
                item["options"] = .string("\(options)")
            case .didReceiveRemoteNotification(let u, let state):
                item["user_info"] = u
                item["state"] = .string(state.rawValue)
            case .legacyDidReceiveRemoteNotification(let u): item["user_info"] = u
            case .didReceiveResponse(let action, let u):
                item["user_info"] = u
                item["action"] = .string(action)
            case .didFinishLaunching(let u?), .sceneWillConnect(let u?): item["user_info"] = u
            default: break
            }
            return .object(item)
        }
        if !callbacks.isEmpty { root["callbacks"] = .array(callbacks) }
        // What the step did: the notification presented in the window (not the one on the device now).
        let shown = o.windowNotification()
        if let n = o.object(of: shown) {
            var n = n.objectValue ?? [:]
            for field: NotificationField in [.banner, .list, .quiet] { n[field.rawValue] = o.value(field, of: shown) }
            root["notification"] = .object(n)
        }
        var extensions: [String: JSONValue] = [:]
        if let s = o.value(.extensions(.service)), s != .string("not-run") { extensions["service"] = s }
        if let c = o.value(.extensions(.content)) { extensions["content"] = c }
        if let r = o.value(.extensions(.response)) { extensions["response"] = r }
        if !extensions.isEmpty { root["extensions"] = .object(extensions) }
        let navigationEvents = o.window.compactMap { e -> JSONValue? in
            if case .navigation(let n) = e.kind { return .string(n.description) }
            return nil
        }
        var navigation: [String: JSONValue] = [:]
        if !navigationEvents.isEmpty { navigation["events"] = .array(navigationEvents) }
        for field: NavigationField in [.tabTitle, .stack, .title, .url, .alert, .alertMessage] {
            if let v = o.value(.navigation(field)) { navigation[field.rawValue] = v }
        }
        if !navigation.isEmpty { root["navigation"] = .object(navigation) }
        if case .array(let urls)? = o.value(.openedURLs), !urls.isEmpty { root["opened_urls"] = .array(urls) }
        var page: [String: JSONValue] = [:]
        for field: PageField in [.status, .title, .url, .failed, .openedExternally] {
            if let v = o.value(.page(field)) { page[field.rawValue] = v }
        }
        if !page.isEmpty { root["page"] = .object(page) }
        // ActivityKit's doings in the window, without tokens and dates (seeded or clock-bound).
        let kept = ["type", "activity_id", "attributes_type", "origin", "content_state", "alerted", "detail"]
        let activity = o.window.compactMap { e -> JSONValue? in
            guard case .activity = e.kind, case .object(let fields) = e.jsonValue else { return nil }
            return .object(fields.filter { kept.contains($0.key) })
        }
        if !activity.isEmpty { root["live_activity"] = .array(activity) }
        return .object(root)
    }

    static func push(_ entry: APNsLogEntry) -> JSONValue {
        var headers: [String: JSONValue] = [:]
        for h in entry.headers where requestHeaders.contains(h.name) { headers[h.name] = .string(h.value) }
        var o: [String: JSONValue] = [
            "status": .number(Double(entry.status)), "headers": .object(headers),
            "endpoint": .string(entry.endpoint.rawValue),
        ]
        if let r = entry.reason { o["reason"] = .string(r) }
        o["payload"] = (try? JSONValue.parse(entry.payload)) ?? .string(String(decoding: entry.payload, as: UTF8.self))
        return .object(o)
    }
}
