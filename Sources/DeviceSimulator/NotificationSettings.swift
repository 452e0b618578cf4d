/// `UNAuthorizationStatus` (device.md §1.4).
package enum AuthorizationStatus: String, Sendable, Equatable, CaseIterable {
    case notDetermined = "not-determined"
    case denied
    case provisional
    case authorized
}

/// An app's notification settings on the device: the authorization and its sub-settings.
package struct NotificationSettings: Sendable, Equatable {
    package var status: AuthorizationStatus
    /// Banners / lock screen (`alertSetting`).
    package var alert: Bool
    package var sound: Bool
    package var badge: Bool
    /// Whether delivered notifications are kept in Notification Center (`notificationCenterSetting`).
    package var notificationCenter: Bool
    /// `.criticalAlert` granted (needs the critical-alerts entitlement too).
    package var criticalAlert: Bool

    package init(
        status: AuthorizationStatus, alert: Bool = true, sound: Bool = true, badge: Bool = true,
        notificationCenter: Bool = true, criticalAlert: Bool = false
    ) {
        self.status = status
        self.alert = alert
        self.sound = sound
        self.badge = badge
        self.notificationCenter = notificationCenter
        self.criticalAlert = criticalAlert
    }

    /// Everything allowed.
    static let authorized = NotificationSettings(status: .authorized)
    /// The state before the app asks.
    static let notDetermined = NotificationSettings(status: .notDetermined)
    /// The user refused.
    package static let denied = NotificationSettings(status: .denied)
    /// Quiet delivery granted without a prompt.
    static let provisional = NotificationSettings(status: .provisional)

    /// Whether user-facing content may be shown at all (and the service extension employed).
    var alertsEnabled: Bool {
        switch status {
        case .authorized: return alert || notificationCenter
        case .provisional: return true
        case .notDetermined, .denied: return false
        }
    }
}

/// `UNNotificationPresentationOptions` returned from `willPresent` (device.md §1.3); raw values as Apple's.
package struct PresentationOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let badge = PresentationOptions(rawValue: 1)
    package static let sound = PresentationOptions(rawValue: 2)
    /// Deprecated in iOS 14 ("Use List | Banner"); shows banner and list.
    package static let alert = PresentationOptions(rawValue: 4)
    package static let list = PresentationOptions(rawValue: 8)
    package static let banner = PresentationOptions(rawValue: 16)

    /// Parses names such as `banner`, `sound`, `list`, `badge`, `alert`.
    package init?(names: [String]) {
        var o: PresentationOptions = []
        for n in names {
            switch n.lowercased() {
            case "badge": o.insert(.badge)
            case "sound": o.insert(.sound)
            case "alert": o.insert(.alert)
            case "list": o.insert(.list)
            case "banner": o.insert(.banner)
            default: return nil
            }
        }
        self = o
    }

    package var names: [String] {
        var out: [String] = []
        if contains(.badge) { out.append("badge") }
        if contains(.sound) { out.append("sound") }
        if contains(.alert) { out.append("alert") }
        if contains(.list) { out.append("list") }
        if contains(.banner) { out.append("banner") }
        return out
    }

    package var description: String { "[" + names.joined(separator: ", ") + "]" }

    /// What each option means since iOS 14 (device.md §1.3, [A-PO]): `.banner` shows a banner only,
    /// `.list` keeps the notification in Notification Center only, the deprecated `.alert` does both
    /// ("Use List | Banner"); `.sound` and `.badge` are independent of them.
    package var presentation: (banner: Bool, list: Bool, sound: Bool, badge: Bool) {
        (
            banner: !isDisjoint(with: [.banner, .alert]), list: !isDisjoint(with: [.list, .alert]),
            sound: contains(.sound), badge: contains(.badge)
        )
    }
}
