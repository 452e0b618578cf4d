import Foundation
import PushModel

/// The life-cycle state of an installed Android app, as far as FCM delivery cares (Tests/reference/android.md §1).
package enum AndroidAppState: String, Sendable, Equatable, CaseIterable {
    /// An activity of the app is resumed (with the keyguard unlocked: see `AndroidDeviceState.isForeground`).
    case foreground
    /// The process runs, nothing on screen (cached, or started for a message).
    case background
    /// No process (killed by the system, or after a reboot): an FCM message starts it again.
    case killed
    /// The package's stopped state: force-stopped in Settings, or installed and never launched. "Applications are in
    /// a stopped state when they are first installed but are not yet launched and when they are manually stopped by
    /// the user"; broadcasts (FCM's included) skip them until a component is launched by the user (Android 3.1 launch
    /// controls; AOSP frameworks/base e7f9721 "Introduce application stopped state").
    case forceStopped = "force-stopped"

    var isRunning: Bool { self == .foreground || self == .background }
}

/// Why an Android app changed state.
package enum AndroidTransitionReason: String, Sendable, Equatable {
    case userLaunch = "user-launch"
    case userWentHome = "user-went-home"
    case systemKill = "system-kill"
    case userForceStop = "user-force-stop"
    case dataCleared = "data-cleared"
    case reboot
    case startedForMessage = "started-for-message"
    case notificationTap = "notification-tap"
    case deepLink = "deep-link"
    /// Back on the root launcher activity: the task moves to the back, the activity is not finished (Android 12+).
    case backMovedTaskToBack = "back-moved-task-to-back"
    /// Back on the last activity of the task: it is finished.
    case backFinishedTask = "back-finished-task"
}

/// How the kind of an FCM message reads on the device.
package enum AndroidMessageKind: String, Sendable, Equatable {
    case notification
    case data
    case notificationAndData = "notification+data"

    package init(_ m: AndroidMessage) {
        self = m.notification == nil ? .data : m.data.isEmpty ? .notification : .notificationAndData
    }
}

/// What `onMessageReceived(RemoteMessage)` gets ([R-SDK] `RemoteMessage`).
package struct AndroidRemoteMessage: Sendable, Equatable {
    package var messageID: String
    /// `getFrom()`: the sender ID.
    package var from: String
    /// `getData()`: the developer's keys only (no `google.*`, `gcm.*`, `from`, `message_type`, `collapse_key`).
    package var data: [String: String]
    /// `getNotification()`: set for notification messages (which only reach the handler in the foreground).
    package var notification: AndroidNotificationPayload?
    package var collapseKey: String
    var originalPriority: AndroidMessagePriority
    package var priority: AndroidMessagePriority
    package var sentAt: Date
    package var ttlSeconds: Int64

    init(_ m: AndroidMessage, delivered: AndroidMessagePriority) {
        messageID = m.messageID
        from = m.senderID
        data = m.bundle(deliveredPriority: delivered).filter { key, _ in
            !(key.hasPrefix("google.") || key.hasPrefix("gcm.") || key == "from" || key == "message_type"
                || key == "collapse_key")
        }
        notification = m.notification
        collapseKey = m.effectiveCollapseKey
        originalPriority = m.priority
        priority = delivered
        sentAt = m.sentAt
        ttlSeconds = m.ttlSeconds
    }
}

