import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Tests/reference/android.md §1–2: one row per (message kind, app state) with the callbacks in order, whether the tray
/// shows it, what was dropped, and the app's state afterwards. Each row names its source.
@Suite struct AndroidDeliveryTableTests {
    struct Row: Sendable, CustomStringConvertible {
        var kind: AndroidMessageKind
        var state: AndroidAppState
        var locked = false
        var callbacks: [String]
        var tray: Bool
        var dropped: [String] = []
        var after: AndroidAppState
        var source: String
        var description: String { "\(kind.rawValue) @ \(state.rawValue)\(locked ? " locked" : "") [\(source)]" }
    }

    static let rows: [Row] = [
        // Notification message: tray unless in the foreground, never onMessageReceived in the background.
        Row(
            kind: .notification, state: .foreground, callbacks: ["onMessageReceived"], tray: false, after: .foreground,
            source: "F-RECV table; R-SDK dispatchMessage"),
        Row(
            kind: .notification, state: .background, callbacks: [], tray: true, after: .background,
            source: "F-RECV table"),
        Row(
            kind: .notification, state: .killed, callbacks: ["applicationOnCreate"], tray: true, after: .background,
            source: "F-RECV table; R-SDK: the SDK in the app's process posts it"),
        Row(
            kind: .notification, state: .forceStopped, callbacks: [], tray: false, dropped: ["app-force-stopped"],
            after: .forceStopped, source: "Android 3.1 stopped state"),
        Row(
            kind: .notification, state: .foreground, locked: true, callbacks: [], tray: true, after: .foreground,
            source: "R-SDK isAppForeground: keyguard locked = background"),
        // Data message: onMessageReceived in every state but stopped.
        Row(
            kind: .data, state: .foreground, callbacks: ["onMessageReceived"], tray: false, after: .foreground,
            source: "F-RECV table"),
        Row(
            kind: .data, state: .background, callbacks: ["onMessageReceived"], tray: false, after: .background,
            source: "F-RECV table"),
        Row(
            kind: .data, state: .killed, callbacks: ["applicationOnCreate", "onMessageReceived"], tray: false,
            after: .background, source: "F-RECV table"),
        Row(
            kind: .data, state: .forceStopped, callbacks: [], tray: false, dropped: ["app-force-stopped"],
            after: .forceStopped, source: "Android 3.1 stopped state"),
        // Both: like a notification message, the data in the tap intent's extras.
        Row(
            kind: .notificationAndData, state: .foreground, callbacks: ["onMessageReceived"], tray: false,
            after: .foreground, source: "F-RECV table"),
        Row(
            kind: .notificationAndData, state: .background, callbacks: [], tray: true, after: .background,
            source: "F-RECV table: data in the launcher intent's extras"),
        Row(
            kind: .notificationAndData, state: .killed, callbacks: ["applicationOnCreate"], tray: true,
            after: .background, source: "F-RECV table"),
        Row(
            kind: .notificationAndData, state: .forceStopped, callbacks: [], tray: false,
            dropped: ["app-force-stopped"], after: .forceStopped, source: "Android 3.1 stopped state"),
    ]

