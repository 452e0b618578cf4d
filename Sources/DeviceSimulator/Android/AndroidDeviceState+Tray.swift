import Foundation
import PushModel

extension AndroidDeviceState {
    /// The SDK shows a notification message ([R-SDK] `DisplayNotification`, `CommonNotificationBuilder`;
    /// Tests/reference/android.md §5): permission, channel (with its fallback), small icon, color, count, tag. Returns whether it was shown.
    mutating func postSDKNotification(_ m: AndroidMessage, delivered: AndroidMessagePriority, now: Date) -> Bool {
        let pkg = m.packageName
        let n = m.notification ?? AndroidNotificationPayload()
        let app = apps[pkg]!
        let gate = displayGate(m, now: now, channel: { $0.resolveChannel(n.channelID, pkg: pkg, now: now) })
        guard let (channelID, importance) = gate else { return false }
        var icon = app.declaration.manifest.defaultIcon ?? app.declaration.launcherIcon
        if let wanted = n.icon {
            if app.declaration.drawables.map({ $0.contains(wanted) }) ?? true {
                icon = wanted
            } else {
                log(.sdkWarning("Icon resource \(wanted) not found. Notification will use default icon."), pkg, now)
            }
        }
        var color = app.declaration.manifest.defaultColor
        if let c = n.color {
            if Self.isColor(c) {
                color = c
            } else {
                log(.sdkWarning("Color is invalid: \(c). Notification will use default color."), pkg, now)
            }
        }
        var number = n.notificationCount
        if let count = number, count < 0 {
            log(.sdkWarning("notificationCount is invalid: \(count). Skipping setting notificationCount."), pkg, now)
            number = nil
        }
        var tray = AndroidTrayNotification(
            id: "", packageName: pkg, poster: .sdk, tag: n.tag ?? "FCM-Notification:\(uptimeMillis(now))",
            channelID: channelID, importance: importance, title: n.title, body: n.body, smallIcon: icon, color: color,
            number: number, sound: n.sound ?? (n.defaultSound ? "default" : nil), image: n.image,
            autoCancel: !n.sticky, clickAction: n.clickAction, link: n.link, activity: nil,
            extras: m.tapExtras(deliveredPriority: delivered), messageID: m.messageID, postedAt: now)
        return post(&tray, now: now)
    }

    /// The channel a notification message goes to: the message's if the app created it, else the manifest default
    /// if created, else the SDK's fallback, created on first use [R-SDK]. The SDK's warnings are logged.
    mutating func resolveChannel(_ requested: String?, pkg: String, now: Date) -> AndroidChannel {
        let app = apps[pkg]!
        if let requested {
            if let c = app.channel(requested) { return c }
            log(
                .sdkWarning(
                    "Notification Channel requested (\(requested)) has not been created by the app. Manifest configuration, or default, value will be used."
                ), pkg, now)
        }
        if let id = app.declaration.manifest.defaultChannelID {
            if let c = app.channel(id) { return c }
            log(
                .sdkWarning(
                    "Notification Channel set in AndroidManifest.xml has not been created by the app. Default value will be used."
                ), pkg, now)
        } else {
            log(
                .sdkWarning(
                    "Missing Default Notification Channel metadata in AndroidManifest. Default value will be used."),
                pkg, now)
        }
        if let existing = app.channel(AndroidChannel.fcmFallback.id) { return existing }
        apps[pkg]!.channels.append(.fcmFallback)
        log(.channelCreated(.fcmFallback), pkg, now)
        return .fcmFallback
    }