/// An app callback with its arguments.
package enum AndroidCallback: Sendable, Equatable, CustomStringConvertible {
    /// `Application.onCreate`: the process started.
    case applicationOnCreate
    /// `FirebaseMessagingService.onNewToken` [R-SDK].
    case onNewToken(token: String)
    case onMessageReceived(AndroidRemoteMessage)
    /// The store overflowed while the device was offline [F-COLL][R-SDK].
    case onDeletedMessages
    /// `Activity.onCreate` with the starting intent.
    case onCreate(activity: String, action: String?, extras: [String: String])
    /// `Activity.onNewIntent` on a reused instance.
    case onNewIntent(activity: String, action: String?, extras: [String: String])

    /// The callback names suites write (`callbacks: [onMessageReceived]`).
    package enum Kind: String, CaseIterable, Sendable {
        case applicationOnCreate, onNewToken, onMessageReceived, onDeletedMessages, onCreate, onNewIntent
    }

    package var kind: Kind {
        switch self {
        case .applicationOnCreate: .applicationOnCreate
        case .onNewToken: .onNewToken
        case .onMessageReceived: .onMessageReceived
        case .onDeletedMessages: .onDeletedMessages
        case .onCreate: .onCreate
        case .onNewIntent: .onNewIntent
        }
    }

    package var name: String { kind.rawValue }

    package var description: String {
        switch self {
        case .applicationOnCreate: return "Application.onCreate"
        case .onNewToken(let t): return "onNewToken(\(t))"
        case .onMessageReceived(let m):
            return
                "onMessageReceived(\(m.messageID), data=\(m.data.keys.sorted()), notification=\(m.notification != nil))"
        case .onDeletedMessages: return "onDeletedMessages"
        case .onCreate(let a, let act, let e): return "\(a).onCreate(action=\(act ?? "nil"), extras=\(e.keys.sorted()))"
        case .onNewIntent(let a, let act, let e):
            return "\(a).onNewIntent(action=\(act ?? "nil"), extras=\(e.keys.sorted()))"
        }
    }
}

/// Why a message, a notification or a tap had no effect. `code` is what a suite's `dropped:` names.
package enum AndroidDropReason: Sendable, Equatable, CustomStringConvertible {
    case appNotInstalled
    case tokenNotRegistered
    /// The package is in the stopped state: nothing is delivered until the user launches it (the message is not kept).
    case appForceStopped
    /// No `FirebaseMessagingService` subclass: the base `onMessageReceived` does nothing with the data [R-SDK].
    case noMessagingService
    case ttlExpired
    /// `ttl: 0` ("now or never") and the device could not take it at once (offline, Doze, before unlock) [F-LIFE].
    case ttlZeroNotDeliverable
    /// The SDK ignores a `google.message_id` among the last 10 it received [R-SDK].
    case duplicateMessageID
    /// `onMessageReceived` ran past its window: its unfinished work (e.g. its own notification) is lost.
    case handlerTimeout
    case postNotificationsNotGranted
    case channelBlocked(String)
    /// The app posted to a channel it never created (no fallback for the app's own notifications) [AND-CH].
    case channelNotCreated(String)
    /// The package already has `AndroidDeviceState.maxPackageNotifications` (50) notifications in the tray: the
    /// system logs "Package has already posted or enqueued 50 notifications.  Not showing more." and drops it
    /// [AOSP-NMS] (Tests/reference/android.md §7).
    case packageNotificationLimit(Int)
    /// A newer message with the same collapse key replaced it in FCM's store [F-COLL].
    case collapsed(by: String)
    /// A fifth collapse key pushed this key out of FCM's store ("only keeps four collapse keys") [F-COLL].
    case collapseKeyEvicted(String)
    /// The store held 100 non-collapsible messages: everything stored was discarded [F-COLL].
    case storeOverflow
    /// The tap's `click_action` matches no activity's intent filter: the SDK has no fallback [R-SDK].
    case tapNoActivityForAction(String)
    case tapNoActivityForLink(String)
    case noLauncherActivity
    /// The tap reached a reused activity whose `onNewIntent` does not take the new intent.
    case newIntentNotHandled(activity: String)

    package var code: String {
        switch self {
        case .appNotInstalled: "app-not-installed"
        case .tokenNotRegistered: "token-not-registered"
        case .appForceStopped: "app-force-stopped"
        case .noMessagingService: "no-messaging-service"
        case .ttlExpired: "ttl-expired"
        case .ttlZeroNotDeliverable: "ttl-zero-not-deliverable"
        case .duplicateMessageID: "duplicate-message-id"
        case .handlerTimeout: "handler-timeout"
        case .postNotificationsNotGranted: "post-notifications-not-granted"
        case .channelBlocked: "channel-blocked"
        case .channelNotCreated: "channel-not-created"
        case .packageNotificationLimit: "package-notification-limit"
        case .collapsed: "collapsed"
        case .collapseKeyEvicted: "collapse-key-evicted"
        case .storeOverflow: "store-overflow"
        case .tapNoActivityForAction: "tap-no-activity-for-action"
        case .tapNoActivityForLink: "tap-no-activity-for-link"
        case .noLauncherActivity: "no-launcher-activity"
        case .newIntentNotHandled: "new-intent-not-handled"
        }
    }

    package var description: String {
        switch self {
        case .channelBlocked(let id), .channelNotCreated(let id), .collapseKeyEvicted(let id),
            .tapNoActivityForAction(let id), .tapNoActivityForLink(let id):
            return "\(code)(\(id))"
        case .collapsed(let by): return "\(code)(by \(by))"
        case .newIntentNotHandled(let a): return "\(code)(\(a))"
        case .packageNotificationLimit(let count): return "\(code)(\(count))"
        default: return code
        }
    }
}

