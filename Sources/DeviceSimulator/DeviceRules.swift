import Foundation

/// The time and rate limits the device applies (device.md §1.2, §2.1). Configurable per device so a
/// suite can model "running from Xcode" (no background budget) or a tight budget.
package struct DeviceRules: Sendable, Equatable {
    /// Wall-clock time a woken app gets to call the fetch completion handler before it is terminated.
    var fetchBudget: TimeInterval
    /// Time a service extension gets before the original content is shown.
    var serviceExtensionBudget: TimeInterval
    /// Background wakes allowed per app in any 24 h window; nil = unlimited (as when run from Xcode).
    var backgroundWakesPerDay: Int?
    /// Background wakes allowed per app in any 60-minute window (default 3); nil = unlimited. Apple: "don't try to
    /// send more than two or three per hour" (Tests/reference/ios-push-types.md §5.2). Past either budget the push
    /// is held (coalesced: a later one replaces it) until the user launches the app.
    var backgroundWakesPerHour: Int?
    /// VoIP pushes in a row an app may leave unreported to CallKit (each one terminates it) before iOS stops
    /// delivering VoIP pushes to it. Apple gives no number; 3 is the count developers report (Tests/reference/
    /// ios-push-types.md §4).
    var voipUnreportedLimit: Int
    /// The event log keeps the newest 10,000 entries (a simulator limit, not an iOS rule: memory stays bounded on
    /// a device receiving pushes for hours; the entries dropped are counted in `DeviceState.eventsDropped`).
    /// `event_log_limit:` in the device's declaration.
    package var eventLogLimit = PhoneLogLimit(10_000)
    /// Notification Center keeps the newest 1,000 notifications (a simulator limit: Apple documents none; dropped
    /// ones are counted in `DeviceState.notificationsDropped`). `notification_center_limit:` in the declaration.
    package var notificationCenterLimit = PhoneLogLimit(1_000)

    package init(
        fetchBudget: TimeInterval = 30, serviceExtensionBudget: TimeInterval = 30,
        backgroundWakesPerDay: Int? = nil, backgroundWakesPerHour: Int? = 3, voipUnreportedLimit: Int = 3
    ) {
        self.fetchBudget = fetchBudget
        self.serviceExtensionBudget = serviceExtensionBudget
        self.backgroundWakesPerDay = backgroundWakesPerDay
        self.backgroundWakesPerHour = backgroundWakesPerHour
        self.voipUnreportedLimit = voipUnreportedLimit
    }
}
