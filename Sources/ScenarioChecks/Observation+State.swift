import DeviceSimulator
import Foundation
import PushModel
import SuiteFormat

/// A notification as iOS presented it: the event that presented it (or, after a collapse-id replacement,
/// presented it again) with its content and how it was shown.
struct ShownNotification: Sendable {
    var id: String
    var content: NotificationContent
    var presentation: Presentation
    /// The presenting event's `DeviceEvent.sequence`.
    var sequence: Int
}

/// The checks of state (`CheckScope.state`): the app as it is when the block runs (its latest notification, the
/// userInfo it last got), whichever step the block is attached to and however far back that happened, so two
/// `expect:` blocks in a row agree.
extension Observation {
    /// The app's events (and device-wide ones) since the device was set up.
    var appEvents: [DeviceEvent] { snapshot.events.filter { $0.bundleID == bundleID || $0.bundleID == nil } }

    /// The app's latest notification: the last one iOS presented for it, whenever that was, still in
    /// Notification Center or since tapped or dismissed (`count` says what Notification Center holds). With
    /// `request:`, the picked push's own notification.
    func latestNotification() -> ShownNotification? {
        Self.presentations(in: pickedPush ? window : appEvents).last
    }

    /// The last notification presented in the window (what a `snapshot:` records: what the step did).
    func windowNotification() -> ShownNotification? { Self.presentations(in: window).last }

    static func presentations(in events: [DeviceEvent]) -> [ShownNotification] {
        events.compactMap { e -> ShownNotification? in
            guard case .notificationPresented(let id, let content, let presentation) = e.kind else { return nil }
            return ShownNotification(id: id, content: content, presentation: presentation, sequence: e.sequence)
        }
    }

    /// The `userInfo` the app last got, and the event that carried it: the latest push's, from a callback when one
    /// carried it (what the app's code saw) or else from the notification that push presented; a later tap's
    /// callback carries the tapped notification's. With `request:`, the picked push's.
    func userInfoSource() -> (userInfo: JSONValue, event: DeviceEvent)? {
        var presented: (userInfo: JSONValue, event: DeviceEvent)?
        for e in (pickedPush ? window : appEvents).reversed() {
            switch e.kind {
            case .callback(let c):
                if let u = CallbackField.userInfo.argument(of: c) { return (u, e) }
            case .notificationPresented(_, let content, _):
                if presented == nil { presented = (content.userInfo, e) }
            case .pushReceived:
                // The start of the push that presented it: no callback of that push carried a userInfo.
                if let presented { return presented }
            default: break
            }
        }
        return presented
    }

    /// `user_info:` and `exactly: { user_info }`.
    func userInfo() -> JSONValue? { userInfoSource()?.userInfo }

    /// `notification: { <field> }`: `presented` is an event (a notification presented in the window), `count`
    /// the app's notifications in Notification Center, every other field one of the latest notification's.
    func notification(_ field: NotificationField) -> JSONValue? {
        switch field {
        case .presented:
            return .bool(window.contains { if case .notificationPresented = $0.kind { true } else { false } })
        case .count:
            // Notification Center only: a banner-only (`.banner` without `.list`) notification is not kept.
            return .number(
                Double(snapshot.notificationCenter.filter { $0.bundleID == bundleID && $0.presentation.list }.count))
        default:
            return value(field, of: latestNotification())
        }
    }

