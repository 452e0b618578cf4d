import DeviceSimulator
import Foundation
import PushModel

extension HostedDevice {
    /// The device's current state as JSON, for `serve`'s `GET /devices/{name}`: apps (state,
    /// authorization, token, badge, navigation), the notification center, and the event count
    /// (`last_seq` is what to pass as `since` to read only newer events).
    package var snapshotJSON: JSONValue {
        switch engine {
        case .iphone(let d):
            let s = d.snapshot
            guard case .object(var o) = Self.snapshotJSON(name: name, s) else { return .null }
            o["live_activities"] = Self.liveActivitiesJSON(s, now: d.clock.now())
            return .object(o)
        case .android(let d):
            // What the clock made due first (a Doze window that opened while nobody touched the phone in serve).
            d.advanceTime()
            return d.snapshot.snapshotJSON(name: name)
        }
    }

    /// The sequence of the newest event (0: none yet).
    package var lastEventSequence: Int {
        switch engine {
        case .iphone(let d): return d.events.last?.sequence ?? 0
        case .android(let d): return d.events.last?.sequence ?? 0
        }
    }

    /// The event log as one line per event (`#5 com.example.app: …`) from index `from` on, and how many events there
    /// are: what a transcript copies as events happen.
    package func eventLines(from: Int) -> (lines: [String], count: Int) {
        switch engine {
        case .iphone(let d):
            let e = d.events
            return (from < e.count ? e[from...].map { $0.description } : [], e.count)
        case .android(let d):
            let e = d.events
            return (from < e.count ? e[from...].map { $0.description } : [], e.count)
        }
    }

    /// One line per installed app with the address a backend pushes to: the APNs token for an iPhone's app, the
    /// FCM token for an Android app (`device pixel (Android, pc-…): com.example.shop FCM token …`).
    package var addressLines: [String] {
        let udid = declaration?.udid ?? ""
        switch engine {
        case .iphone(let d):
            return d.snapshot.apps.sorted { $0.key < $1.key }.map { id, app in
                "device \(name) (\(udid)): \(id) token \(app.token?.hex ?? "none")"
            }
        case .android(let d):
            return d.snapshot.apps.sorted { $0.key < $1.key }.map { pkg, app in
                "device \(name) (Android, \(udid)): \(pkg) FCM token \(app.fcmToken ?? "none")"
            }
        }
    }

    /// Whether the device is online.
    package var isOnline: Bool {
        switch engine {
        case .iphone(let d): return d.snapshot.online
        case .android(let d): return d.snapshot.online
        }
    }

    /// Applies a shared device action (a suite's device step, `POST /devices/{name}/actions`) to whichever phone
    /// this is; an action the platform does not have is `DeviceActionError.notOnThisPlatform`.
    package func apply(_ action: DeviceAction) throws(DeviceActionError) {
        switch engine {
        case .iphone(let d): try d.apply(action)
        case .android(let d): try d.apply(action)
        }
    }

    /// Pure: one device state as JSON.
    package static func snapshotJSON(name: String, _ s: DeviceState) -> JSONValue {
        var apps: [String: JSONValue] = [:]
        for (id, app) in s.apps { apps[id] = appJSON(app) }
        var o: [String: JSONValue] = [
            "name": .string(name), "udid": .string(s.udid), "ios": .string(s.iosVersion), "online": .bool(s.online),
            "apps": .object(apps),
            "notification_center": .array(s.notificationCenter.map(notificationJSON)),
            "event_count": .number(Double(s.events.count)),
            "last_seq": .number(Double(s.events.last?.sequence ?? 0)),
        ]
        // What the simulator limits dropped (DeviceRules), only once something was.
        if s.eventsDropped > 0 { o["events_dropped"] = .number(Double(s.eventsDropped)) }
        if s.notificationsDropped > 0 { o["notifications_dropped"] = .number(Double(s.notificationsDropped)) }
        return .object(o)
    }

