import Foundation
import YAMLSource

/// Which notification an action is about.
package enum NotificationRef: Sendable, Equatable, CustomStringConvertible {
    /// By id (`n1`, `n2`, …).
    case id(String)
    /// The most recently delivered one still in Notification Center.
    case latest
    /// The latest whose title equals this.
    case title(String)

    package var description: String {
        switch self {
        case .id(let i): return i
        case .latest: return "latest"
        case .title(let t): return "title '\(t)'"
        }
    }
}

/// One thing a user (or the system) does to the device: the operations a suite step and `serve`'s
/// control endpoint share.
package enum DeviceAction: Sendable, Equatable {
    case launch(app: String?)
    case background(app: String?)
    case suspend(app: String?)
    case terminate(app: String?)
    case forceQuit(app: String?)
    case reboot
    case online(Bool)
    case register(app: String?)
    case uninstall(app: String?)
    case authorize(app: String?, NotificationSettings)
    case tap(NotificationRef)
    case chooseAction(String, on: NotificationRef)
    case dismiss(NotificationRef)
    case expand(NotificationRef)
    case back(app: String?)
    /// The edge-swipe back gesture (bypasses a custom Back button action).
    case swipeBack(app: String?)
    case answerAlert(app: String?, button: String)
    case logIn(app: String?)
    case logOut(app: String?)
    case quickAction(app: String?, type: String)
    /// Android: Settings ▸ Force stop (the stopped state: nothing is delivered until the user launches it).
    case forceStop(app: String?)
    /// Android: Settings ▸ Storage ▸ Clear data (new token at the next launch, the old one UNREGISTERED).
    case clearData(app: String?)
    /// Android: Doze on (idle, unplugged, screen off) or off.
    case doze(Bool)
    /// Android: the POST_NOTIFICATIONS answer (`grant:` / `deny:`); on an iPhone `authorize:` is the permission.
    case permission(app: String?, granted: Bool)
    /// Android: the keyguard goes up (apps count as background) or is unlocked (the first unlock after a reboot
    /// ends direct boot).
    case lock(Bool)
    /// Android: a VIEW intent from outside the app (a browser, `adb shell am start -d <uri>`): the activity whose
    /// `<data>` matches opens, its routes `on: [link]` get the URI.
    case openLink(String)

    /// The app calls `Activity.request` (DeviceAction+LiveActivity.swift).
    case startActivity(app: String?, ActivityRequest)

    /// The platform an action exists on only (nil: both).
    package var onlyOn: DevicePlatform? {
        switch self {
        case .forceStop, .clearData, .doze, .permission, .lock, .openLink: .android
        case .suspend, .register, .chooseAction, .expand, .quickAction, .authorize, .startActivity: .ios
        default: nil
        }
    }
}

/// Why an action could not be applied.
package enum DeviceActionError: Error, Equatable, CustomStringConvertible {
    case noSuchApp(String?, installed: [String])
    case noSuchNotification(NotificationRef, available: [String])
    case interaction(InteractionError)
    case noAlertShowing(app: String, button: String)
    /// The action does not exist on this platform (`force_stop` on an iPhone, `expand` on Android).
    case notOnThisPlatform(action: String, platform: DevicePlatform)
    /// No installed app has an activity whose `<data>` matches the URI (Android resolves the intent to nothing).
    case noActivityForLink(String)

    package var description: String {
        switch self {
        case .noActivityForLink(let uri):
            return "no activity of an installed app handles \(uri) (no <data> of a VIEW intent filter matches)"
        case .notOnThisPlatform(let a, let p):
            return "\(a) is not an action of \(p == .ios ? "an iPhone" : "an Android phone")"
        case .noSuchApp(let app, let installed):
            let which =
                app.map { "app '\($0)' is not installed" } ?? "name the app: more than one (or none) is installed"
            return "\(which); installed: \(installed.isEmpty ? "none" : installed.joined(separator: ", "))"
        case .noSuchNotification(let ref, let available):
            return
                "no notification matches \(ref); in Notification Center: \(available.isEmpty ? "none (was it shown?)" : available.joined(separator: ", "))"
        case .interaction(let e): return e.description
        case .noAlertShowing(let app, let button):
            return "\(app): cannot press '\(button)': no alert with that button is showing"
        }
    }
}

extension SimulatedDevice {
    /// Applies `action` and returns the events it caused.
    @discardableResult
    package func apply(_ action: DeviceAction) throws(DeviceActionError) -> [DeviceEvent] {
        let channels = broadcastChannels.withLock { $0 }
        return try perform { (s: inout DeviceState, now: Date) throws(DeviceActionError) in
            try s.apply(action, channels: channels, now: now)
        }.events
    }
}