    /// A field of `shown` (nil when there is none or it lacks the field).
    func value(_ field: NotificationField, of shown: ShownNotification?) -> JSONValue? {
        guard let shown else { return nil }
        let content = shown.content
        let p = shown.presentation
        func s(_ v: String?) -> JSONValue? { v.map(JSONValue.string) }
        switch field {
        case .presented: return .bool(true)
        case .count: return notification(.count)
        case .actions, .actionTitles: return NotificationActions.offered(field, content, self)
        case .id: return .string(shown.id)
        case .title: return s(content.title)
        case .subtitle: return s(content.subtitle)
        case .body: return s(content.body)
        case .badge: return content.badge.map { .number(Double($0)) }
        // What the device played, not what the payload asked for: absent (`sound: none` matches) when no sound
        // was played (authorization's sound off, provisional/quiet delivery, `passive`, willPresent without `.sound`).
        case .sound: return s(p.sound)
        case .category: return s(content.categoryID)
        case .threadID: return s(content.threadID)
        case .interruptionLevel: return .string(p.interruptionLevel)
        case .banner: return .bool(p.banner)
        case .list: return .bool(p.list)
        case .quiet: return .bool(p.quiet)
        case .channel, .tag, .color, .icon, .number: return nil
        }
    }

    /// `shown` as an object of its fields (absent ones left out): `exactly:`/`at_least: { notification }` and
    /// the snapshot's `notification`.
    func object(of shown: ShownNotification?) -> JSONValue? {
        guard let shown else { return nil }
        var o: [String: JSONValue] = [:]
        let fields: [NotificationField] = [
            .title, .subtitle, .body, .badge, .sound, .category, .threadID, .interruptionLevel,
        ]
        for field in fields {
            if let v = value(field, of: shown) { o[field.rawValue] = v }
        }
        return .object(o)
    }

    // MARK: what a failure says it read

    /// `[read: …]` after a failed check's actual value: which state or which window it looked at (nothing for the
    /// last send or run, which a block has one of).
    func readNote(_ scope: CheckScope, subject: Subject? = nil) -> String {
        if let android {
            switch scope {
            case .window:
                let w = android.window
                guard let first = w.first, let last = w.last else {
                    return " [read: \(CheckScope.window.rawValue): none]"
                }
                return " [read: \(CheckScope.window.rawValue): #\(first.sequence)–#\(last.sequence)]"
            case .state: return " [read: the current state]"
            case .lastSend: return noSendNote
            case .lastRun, .deviceLog: return ""
            }
        }
        switch scope {
        case .window: return " [read: \(windowDescription)]"
        case .state:
            if pickedPush { return " [read: \(windowDescription)]" }
            switch subject {
            case .notification(.count)?: return " [read: the current state: Notification Center]"
            case .notification?: return " [read: the current state: \(latestNotificationDescription)]"
            case .userInfo?: return " [read: the current state: \(userInfoDescription)]"
            default: return " [read: the current state]"
            }
        case .lastSend: return noSendNote
        case .lastRun, .deviceLog: return ""
        }
    }

    /// ` (the run: step's backend made no request)` when there is no last send and the runner knows why.
    var noSendNote: String {
        guard lastSend == nil, let lastSendNote else { return "" }
        return " (\(lastSendNote))"
    }

    /// `the events since the previous expect: #9–#14` (or `: none`; with `request:`, the picked push's events).
    var windowDescription: String {
        let what = pickedPush ? "the events of the push picked by request:" : CheckScope.window.rawValue
        guard let first = window.first, let last = window.last else { return what + ": none" }
        return what
            + (first.sequence == last.sequence ? ": #\(first.sequence)" : ": #\(first.sequence)–#\(last.sequence)")
    }

    var latestNotificationDescription: String {
        guard let n = latestNotification() else { return "no notification of \(bundleID) was presented" }
        let gone = !snapshot.notificationCenter.contains { $0.id == n.id && $0.bundleID == bundleID }
        return "notification \(n.id), presented at #\(n.sequence)" + (gone ? ", no longer in Notification Center" : "")
    }

    var userInfoDescription: String {
        guard let (_, event) = userInfoSource() else {
            return "no callback or notification of \(bundleID) carried a userInfo"
        }
        switch event.kind {
        case .callback(let c): return "the userInfo of callback \(c.name) at #\(event.sequence)"
        case .notificationPresented(let id, _, _):
            return "the userInfo of notification \(id), presented at #\(event.sequence)"
        default: return "the userInfo at #\(event.sequence)"
        }
    }
}