/// Where a message waits instead of being delivered now.
package enum AndroidDeferral: Sendable, Equatable, CustomStringConvertible {
    /// Offline: FCM stores it (TTL, collapse keys, the 100-message limit apply).
    case storedOffline
    /// Normal priority in Doze: until the maintenance window [AND-PWR].
    case doze(until: Date)
    /// Before the first unlock after a reboot, for messages that are not `direct_boot_ok` to a direct-boot-aware
    /// service [F-DB] (choice: they wait for the unlock).
    case directBoot

    package var description: String {
        switch self {
        case .storedOffline: "stored (device offline)"
        case .doze(let until): "deferred by Doze until \(until.timeIntervalSince1970)"
        case .directBoot: "waiting for the first unlock (direct boot)"
        }
    }
}

/// A notification in the system tray (or replaced / removed from it).
package struct AndroidTrayNotification: Sendable, Equatable {
    /// Who built it.
    package enum Poster: String, Sendable, Equatable {
        /// The FCM SDK, for a notification message while the app is not in the foreground.
        case sdk
        /// The app's own code in `onMessageReceived`.
        case app
    }

    /// `a1`, `a2`, … in posting order (kept when a same-tag notification replaces it).
    package var id: String
    package var packageName: String
    package var poster: Poster
    /// `notify(tag, 0, …)`'s tag: the message's, else `FCM-Notification:<uptime ms>` [R-SDK].
    package var tag: String
    /// nil below API 26 (no channels).
    package var channelID: String?
    var importance: AndroidImportance
    package var title: String?
    package var body: String?
    package var smallIcon: String
    package var color: String?
    /// `setNumber` (notification_count).
    package var number: Int?
    package var sound: String?
    package var image: String?
    /// Off for `sticky` messages.
    var autoCancel: Bool
    /// The content intent: the action (click_action), the link, or an explicit activity (app notifications).
    package var clickAction: String?
    package var link: String?
    package var activity: String?
    /// The content intent's extras [R-SDK].
    package var extras: [String: String]
    package var messageID: String
    var postedAt: Date
}