    @Test(arguments: rows)
    func deliveryByAppState(row: Row) {
        let (d, _) = AndroidFixture.ready(state: row.state)
        if row.locked { d.lock() }
        let m = AndroidFixture.message(d, kind: row.kind)
        let (result, events) = d.deliver(m)
        #expect(AndroidFixture.callbacks(events) == row.callbacks)
        #expect(!AndroidFixture.posted(events).isEmpty == row.tray)
        #expect(AndroidFixture.drops(events) == row.dropped)
        #expect(AndroidFixture.state(d) == row.after)
        #expect(result == (row.dropped.isEmpty ? .delivered : .dropped(.appForceStopped)))
        // The handler gets both parts; the developer data excludes FCM's own keys.
        for r in AndroidFixture.received(events) {
            #expect(r.data == m.data)
            #expect((r.notification != nil) == (row.kind != .data))
            #expect(r.from == AndroidFixture.firebase.senderID)
        }
        // The tray notification's extras carry the data and FCM's keys, never gcm.n.*.
        for n in AndroidFixture.posted(events) {
            for (k, v) in m.data { #expect(n.extras[k] == v) }
            #expect(n.extras["google.message_id"] == m.messageID)
            #expect(n.extras["from"] == "123456789012")
            #expect(n.extras["collapse_key"] == AndroidFixture.pkg)
            #expect(!n.extras.keys.contains { $0.hasPrefix("gcm.") })
            #expect(n.title == "Breaking" && n.body == "News")
        }
    }

    /// Default priority: HIGH for notification messages, NORMAL for data ([G-API] AndroidMessagePriority, [F-PRIO]).
    @Test func defaultPriorityByKind() {
        let (d, _) = AndroidFixture.ready(state: .foreground)
        #expect(AndroidFixture.message(d, kind: .data).priority == .normal)
        #expect(AndroidFixture.message(d, kind: .notification).priority == .high)
        #expect(AndroidFixture.message(d, kind: .notificationAndData, priority: .normal).priority == .normal)
        let r = AndroidFixture.received(d.deliver(AndroidFixture.message(d, kind: .data, priority: .high)).events)
        #expect(r.first?.priority == .high && r.first?.originalPriority == .high)
    }

    /// No FirebaseMessagingService subclass: the SDK's base service still shows background notifications, but
    /// onMessageReceived is empty: data messages and foreground notifications are lost ([R-SDK] manifest).
    @Test func withoutAMessagingServiceDataIsLost() {
        let (d, _) = AndroidFixture.ready(AndroidFixture.app(messagingService: nil), state: .background)
        let data = d.deliver(AndroidFixture.message(d, kind: .data)).events
        #expect(AndroidFixture.callbacks(data) == [])
        #expect(AndroidFixture.drops(data) == ["no-messaging-service"])
        let notification = d.deliver(AndroidFixture.message(d, kind: .notification)).events
        #expect(AndroidFixture.posted(notification).count == 1)
        _ = try? d.launch(AndroidFixture.pkg)
        let foreground = d.deliver(AndroidFixture.message(d, kind: .notificationAndData)).events
        #expect(AndroidFixture.drops(foreground) == ["no-messaging-service"])
        #expect(AndroidFixture.posted(foreground).isEmpty)
    }

    /// The ~20 s window (10 s for normal priority, choice): a slower handler in the background loses its unfinished
    /// work (its own notification); in the foreground it is not cut off ([R-SDK] Javadoc, [F-PRIO]).
    @Test(arguments: [
        (AndroidMessagePriority.high, 15.0, AndroidAppState.background, false),
        (.high, 25, .background, true),
        (.normal, 15, .background, true),
        (.normal, 5, .killed, false),
        (.normal, 60, .foreground, false),
    ])
    func handlingWindow(priority: AndroidMessagePriority, duration: TimeInterval, state: AndroidAppState, cut: Bool) {
        let handler = AndroidMessageHandler(
            duration: duration, postsNotification: AndroidAppNotification(channelID: "news", titleKey: "headline"))
        let (d, _) = AndroidFixture.ready(AndroidFixture.app(handler: handler), state: state)
        let events = d.deliver(AndroidFixture.message(d, kind: .data, priority: priority)).events
        #expect(AndroidFixture.callbacks(events).last == "onMessageReceived")
        #expect(AndroidFixture.drops(events) == (cut ? ["handler-timeout"] : []))
        #expect(AndroidFixture.posted(events).map(\.poster) == (cut ? [] : [.app]))
    }

    /// The SDK ignores a message id among the last 10 it received ([R-SDK] RECENTLY_RECEIVED_MESSAGE_IDS_MAX_SIZE).
    @Test func duplicateMessageIDsAreIgnored() {
        let (d, _) = AndroidFixture.ready(state: .background)
        let first = AndroidFixture.message(d, kind: .data, id: "0:1%dup")
        #expect(AndroidFixture.callbacks(d.deliver(first).events) == ["onMessageReceived"])
        #expect(AndroidFixture.drops(d.deliver(first).events) == ["duplicate-message-id"])
        for i in 0..<10 { d.deliver(AndroidFixture.message(d, kind: .data, id: "0:\(i)%other")) }
        #expect(AndroidFixture.callbacks(d.deliver(first).events) == ["onMessageReceived"])
    }

    /// A message for another package, or for the app's previous token, is not this device's.
    @Test func wrongTokenOrPackageIsRejected() {
        let (d, _) = AndroidFixture.ready(state: .background)
        var m = AndroidFixture.message(d)
        m.token = "stale:APA91bOLD"
        #expect(d.deliver(m).result == .rejected(.tokenNotRegistered))
        m = AndroidFixture.message(d)
        m.packageName = "com.example.other"
        #expect(d.deliver(m).result == .rejected(.appNotInstalled))
    }
}
