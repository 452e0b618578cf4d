import Foundation
import PushModel

/// `ActivityState` (Tests/reference/live-activities.md §3): what the Lock Screen shows of an activity at a time.
package enum ActivityState: String, Sendable, Equatable, CaseIterable {
    /// Visible and updatable.
    case active
    /// Past its `stale-date`: still visible and updatable, its content out of date.
    case stale
    /// Ended (by a push, the app or the system's 8-hour limit): visible until its dismissal date, no more updates.
    case ended
    /// Removed from the Lock Screen.
    case dismissed
}

/// How the activity was started.
package enum ActivityOrigin: String, Sendable, Equatable {
    /// `Activity.request` in the app (a `start_activity` step).
    case app
    /// A push-to-start push (`event: start`) to the app's push-to-start token.
    case pushToStart = "push-to-start"
}

/// One Live Activity on the device, as ActivityKit keeps it. Times are the simulated clock's; its state at a time is
/// computed (`state(at:)`), so moving the clock (`wait:`) makes it stale or dismissed with nothing else to run.
package struct LiveActivity: Sendable, Equatable {
    /// `a1`, `a2`, … in start order on the device (the `Activity.id` suites address it by).
    package var id: String
    package var bundleID: String
    package var attributesType: String
    package var attributes: JSONValue
    package var contentState: JSONValue
    package var origin: ActivityOrigin
    /// The token `pushTokenUpdates` reported (`pushType: .token` / `input-push-token: 1`).
    package var pushToken: DeviceToken?
    /// The broadcast channel it subscribes to (`pushType: .channel(id)` / `input-push-channel`).
    package var channelID: String?
    package var startedAt: Date
    /// The `timestamp` of the last applied push (seconds since 1970), or the local start time: an older one is
    /// ignored.
    var lastTimestamp: Double
    package var staleDate: Date?
    package var relevanceScore: Double?
    var endedAt: Date?
    /// When an ended activity leaves the Lock Screen.
    var dismissalDate: Date?
    /// Whether the last applied update carried an `alert` (the screen lit up and the alert showed).
    package var alerted: Bool = false
    /// How many applied pushes carried an `alert`.
    package var alertCount: Int = 0
    /// How many pushes were applied (updates and the end).
    package var updates: Int = 0
    /// When priority-10 pushes were applied (the budget's window).
    var highPriorityUpdates: [Date] = []
    /// The `apns-id` of the last push applied: a channel's stored message handed over again (the device came back
    /// online) is not applied twice.
    var lastPushID: String?

    package init(
        id: String, bundleID: String, attributesType: String, attributes: JSONValue, contentState: JSONValue,
        origin: ActivityOrigin, startedAt: Date, lastTimestamp: Double, staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) {
        self.id = id
        self.bundleID = bundleID
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.origin = origin
        self.startedAt = startedAt
        self.lastTimestamp = lastTimestamp
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }

    /// The state at `now`: dismissed past its dismissal date; ended once ended (or 8 hours after the start, when
    /// the system ends it); stale past its stale date; else active.
    package func state(at now: Date) -> ActivityState {
        let (end, dismissal) = effectiveEnd
        if let dismissal, now >= dismissal { return .dismissed }
        if let end, now >= end { return .ended }
        if let staleDate, now >= staleDate { return .stale }
        return .active
    }

    /// When it ends and leaves the Lock Screen: as ended, or the system's limits (§3: ended after 8 hours active,
    /// removed at the latest 12 hours after the start).
    var effectiveEnd: (end: Date?, dismissal: Date?) {
        let systemEnd = startedAt.addingTimeInterval(LiveActivityRules.maximumActiveDuration)
        let lockScreenLimit = startedAt.addingTimeInterval(LiveActivityRules.maximumLockScreenDuration)
        if let endedAt, endedAt <= systemEnd {
            return (endedAt, min(dismissalDate ?? lockScreenLimit, lockScreenLimit))
        }
        let fromSystemEnd = systemEnd.addingTimeInterval(LiveActivityRules.defaultDismissalDelay)
        return (systemEnd, min(fromSystemEnd, lockScreenLimit))
    }

    /// Whether the Lock Screen shows it at `now`.
    package func onLockScreen(at now: Date) -> Bool { state(at: now) != .dismissed }

    /// Whether a push may still change it (active or stale).
    func updatable(at now: Date) -> Bool {
        let s = state(at: now)
        return s == .active || s == .stale
    }
}

/// The limits the device applies, with their sources (Tests/reference/live-activities.md) and the numbers chosen
/// where Apple gives none.
package enum LiveActivityRules {
    /// "A Live Activity can be active for up to eight hours" (§3).
    static let maximumActiveDuration: TimeInterval = 8 * 3600
    /// "… remains on the Lock Screen for up to four more hours" after the system ends it: 12 hours in all (§3).
    static let maximumLockScreenDuration: TimeInterval = 12 * 3600
    /// `ActivityUIDismissalPolicy.default`: an ended activity stays "for up to four hours" (§3); a `dismissal-date`
    /// later than that is cut to it.
    static let defaultDismissalDelay: TimeInterval = 4 * 3600
    /// Priority-10 updates applied per activity in a rolling hour (§6: Apple documents a budget, not its size —
    /// Choice): 10, or 60 with `NSSupportsLiveActivitiesFrequentUpdates`. Priority 5 is not counted.
    static func priority10Budget(frequentUpdates: Bool) -> Int { frequentUpdates ? 60 : 10 }
    static let budgetWindow: TimeInterval = 3600
    /// ActivityKit itself: iOS 16.1 (§1).
    static let minimumIOS = "16.1"
    /// Push-to-start needs iOS 17.2 (§2).
    static let pushToStartMinimumIOS = "17.2"
    /// Broadcast channels need iOS 18 (§5).
    static let channelMinimumIOS = "18.0"
}

/// Numeric comparison of dotted versions (`17.10` > `17.2`).
func versionAtLeast(_ version: String, _ minimum: String) -> Bool {
    let a = version.split(separator: ".").map { Int($0) ?? 0 }
    let b = minimum.split(separator: ".").map { Int($0) ?? 0 }
    for i in 0..<max(a.count, b.count) {
        let x = i < a.count ? a[i] : 0
        let y = i < b.count ? b[i] : 0
        if x != y { return x > y }
    }
    return true
}
