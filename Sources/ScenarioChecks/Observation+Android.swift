import DeviceSimulator
import FCMGateway
import Foundation
import PushModel
import SuiteFormat

/// What the checks see of an Android phone: its state when the `expect:` runs and its events since the previous
/// one (for the app and device-wide). `Observation.android` carries it; the same subjects are answered from it (a
/// tray notification where the iPhone has Notification Center, the top activity's router and extras where it has
/// the app's router and userInfo).
package struct AndroidObservation: Sendable {
    package var snapshot: AndroidDeviceState
    package var packageName: String
    package var window: [AndroidDeviceEvent]

    package init(snapshot: AndroidDeviceState, packageName: String, window: [AndroidDeviceEvent]) {
        self.snapshot = snapshot
        self.packageName = packageName
        self.window = window
    }

    /// The app's events since the device was set up (and device-wide ones).
    var appEvents: [AndroidDeviceEvent] {
        snapshot.events.filter { $0.packageName == packageName || $0.packageName == nil }
    }

    /// The app's latest posted notification (still in the tray or not), with the tray's current version of it.
    func latestNotification() -> AndroidTrayNotification? {
        let posted = appEvents.compactMap { e -> AndroidTrayNotification? in
            if case .notificationPosted(let n) = e.kind { n } else { nil }
        }.last
        guard let posted else { return nil }
        return snapshot.tray.first { $0.id == posted.id } ?? posted
    }

    /// The data the app's code last saw: `onMessageReceived`'s data, or the extras of an activity's intent.
    func latestData() -> [String: String]? {
        for e in appEvents.reversed() {
            guard case .callback(let c) = e.kind else { continue }
            switch c {
            case .onMessageReceived(let m): return m.data
            case .onCreate(_, _, let extras), .onNewIntent(_, _, let extras): if !extras.isEmpty { return extras }
            default: continue
            }
        }
        return nil
    }

    func value(_ subject: Subject, lastSend: SendRecord?) -> JSONValue? {
        let app = snapshot.apps[packageName]
        let messageID = lastSend?.apnsID ?? ""
        func s(_ v: String?) -> JSONValue? { v.map(JSONValue.string) }
        switch subject {
        case .delivered:
            guard lastSend != nil else { return nil }
            return .bool(
                appEvents.contains { if case .messageReceived(messageID, _, _) = $0.kind { true } else { false } })
        case .dropped: return dropped(lastSend)
        case .stored:
            guard lastSend != nil else { return nil }
            return .bool(snapshot.store.contains(messageID: messageID))
        case .callbacks:
            return .array(window.compactMap { if case .callback(let c) = $0.kind { .string(c.name) } else { nil } })
        case .callback: return nil
        case .userInfo(let path):
            return latestData().flatMap { lookup(path, in: .object($0.mapValues(JSONValue.string))) }
        case .extras(let key): return app?.task.last?.extras[key].map(JSONValue.string)
        case .notification(let field): return notification(field)
        case .channel: return s(latestNotification()?.channelID)
        case .tray:
            return .array(
                snapshot.tray.filter { $0.packageName == packageName }.map { .string($0.title ?? $0.body ?? "") })
        case .permission(let name):
            guard name == "POST_NOTIFICATIONS" || name == "android.permission.POST_NOTIFICATIONS" else { return nil }
            return s(app?.permission.rawValue)
        case .navigation(let field): return navigation(field, app)
        case .page(let field): return screen(app).value(field)
        case .openedURLs:
            return .array(window.compactMap { if case .urlOpened(let u, _) = $0.kind { .string(u) } else { nil } })
        case .install: return .string(app != nil ? "installed" : "not-installed")
        case .registration:
            if app?.fcmToken != nil { return .string("registered") }
            return .string(
                appEvents.contains { if case .tokenFailed = $0.kind { true } else { false } }
                    ? "failed" : "not-registered")
        case .findings: return .array([])
        case .symptoms: return .string("")
        case .token: return s(app?.fcmToken)
        case .state: return s(app?.state.rawValue)
        case .badge, .extensions, .reached, .callkit, .activity: return nil  // iPhone-only: badge, extensions, PushKit, ActivityKit
        case .status, .reason, .header, .timestamp, .fcmErrorCode, .fcmName, .exitCode, .stdout, .stderr: return nil
        }
    }

    /// Why the last send did not reach the app or did not show: the device's drop reason for that message (a
    /// display drop such as `post-notifications-not-granted` even when the data was delivered), FCM's refusal,
    /// `held: …` while it waits (offline store, Doze, direct boot), or a token no device holds.
    func dropped(_ s: SendRecord?) -> JSONValue? {
        guard let s else { return nil }
        if let fcm = s.fcm, fcm.status != 200 {
            return .string("rejected-by-fcm: \(fcm.errorCode ?? fcm.errorStatus ?? String(fcm.status))")
        }
        var received = false
        var deferral: AndroidDeferral?
        for e in appEvents {
            switch e.kind {
            case .messageDropped(s.apnsID, let reason): return .string(reason.code)
            case .messageReceived(s.apnsID, _, _): received = true
            case .messageDeferred(s.apnsID, let d): deferral = d
            default: break
            }
        }
        if received { return nil }
        if let deferral { return .string("held: \(deferral)") }
        return .string("not-routed-to-a-device (unknown token)")
    }

    func notification(_ field: NotificationField) -> JSONValue? {
        switch field {
        case .presented:
            return .bool(window.contains { if case .notificationPosted = $0.kind { true } else { false } })
        case .count: return .number(Double(snapshot.tray.filter { $0.packageName == packageName }.count))
        default: break
        }
        guard let n = latestNotification() else { return nil }
        func s(_ v: String?) -> JSONValue? { v.map(JSONValue.string) }
        switch field {
        case .id: return .string(n.id)
        case .title: return s(n.title)
        case .body: return s(n.body)
        case .sound: return s(n.sound)
        case .channel: return s(n.channelID)
        case .tag: return .string(n.tag)
        case .color: return s(n.color)
        case .icon: return .string(n.smallIcon)
        case .number: return n.number.map { .number(Double($0)) }
        case .presented, .count, .subtitle, .badge, .category, .threadID, .banner, .list, .quiet,
            .interruptionLevel, .actions, .actionTitles:
            return nil
        }
    }

    /// `navigation:`: the task's activities here, the rest as on the iPhone from the top activity's router
    /// (`ScreenObservation`), whose `top` falls back to the activity's own screen.
    func navigation(_ field: NavigationField, _ app: InstalledAndroidApp?) -> JSONValue? {
        guard let app else { return nil }
        switch field {
        case .activity: return app.task.last.map { .string($0.name) }
        case .activities: return .array(app.task.map { .string($0.name) })
        default: return screen(app).value(field)
        }
    }

    /// The top activity's router, the app's page and the window's navigation and WebView events: what
    /// `navigation:` and `page:` read.
    func screen(_ app: InstalledAndroidApp?) -> ScreenObservation {
        ScreenObservation(
            router: app?.task.last?.router, loggedIn: app?.loggedIn,
            navigation: window.compactMap { if case .navigation(let n) = $0.kind { n } else { nil } },
            webOutcomes: window.compactMap { if case .webView(let o) = $0.kind { o } else { nil } },
            webPage: app?.webPage, screenWithoutStack: snapshot.currentScreen(packageName))
    }

    /// `exactly:` / `at_least:` on an Android phone: `user_info` is the data the app last saw, `notification` the
    /// latest tray notification's fields, `payload` the bundle of the last message FCM handed to the phone.
    func object(_ whole: WholeObject, fcmRequests: [FCMLogEntry]) -> JSONValue? {
        switch whole {
        case .userInfo: return latestData().map { .object($0.mapValues(JSONValue.string)) }
        case .notification:
            guard latestNotification() != nil else { return nil }
            var o: [String: JSONValue] = [:]
            for field: NotificationField in [.title, .body, .sound, .channel, .tag, .color, .icon, .number] {
                if let v = notification(field) { o[field.rawValue] = v }
            }
            return .object(o)
        case .payload: return fcmRequests.flatMap(\.android).last?.json["bundle"]
        }
    }

    package static func render(_ events: [AndroidDeviceEvent]) -> String {
        events.map(\.description).joined(separator: "\n")
    }
}
