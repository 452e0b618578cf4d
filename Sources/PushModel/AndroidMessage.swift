import Foundation

/// `AndroidConfig.priority` (Tests/reference/android.md §3): NORMAL or HIGH.
package enum AndroidMessagePriority: String, Sendable, Equatable, CaseIterable {
    case normal, high
}

/// The notification part of an FCM message for an Android app: `AndroidNotification` merged over the message's
/// `Notification` (each `android.notification` field "will override" the top-level one, [G-API]). On the device
/// every field arrives as a `gcm.n.<key>` entry of the message bundle (`Constants.MessageNotificationKeys`, [R-SDK]).
package struct AndroidNotificationPayload: Sendable, Equatable {
    package var title: String?
    package var body: String?
    /// A drawable / mipmap resource name (`icon`).
    package var icon: String?
    /// `#RRGGBB`.
    package var color: String?
    package var sound: String?
    /// Same tag → the earlier notification is replaced.
    package var tag: String?
    /// An intent action: the tap starts the activity whose intent filter has it.
    package var clickAction: String?
    /// `channel_id` (the bundle's `gcm.n.android_channel_id`).
    package var channelID: String?
    package var image: String?
    package var ticker: String?
    /// Not auto-cancelled on tap.
    package var sticky: Bool
    package var localOnly: Bool
    /// `PRIORITY_MIN` … `PRIORITY_MAX`, as sent.
    package var notificationPriority: String?
    /// `PRIVATE` / `PUBLIC` / `SECRET`, as sent.
    package var visibility: String?
    package var notificationCount: Int?
    /// RFC 3339, as sent.
    package var eventTime: String?
    package var defaultSound: Bool
    package var titleLocKey: String?
    package var titleLocArgs: [String]
    package var bodyLocKey: String?
    package var bodyLocArgs: [String]
    /// `gcm.n.link_android` / `gcm.n.link`: a deep link the tap opens with ACTION_VIEW. The v1 API has no field for
    /// it (console sends only, [U]); the gateway never sets it, suites and tests may.
    package var link: String?

    package init(
        title: String? = nil, body: String? = nil, icon: String? = nil, color: String? = nil, sound: String? = nil,
        tag: String? = nil, clickAction: String? = nil, channelID: String? = nil, image: String? = nil,
        ticker: String? = nil, sticky: Bool = false, localOnly: Bool = false, notificationPriority: String? = nil,
        visibility: String? = nil, notificationCount: Int? = nil, eventTime: String? = nil, defaultSound: Bool = false,
        titleLocKey: String? = nil, titleLocArgs: [String] = [], bodyLocKey: String? = nil, bodyLocArgs: [String] = [],
        link: String? = nil
    ) {
        self.title = title
        self.body = body
        self.icon = icon
        self.color = color
        self.sound = sound
        self.tag = tag
        self.clickAction = clickAction
        self.channelID = channelID
        self.image = image
        self.ticker = ticker
        self.sticky = sticky
        self.localOnly = localOnly
        self.notificationPriority = notificationPriority
        self.visibility = visibility
        self.notificationCount = notificationCount
        self.eventTime = eventTime
        self.defaultSound = defaultSound
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.bodyLocKey = bodyLocKey
        self.bodyLocArgs = bodyLocArgs
        self.link = link
    }

    /// The `gcm.n.*` entries of the bundle, by the SDK's key names ([R-SDK] `Constants.MessageNotificationKeys`).
    package var bundleEntries: [String: String] {
        var out: [String: String] = ["gcm.n.e": "1"]
        func put(_ key: String, _ value: String?) { if let value { out["gcm.n." + key] = value } }
        func args(_ list: [String]) -> String? {
            list.isEmpty ? nil : JSONValue.array(list.map(JSONValue.string)).serialized()
        }
        put("title", title)
        put("body", body)
        put("icon", icon)
        put("color", color)
        put("sound", sound)
        put("tag", tag)
        put("click_action", clickAction)
        put("android_channel_id", channelID)
        put("image", image)
        put("ticker", ticker)
        put("sticky", sticky ? "true" : nil)
        put("local_only", localOnly ? "true" : nil)
        put("notification_priority", notificationPriority)
        put("visibility", visibility)
        put("notification_count", notificationCount.map(String.init))
        put("event_time", eventTime)
        put("default_sound", defaultSound ? "true" : nil)
        put("title_loc_key", titleLocKey)
        put("title_loc_args", args(titleLocArgs))
        put("body_loc_key", bodyLocKey)
        put("body_loc_args", args(bodyLocArgs))
        put("link_android", link)
        return out
    }
}