    /// The app's own notification from `onMessageReceived`: no channel fallback [AND-CH]; permission and channel
    /// importance as for any notification. Returns whether it was shown.
    mutating func postAppNotification(
        _ m: AndroidMessage, _ spec: AndroidAppNotification, delivered: AndroidMessagePriority, now: Date
    ) -> Bool {
        let pkg = m.packageName
        let app = apps[pkg]!
        let gate = displayGate(m, now: now, missing: spec.channelID, channel: { $0.apps[pkg]!.channel(spec.channelID) })
        guard let (channelID, importance) = gate else { return false }
        var tray = AndroidTrayNotification(
            id: "", packageName: pkg, poster: .app, tag: spec.tag ?? "app:\(m.messageID)", channelID: channelID,
            importance: importance, title: m.data[spec.titleKey], body: m.data[spec.bodyKey],
            smallIcon: app.declaration.manifest.defaultIcon ?? app.declaration.launcherIcon,
            color: app.declaration.manifest.defaultColor, number: nil, sound: nil, image: nil, autoCancel: true,
            clickAction: nil, link: nil,
            activity: spec.activity ?? app.declaration.manifest.launcherActivity?.name, extras: m.data,
            messageID: m.messageID, postedAt: now)
        return post(&tray, now: now)
    }

    /// What every notification must pass: POST_NOTIFICATIONS [AND-PERM], then (API 26+) a channel that exists and
    /// is not blocked [AND-CH]. `channel` finds it (nil: `missing` does not exist). The channel id (nil below API 26) and
    /// importance, or nil with the reason logged.
    private mutating func displayGate(
        _ m: AndroidMessage, now: Date, missing: String = "", channel: (inout AndroidDeviceState) -> AndroidChannel?
    ) -> (String?, AndroidImportance)? {
        let pkg = m.packageName
        guard notificationsAllowed(pkg) else {
            log(.messageDropped(messageID: m.messageID, reason: .postNotificationsNotGranted), pkg, now)
            return nil
        }
        guard usesChannels(pkg) else { return (nil, .default) }
        guard let c = channel(&self) else {
            log(.messageDropped(messageID: m.messageID, reason: .channelNotCreated(missing)), pkg, now)
            return nil
        }
        guard c.importance != .none else {
            log(.messageDropped(messageID: m.messageID, reason: .channelBlocked(c.id)), pkg, now)
            return nil
        }
        return (c.id, c.importance)
    }

    /// `NotificationManagerService`'s `MAX_PACKAGE_NOTIFICATIONS` [AOSP-NMS].
    static let maxPackageNotifications = 50

    /// `NotificationManager.notify(tag, 0, …)`: the same tag from the same app replaces the notification in place; a
    /// new one is refused once the package has `maxPackageNotifications` in the tray ("Not showing more"
    /// [AOSP-NMS]). Returns whether it was shown.
    private mutating func post(_ n: inout AndroidTrayNotification, now: Date) -> Bool {
        if let i = tray.firstIndex(where: { $0.packageName == n.packageName && $0.tag == n.tag }) {
            n.id = tray[i].id
            tray[i] = n
            log(.notificationReplaced(id: n.id, tag: n.tag), n.packageName, now)
        } else {
            let count = tray.reduce(0) { $0 + ($1.packageName == n.packageName ? 1 : 0) }
            guard count < Self.maxPackageNotifications else {
                log(
                    .messageDropped(messageID: n.messageID, reason: .packageNotificationLimit(count)), n.packageName,
                    now)
                return false
            }
            n.id = nextNotificationID()
            tray.append(n)
        }
        log(.notificationPosted(n), n.packageName, now)
        return true
    }

    /// `SystemClock.uptimeMillis()` for the default tag: milliseconds since boot, strictly increasing (a clock held
    /// still in a suite would otherwise give two untagged notifications the same tag, which never happens on a phone).
    private mutating func uptimeMillis(_ now: Date) -> Int64 {
        let ms = Int64((now.timeIntervalSince(bootedAt) * 1000).rounded(.down))
        lastUptimeMillis = max(ms, lastUptimeMillis + 1)
        return lastUptimeMillis
    }

    /// `Color.parseColor`'s `#RRGGBB` (and `#AARRGGBB`).
    static func isColor(_ s: String) -> Bool {
        guard s.hasPrefix("#"), s.count == 7 || s.count == 9 else { return false }
        return s.dropFirst().allSatisfy(\.isHexDigit)
    }
}
