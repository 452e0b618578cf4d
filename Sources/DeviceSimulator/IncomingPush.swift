import PushModel

/// A push as it reaches the device from the APNs gateway: the JSON payload (with `aps` and the custom
/// keys beside it, exactly what the app's `userInfo` will hold) and the headers that matter on-device.
package struct IncomingPush: Sendable, Equatable {
    /// The bundle id (the `apns-topic` without a push-type suffix).
    package var bundleID: String
    /// The device token the provider addressed.
    package var token: DeviceToken?
    /// The full payload.
    package var payload: JSONValue
    /// `apns-push-type`.
    package var pushType: APNsPushType?
    /// `apns-priority`.
    package var priority: APNsPriority?
    /// `apns-collapse-id`: a later push with the same id replaces the displayed one.
    package var collapseID: String?
    /// `apns-id`, for correlating with the gateway's log.
    package var apnsID: String

    package init(
        bundleID: String, token: DeviceToken? = nil, payload: JSONValue, pushType: APNsPushType? = nil,
        priority: APNsPriority? = nil, collapseID: String? = nil, apnsID: String = ""
    ) {
        self.bundleID = bundleID
        self.token = token
        self.payload = payload
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.apnsID = apnsID
    }

    /// The `aps` dictionary, read.
    package var aps: APSDictionary { APSDictionary(payload: payload) }

    /// What the push is: for alert and background pushes (or no `apns-push-type`), what its `aps` holds; for the
    /// other types, the type.
    package var kind: PushKind {
        switch pushType {
        case nil, .alert?, .background?, .complication?, .mdm?: return aps.kind
        case .voip?: return .voip
        case .pushtotalk?: return .pushtotalk
        case .location?: return .location
        case .widgets?: return .widgets
        case .controls?: return .controls
        case .fileprovider?: return .fileprovider
        case .liveactivity?: return .liveactivity
        }
    }
}

/// What kind of push a payload is (device.md §1.1 rows a–c).
package enum PushKind: String, Sendable, Equatable {
    /// `alert`/`sound`/`badge`, no `content-available`.
    case alert
    /// `content-available: 1` only.
    case background
    /// Both.
    case alertAndBackground = "alert+background"
    /// Neither (nothing to show, nothing to wake for).
    case empty
    /// Push types that do not go to the app's notification delegate: what their `apns-push-type` names.
    case voip, pushtotalk, location, widgets, controls, fileprovider, liveactivity
}

/// Read access to `aps` (device.md §2.3): alert title/subtitle/body, badge, sound, category, thread,
/// `content-available`, `mutable-content`, `interruption-level`.
package struct APSDictionary: Sendable, Equatable {
    package let raw: JSONValue?

    package init(payload: JSONValue) { raw = payload["aps"] }

    private var alert: JSONValue? { raw?["alert"] }
    package var title: String? { alert?["title"]?.stringValue }
    package var subtitle: String? { alert?["subtitle"]?.stringValue }
    /// `alert.body`, or the alert itself when it is a string.
    package var body: String? { alert?.stringValue ?? alert?["body"]?.stringValue }
    /// Whether `alert` carries something to show (title, subtitle or body) — the service extension's trigger.
    package var hasAlertText: Bool { title != nil || subtitle != nil || body != nil }
    package var badge: Int? { raw?["badge"]?.intValue }
    /// `sound` as a name; the critical-alert dictionary form yields its `name`.
    package var sound: String? { raw?["sound"]?.stringValue ?? raw?["sound"]?["name"]?.stringValue }
    package var category: String? { raw?["category"]?.stringValue }
    package var threadID: String? { raw?["thread-id"]?.stringValue }
    package var interruptionLevel: String? { raw?["interruption-level"]?.stringValue }
    /// Only the number 1 counts (`content-available: 0` is not an "off" but is not a wake request either).
    package var contentAvailable: Bool { raw?["content-available"]?.intValue == 1 }
    var mutableContent: Bool { raw?["mutable-content"]?.intValue == 1 }
    /// Whether there is anything user-facing: alert text, a sound or a badge.
    var isUserFacing: Bool { hasAlertText || sound != nil || badge != nil }

    package var kind: PushKind {
        switch (isUserFacing, contentAvailable) {
        case (true, true): return .alertAndBackground
        case (true, false): return .alert
        case (false, true): return .background
        case (false, false): return .empty
        }
    }
}

/// The content of a delivered notification (`UNNotificationContent`), after any service extension.
package struct NotificationContent: Sendable, Equatable {
    package var title: String?
    package var subtitle: String?
    package var body: String?
    package var badge: Int?
    package var sound: String?
    package var categoryID: String?
    package var threadID: String?
    package var interruptionLevel: String?
    /// The payload as the app will see it in `userInfo`.
    package var userInfo: JSONValue

    package init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, badge: Int? = nil,
        sound: String? = nil, categoryID: String? = nil, threadID: String? = nil,
        interruptionLevel: String? = nil, userInfo: JSONValue = .object([:])
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.categoryID = categoryID
        self.threadID = threadID
        self.interruptionLevel = interruptionLevel
        self.userInfo = userInfo
    }

    /// The content the system builds from a payload.
    package init(payload: JSONValue) {
        let aps = APSDictionary(payload: payload)
        self.init(
            title: aps.title, subtitle: aps.subtitle, body: aps.body, badge: aps.badge, sound: aps.sound,
            categoryID: aps.category, threadID: aps.threadID, interruptionLevel: aps.interruptionLevel,
            userInfo: payload)
    }
}

extension IncomingPush {
    /// Builds the device-side push from what the APNs gateway delivered (`DeliveredPush`'s fields),
    /// taking the bundle id from the topic (push-type suffixes such as `.voip` removed).
    package init(
        topic: String, token: DeviceToken, json: JSONValue, pushType: APNsPushType, priority: APNsPriority,
        collapseID: String?, apnsID: String
    ) {
        self.init(
            bundleID: APNsPushType.bundleID(ofTopic: topic), token: token, payload: json, pushType: pushType,
            priority: priority, collapseID: collapseID, apnsID: apnsID)
    }
}
