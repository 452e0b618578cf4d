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
    /// `alert.title`, or the localized `title-loc-key` with its `title-loc-args` (Tests/reference/ios-push-types.md §L).
    package var title: String? { alert?["title"]?.stringValue ?? localized("title-loc-key", "title-loc-args") }
    package var subtitle: String? {
        alert?["subtitle"]?.stringValue ?? localized("subtitle-loc-key", "subtitle-loc-args")
    }
    /// `alert.body`, or the alert itself when it is a string, or the localized `loc-key` with its `loc-args`.
    package var body: String? {
        alert?.stringValue ?? alert?["body"]?.stringValue ?? localized("loc-key", "loc-args")
    }
    /// Whether `alert` carries something to show (title, subtitle or body, literal or localized) — the service
    /// extension's trigger. A localized-only alert was none, and the push was dropped as empty.
    package var hasAlertText: Bool { title != nil || subtitle != nil || body != nil }

    /// The text iOS shows for a localization key: the app's string for it (the simulated app has no
    /// Localizable.strings, so the key itself, as iOS shows a key it does not find) with the arguments put in for
    /// its `%@` and `%n$@` specifiers.
    private func localized(_ key: String, _ argumentsKey: String) -> String? {
        guard let format = alert?[key]?.stringValue else { return nil }
        let arguments = alert?[argumentsKey]?.arrayValue?.map { $0.stringValue ?? $0.serialized() } ?? []
        return Self.format(format, arguments)
    }

    /// `%@` takes the next argument, `%n$@` the n-th, `%%` is a percent sign; anything else is kept as written.
    static func format(_ format: String, _ arguments: [String]) -> String {
        var out = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.hasPrefix("%") {
                out += "%"
                rest = after.dropFirst()
            } else if after.hasPrefix("@") {
                out += next < arguments.count ? arguments[next] : ""
                next += 1
                rest = after.dropFirst()
            } else if let dollar = after.firstIndex(of: "$"), let n = Int(after[..<dollar]),
                after[after.index(after: dollar)...].hasPrefix("@")
            {
                out += n >= 1 && n <= arguments.count ? arguments[n - 1] : ""
                rest = after[after.index(dollar, offsetBy: 2)...]
            } else {
                out += "%"
                rest = after
            }
        }
        return out + rest
    }
    package var badge: Int? { raw?["badge"]?.intValue }
    /// `sound` as a name; the critical-alert dictionary form yields its `name`.
    package var sound: String? { raw?["sound"]?.stringValue ?? raw?["sound"]?["name"]?.stringValue }
    package var category: String? { raw?["category"]?.stringValue }
    package var threadID: String? { raw?["thread-id"]?.stringValue }
    /// `interruption-level`, or `critical` for the sound dictionary's `critical: 1` (the iOS 12–14 way of sending a
    /// critical alert, still in Apple's payload reference; Tests/reference/ios-push-types.md §6.2).
    package var interruptionLevel: String? {
        raw?["interruption-level"]?.stringValue ?? (raw?["sound"]?["critical"]?.intValue == 1 ? "critical" : nil)
    }
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