/// One FCM message as it reaches an Android app instance: what the FCM gateway hands to an Android delivery consumer
/// and what the simulated phone's engine delivers. The fields are the facts the device acts on; `bundle` is the
/// key/value map Google Play services hands the app's SDK ([R-SDK] `RemoteMessage`, Tests/reference/android.md §5–6).
package struct AndroidMessage: Sendable, Equatable {
    /// `google.message_id`: the id in the send's `name` (`0:<micros>%<hex>`).
    package var messageID: String
    /// The registration token the sender addressed.
    package var token: String
    /// The sender ID (project number): the bundle's `from`.
    package var senderID: String
    /// The package of the app instance the token belongs to.
    package var packageName: String
    /// `android.collapse_key`; nil = non-collapsible.
    package var collapseKey: String?
    /// `android.priority` as sent; nil = the default.
    package var requestedPriority: AndroidMessagePriority?
    /// `android.ttl` in whole seconds (default 4 weeks; 0 = now or never).
    package var ttlSeconds: Int64
    /// When FCM accepted it (`google.sent_time`).
    package var sentAt: Date
    /// `android.data` if present (it overrides `Message.data`), else `Message.data`.
    package var data: [String: String]
    package var notification: AndroidNotificationPayload?
    /// `android.direct_boot_ok`.
    package var directBootOK: Bool
    /// `android.fcm_options.analytics_label` (else the message's).
    package var analyticsLabel: String?

    /// 4 weeks, the default and the largest `android.ttl` ([F-LIFE]).
    package static let defaultTTLSeconds: Int64 = 2_419_200

    package init(
        messageID: String, token: String, senderID: String, packageName: String, collapseKey: String? = nil,
        requestedPriority: AndroidMessagePriority? = nil, ttlSeconds: Int64 = AndroidMessage.defaultTTLSeconds,
        sentAt: Date, data: [String: String] = [:], notification: AndroidNotificationPayload? = nil,
        directBootOK: Bool = false, analyticsLabel: String? = nil
    ) {
        self.messageID = messageID
        self.token = token
        self.senderID = senderID
        self.packageName = packageName
        self.collapseKey = collapseKey
        self.requestedPriority = requestedPriority
        self.ttlSeconds = ttlSeconds
        self.sentAt = sentAt
        self.data = data
        self.notification = notification
        self.directBootOK = directBootOK
        self.analyticsLabel = analyticsLabel
    }

    /// A notification message (with or without data): the SDK shows it itself when the app is not in the foreground.
    package var isNotificationMessage: Bool { notification != nil }

    /// The priority FCM uses: as sent, else HIGH for notification messages and NORMAL for data messages ([G-API]
    /// `AndroidMessagePriority`: HIGH "Default priority for notification messages"; [F-PRIO] normal "default priority
    /// for data messages").
    package var priority: AndroidMessagePriority {
        requestedPriority ?? (isNotificationMessage ? .high : .normal)
    }

    /// The collapse key the app sees: the one sent, else the package name ("By default, the collapse key is the app
    /// package name registered in the Firebase console", [F-COLL]).
    package var effectiveCollapseKey: String { collapseKey ?? packageName }

    /// The bundle the app's SDK receives: data keys unprefixed, `gcm.n.*` for the notification, `from`, `collapse_key`
    /// and the `google.*` delivery keys (their presence in every delivery is [U], Tests/reference/android.md §6).
    package func bundle(deliveredPriority: AndroidMessagePriority) -> [String: String] {
        var out = data
        if let notification { out.merge(notification.bundleEntries) { _, n in n } }
        out["from"] = senderID
        out["collapse_key"] = effectiveCollapseKey
        out["google.message_id"] = messageID
        out["google.sent_time"] = String(Int64((sentAt.timeIntervalSince1970 * 1000).rounded(.down)))
        out["google.ttl"] = String(ttlSeconds)
        out["google.original_priority"] = priority.rawValue
        out["google.delivered_priority"] = deliveredPriority.rawValue
        return out
    }

    /// The tap intent's extras: the bundle without `google.c.*`, `gcm.n.*` and `gcm.notification.*`
    /// ([R-SDK] `NotificationParams.paramsWithReservedKeysRemoved`).
    package func tapExtras(deliveredPriority: AndroidMessagePriority) -> [String: String] {
        bundle(deliveredPriority: deliveredPriority).filter { key, _ in
            !(key.hasPrefix("google.c.") || key.hasPrefix("gcm.n.") || key.hasPrefix("gcm.notification."))
        }
    }
}