/// Everything observable on the simulated Android phone. Kinds with an iOS counterpart carry the same types
/// (`NavigationEvent`, `WebNavigationOutcome`); `sharedKind` maps them onto `DeviceEventKind`.
package enum AndroidEventKind: Sendable, Equatable, CustomStringConvertible {
    case installed
    /// Uninstalled; its FCM token (if any) is no longer valid.
    case uninstalled(fcmToken: String?)
    case dataCleared(fcmToken: String?)
    case channelCreated(AndroidChannel)
    case permissionChanged(PostNotificationsState)
    case stateChanged(from: AndroidAppState, to: AndroidAppState, reason: AndroidTransitionReason)
    case tokenIssued(fcmToken: String)
    case tokenFailed(reason: String)
    case messageReceived(messageID: String, kind: AndroidMessageKind, priority: AndroidMessagePriority)
    case messageDeferred(messageID: String, AndroidDeferral)
    case messageDropped(messageID: String, reason: AndroidDropReason)
    /// Sent high priority, delivered as normal (standby bucket quota or FCM's deprioritization) [AND-PWR][F-PRIO].
    case priorityLowered(messageID: String, reason: String)
    case callback(AndroidCallback)
    case handlerTimedOut(messageID: String, duration: TimeInterval, window: TimeInterval)
    /// A log line of the SDK (e.g. the channel fallback warnings) [R-SDK].
    case sdkWarning(String)
    case notificationPosted(AndroidTrayNotification)
    case notificationReplaced(id: String, tag: String)
    case notificationRemoved(id: String, reason: String)
    /// A tap's intent started (or reached) an activity.
    case activityStarted(activity: String, how: String)
    case navigation(NavigationEvent)
    case webView(WebNavigationOutcome)
    case urlOpened(url: String, by: String)
    case offlineChanged(online: Bool)
    case dozeChanged(on: Bool)
    case chargingChanged(on: Bool)
    case locked
    case unlocked
    case rebooted

    /// The iOS event kind with the same meaning, when there is one (Part B logs these as `DeviceEvent`s).
    var sharedKind: DeviceEventKind? {
        switch self {
        case .installed: return .installed
        case .navigation(let n): return .navigation(n)
        case .webView(let w): return .webView(w)
        case .urlOpened(let u, let by): return .urlOpened(url: u, by: by)
        case .notificationRemoved(let id, let r): return .notificationRemoved(id: id, reason: r)
        case .offlineChanged(let o): return .offlineChanged(online: o)
        case .rebooted: return .rebooted
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .installed: return "installed"
        case .uninstalled(let t): return "uninstalled" + (t.map { " (FCM token \($0) invalidated)" } ?? "")
        case .dataCleared(let t): return "data cleared" + (t.map { " (FCM token \($0) invalidated)" } ?? "")
        case .channelCreated(let c): return "channel \(c.id) '\(c.name)' created (importance \(c.importance.name))"
        case .permissionChanged(let p): return "POST_NOTIFICATIONS \(p.rawValue)"
        case .stateChanged(let a, let b, let r): return "state \(a.rawValue) -> \(b.rawValue) (\(r.rawValue))"
        case .tokenIssued(let t): return "FCM token \(t)"
        case .tokenFailed(let r): return "FCM token not issued: \(r)"
        case .messageReceived(let id, let k, let p): return "message \(id) received (\(k.rawValue), \(p.rawValue))"
        case .messageDeferred(let id, let d): return "message \(id) \(d)"
        case .messageDropped(let id, let r): return "message \(id) dropped: \(r)"
        case .priorityLowered(let id, let r): return "message \(id) delivered as normal priority: \(r)"
        case .callback(let c): return "callback \(c)"
        case .handlerTimedOut(let id, let d, let w):
            return "onMessageReceived(\(id)) ran \(d) s, past its \(w) s window"
        case .sdkWarning(let w): return "FirebaseMessaging: \(w)"
        case .notificationPosted(let n):
            return "notification \(n.id) posted by \(n.poster.rawValue) '\(n.title ?? "")' / '\(n.body ?? "")' "
                + "channel=\(n.channelID ?? "none") tag=\(n.tag)"
        case .notificationReplaced(let id, let tag): return "notification \(id) replaced (tag \(tag))"
        case .notificationRemoved(let id, let r): return "notification \(id) removed (\(r))"
        case .activityStarted(let a, let how): return "activity \(a) \(how)"
        case .navigation(let n): return "navigation \(n)"
        case .webView(let o): return "web view \(o)"
        case .urlOpened(let u, let by): return "opened \(u) (\(by))"
        case .offlineChanged(let o): return o ? "online" : "offline"
        case .dozeChanged(let on): return on ? "Doze on" : "Doze off"
        case .chargingChanged(let on): return on ? "charging" : "on battery"
        case .locked: return "locked"
        case .unlocked: return "unlocked"
        case .rebooted: return "rebooted"
        }
    }
}

/// One observable thing on the simulated Android phone, ordered by `sequence`, stamped with the injected clock.
package struct AndroidDeviceEvent: Sendable, Equatable, CustomStringConvertible {
    package var sequence: Int
    package var at: Date
    /// The app concerned, if any.
    package var packageName: String?
    package var kind: AndroidEventKind
}

extension AndroidDeviceEvent: PhoneEvent {
    package init(sequence: Int, at: Date, app: String?, kind: AndroidEventKind) {
        self.init(sequence: sequence, at: at, packageName: app, kind: kind)
    }
    package var app: String? { packageName }
}