/// What an action names, resolved the same way on both phones: the app (or the only one installed), and a shown
/// notification by reference (`latest`: the most recently shown one still there, ties by id; `title`: the last
/// with that title).
enum ActionTarget {
    static func app(_ app: String?, installed: [String]) throws(DeviceActionError) -> String {
        if let app {
            guard installed.contains(app) else { throw .noSuchApp(app, installed: installed) }
            return app
        }
        guard installed.count == 1 else { throw .noSuchApp(nil, installed: installed) }
        return installed[0]
    }

    /// The id of the notification `ref` names among `shown` (Notification Center, or the Android tray).
    static func notification<N>(
        _ ref: NotificationRef, in shown: [N], id: (N) -> String, shownAt: (N) -> Date, title: (N) -> String?,
        body: (N) -> String?
    ) throws(DeviceActionError) -> String {
        let found: N?
        switch ref {
        case .id(let want): found = shown.first { id($0) == want }
        case .latest:
            found = shown.max { shownAt($0) < shownAt($1) || (shownAt($0) == shownAt($1) && id($0) < id($1)) }
        case .title(let t): found = shown.last { title($0) == t }
        }
        guard let found else {
            throw .noSuchNotification(ref, available: shown.map { "\(id($0)) '\(title($0) ?? body($0) ?? "")'" })
        }
        return id(found)
    }
}

extension DeviceState {
    func resolveApp(_ app: String?) throws(DeviceActionError) -> String {
        try ActionTarget.app(app, installed: apps.keys.sorted())
    }

    func resolveNotification(_ ref: NotificationRef) throws(DeviceActionError) -> String {
        try ActionTarget.notification(
            ref, in: notificationCenter, id: \.id, shownAt: \.deliveredAt, title: \.content.title, body: \.content.body)
    }

    /// Applies a `DeviceAction`.
    /// `channels`: where a `start_activity` with a channel checks it (`BroadcastChannelLookup`).
    package mutating func apply(
        _ action: DeviceAction, channels: BroadcastChannelLookup = .unwired, now: Date
    ) throws(DeviceActionError) {
        switch action {
        case .launch(let a): launch(try resolveApp(a), now: now)
        case .background(let a): moveToBackground(try resolveApp(a), now: now)
        case .suspend(let a): suspend(try resolveApp(a), now: now)
        case .terminate(let a): terminate(try resolveApp(a), now: now)
        case .forceQuit(let a): forceQuit(try resolveApp(a), now: now)
        case .reboot: reboot(now: now)
        case .online(let on): setOnline(on, now: now)
        case .register(let a): registerForRemoteNotifications(try resolveApp(a), now: now)
        case .uninstall(let a): uninstall(try resolveApp(a), now: now)
        case .authorize(let a, let settings): setNotificationSettings(settings, for: try resolveApp(a), now: now)
        case .tap(let ref):
            let id = try resolveNotification(ref)
            do throws(InteractionError) { try tap(id, now: now) } catch { throw .interaction(error) }
        case .chooseAction(let actionID, let ref):
            let id = try resolveNotification(ref)
            do throws(InteractionError) { try chooseAction(actionID, on: id, now: now) } catch {
                throw .interaction(error)
            }
        case .dismiss(let ref):
            let id = try resolveNotification(ref)
            do throws(InteractionError) { try dismiss(id, now: now) } catch { throw .interaction(error) }
        case .expand(let ref):
            let id = try resolveNotification(ref)
            do throws(InteractionError) { try expand(id, now: now) } catch { throw .interaction(error) }
        case .back(let a): pressBack(try resolveApp(a), now: now)
        case .swipeBack(let a): swipeBack(try resolveApp(a), now: now)
        case .answerAlert(let a, let button):
            let app = try resolveApp(a)
            guard answerAlert(app, button: button, now: now) else { throw .noAlertShowing(app: app, button: button) }
        case .logIn(let a): logIn(try resolveApp(a), now: now)
        case .logOut(let a): logOut(try resolveApp(a))
        case .quickAction(let a, let type): performQuickAction(try resolveApp(a), type: type, now: now)
        case .forceStop, .clearData, .doze, .permission, .lock, .openLink:
            throw .notOnThisPlatform(action: "\(action)", platform: .ios)
        case .startActivity(let a, let request):
            startActivity(try resolveApp(a), request, channels: channels, now: now)
        }
    }
}