    static func optional(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
    static func time(_ d: Date) -> JSONValue { .string(d.formatted(.iso8601)) }

    static func appJSON(_ app: InstalledApp) -> JSONValue {
        let st = app.settings
        var o: [String: JSONValue] = [
            "state": .string(app.state.rawValue),
            "authorization": .object([
                "status": .string(st.status.rawValue), "alert": .bool(st.alert), "sound": .bool(st.sound),
                "badge": .bool(st.badge), "notification_center": .bool(st.notificationCenter),
                "critical_alert": .bool(st.criticalAlert),
            ]),
            "token": optional(app.token?.hex),
            "environment": optional(app.environment?.rawValue),
            "badge": app.badge.map { .number(Double($0)) } ?? .null,
            "navigation": navigationJSON(app.router),
        ]
        if !app.pushTokens.isEmpty {
            o["push_tokens"] = .object(
                Dictionary(
                    uniqueKeysWithValues: app.pushTokens.map { ($0.key.rawValue, JSONValue.string($0.value.hex)) }))
        }
        if let fcm = app.fcmToken {
            o["fcm_token"] = .string(fcm)
            o["fcm_mapped"] = .bool(app.fcmMappedToAPNs)
        }
        if let page = app.webPage {
            o["web_page"] = .object([
                "url": .string(page.finalURL), "status": .number(Double(page.status)), "title": optional(page.title),
                "links": .array(page.links.map { .string($0.href) }),
                "requested_url": .string(page.requestedURL),
                "redirects": .array(
                    page.redirectChain.map {
                        ["status": .number(Double($0.status)), "from": .string($0.from), "to": .string($0.to)]
                    }),
                // The document as served (its first WebPage.sourceLimit bytes), for the console's sandboxed frame.
                "html": .string(page.source), "html_truncated": .bool(page.sourceTruncated),
                "served_bytes": .number(Double(page.servedBytes)),
            ])
        }
        return .object(o)
    }

    static func navigationJSON(_ r: Router) -> JSONValue {
        let tabs = r.declaration.tabs
        var o: [String: JSONValue] = [
            "selected_tab": .number(Double(r.selectedTab)),
            "tab_title": tabs.indices.contains(r.selectedTab) ? .string(tabs[r.selectedTab]) : .null,
            "stack": .array(
                r.stack.map { .object(["id": .string($0.id), "title": .string($0.title), "url": optional($0.url)]) }),
            "logged_in": .bool(r.loggedIn),
        ]
        if let a = r.alert {
            o["alert"] = .object([
                "title": .string(a.alert.title), "message": .string(a.alert.message),
                "buttons": .array(a.alert.buttons.map(JSONValue.string)), "confirms_back": .bool(a.confirmsBack),
            ])
        } else {
            o["alert"] = .null
        }
        return .object(o)
    }

    static func notificationJSON(_ n: PresentedNotification) -> JSONValue {
        let c = n.content
        return .object([
            "id": .string(n.id), "bundle_id": .string(n.bundleID), "title": optional(c.title),
            "subtitle": optional(c.subtitle), "body": optional(c.body),
            "badge": c.badge.map { .number(Double($0)) } ?? .null,
            "sound": optional(c.sound), "category": optional(c.categoryID), "thread_id": optional(c.threadID),
            "collapse_id": optional(n.collapseID), "delivered_at": time(n.deliveredAt),
            "banner": .bool(n.presentation.banner), "list": .bool(n.presentation.list),
            "quiet": .bool(n.presentation.quiet), "user_info": c.userInfo,
        ])
    }

    /// The event log from `since` (exclusive; 0 = everything) as JSON: `{"device": …, "events": […], "last_seq": N}` (pass `last_seq` as the next `since`).
    func eventsJSON(since: Int = 0) -> JSONValue {
        let events: [JSONValue]
        let last: Int
        switch engine {
        case .iphone:
            let e = self.events(since: since)
            events = e.map(\.jsonValue)
            last = e.last?.sequence ?? since
        case .android(let d):
            d.advanceTime()
            let e = d.events.filter { $0.sequence > since }
            events = e.map(\.jsonValue)
            last = e.last?.sequence ?? since
        }
        return .object(["device": .string(name), "events": .array(events), "last_seq": .number(Double(last))])
    }
}
