import Foundation

/// The time and rate limits the device applies (device.md §1.2, §2.1). Configurable per device so a
/// suite can model "running from Xcode" (no background budget) or a tight budget.
package struct DeviceRules: Sendable, Equatable {
    /// Wall-clock time a woken app gets to call the fetch completion handler before it is terminated.
    package var fetchBudget: TimeInterval
    /// Time a service extension gets before the original content is shown.
    package var serviceExtensionBudget: TimeInterval
    /// Background wakes allowed per app in any 24 h window; nil = unlimited (as when run from Xcode).
    package var backgroundWakesPerDay: Int?

    package init(
        fetchBudget: TimeInterval = 30, serviceExtensionBudget: TimeInterval = 30,
        backgroundWakesPerDay: Int? = nil
    ) {
        self.fetchBudget = fetchBudget
        self.serviceExtensionBudget = serviceExtensionBudget
        self.backgroundWakesPerDay = backgroundWakesPerDay
    }
}