extension DeviceAction {
    /// The action keys (`keyTable`, DeviceAction+Keys.swift) are a suite's device steps too (`foreground`,
    /// `offline`, `authorization` and `state` are suite spellings).
    ///
    /// Decodes `{ tap: latest }`, `{ launch: com.example.app }`, `{ action: open, on: n1 }`,
    /// `{ answer_alert: OK, app: … }`, `{ quick_action: camera }`, `{ online: false }`, `{ reboot: true }`.
    /// A notification reference is `latest` (or `true`), an id like `n2`, or `{ title: … }`.
    package static func decode(_ m: YAMLMapping) throws(SourceError) -> DeviceAction {
        try m.checkKeys(allowed: yamlKeys + targetTable.names)
        let key = try m.exactlyOne(of: yamlKeys)
        let value = m[key]!
        return try decode(key, value: value, app: try m.optional("app"), on: m["on"], at: value)
    }

    /// One action from its key and value (nil or null for a bare `- reboot`): what a suite step and the
    /// control endpoint both decode with. `app` is the `app:` next to it (a lifecycle key's value may
    /// name the app instead); `on` the notification an `action` applies to; `node` is where errors point.
    package static func decode(_ key: String, value: YAMLNode?, app appKey: String?, on: YAMLNode?, at node: YAMLNode)
        throws(SourceError) -> DeviceAction
    {
        let value = value.flatMap { $0.isNull ? nil : $0 }
        func app() throws(SourceError) -> String? {
            guard let value, value.scalar?.value != "true" else { return appKey }
            return try String.decode(from: value)
        }
        func required() throws(SourceError) -> YAMLNode {
            guard let value else { throw node.invalidValue(expected: "a value for '\(key)'") }
            return value
        }
        func text() throws(SourceError) -> String { try String.decode(from: try required()) }
        func flag() throws(SourceError) -> Bool {
            try value.map { (v: YAMLNode) throws(SourceError) in try Bool.decode(from: v) } ?? true
        }
        func ref(_ node: YAMLNode?) throws(SourceError) -> NotificationRef {
            guard let node, !node.isNull else { return .latest }
            if node.pairs != nil {
                let r = try YAMLMapping(node)
                try r.checkKeys(notificationRefTable)
                if let t: String = try r.optional("title") { return .title(t) }
                return .id(try r.required("id"))
            }
            let text = try String.decode(from: node)
            return text == "latest" || text == "true" ? .latest : .id(text)
        }
        switch key {
        case "launch", "foreground": return .launch(app: try app())
        case "background": return .background(app: try app())
        case "suspend": return .suspend(app: try app())
        case "terminate": return .terminate(app: try app())
        case "force_quit": return .forceQuit(app: try app())
        case "state":
            switch AppState(rawValue: try required().oneOf(AppState.allCases.map(\.rawValue)))! {
            case .foreground: return .launch(app: appKey)
            case .background: return .background(app: appKey)
            case .suspended: return .suspend(app: appKey)
            case .notRunning: return .terminate(app: appKey)
            case .forceQuit: return .forceQuit(app: appKey)
            }
        case "reboot": return .reboot
        case "online": return .online(try flag())
        case "offline": return .online(!(try flag()))
        case "register": return .register(app: try app())
        case "uninstall": return .uninstall(app: try app())
        case "authorize", "authorization":
            return .authorize(app: appKey, try AppDeclaration.decodeAuthorization(try required()))
        case "tap": return .tap(try ref(value))
        case "action":
            let v = try required()
            guard v.pairs != nil else { return .chooseAction(try String.decode(from: v), on: try ref(on)) }
            // The suite spelling: `action: { id: open, notification: n2 }`.
            let a = try YAMLMapping(v)
            try a.checkKeys(actionTable)
            return .chooseAction(try a.required("id"), on: try ref(a["notification"]))
        case "dismiss": return .dismiss(try ref(value))
        case "expand": return .expand(try ref(value))
        case "back": return .back(app: try app())
        case "swipe_back": return .swipeBack(app: try app())
        case "answer_alert": return .answerAlert(app: appKey, button: try text())
        case "log_in": return .logIn(app: try app())
        case "log_out": return .logOut(app: try app())
        case "quick_action": return .quickAction(app: appKey, type: try text())
        case "force_stop": return .forceStop(app: try app())
        case "lock": return .lock(try flag())
        case "open_link": return .openLink(try text())
        case "unlock": return .lock(!(try flag()))
        case "clear_data": return .clearData(app: try app())
        case "doze":
            let v = try required()
            if let t = v.scalar?.value, keyTable.choices("doze").contains(t) { return .doze(t == "on") }
            return .doze(try Bool.decode(from: v))
        case "grant", "deny":
            if let v = value, v.scalar?.value != "true" {
                _ = try v.oneOf(keyTable.choices(key))
            }
            return .permission(app: appKey, granted: key == "grant")
        case "start_activity": return .startActivity(app: appKey, try ActivityRequest.decode(try required()))
        default: throw node.invalidValue(expected: "one of: \(yamlKeys.joined(separator: ", "))")
        }
    }
}
