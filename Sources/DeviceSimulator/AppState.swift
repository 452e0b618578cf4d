/// The life-cycle state of an installed app, as far as push delivery cares (device.md §1.1).
package enum AppState: String, Sendable, Equatable, CaseIterable {
    /// Active, on screen.
    case foreground
    /// Running, not on screen (e.g. just woken for a background push).
    case background
    /// In memory, not executing.
    case suspended
    /// Not in memory: never launched, killed by the system, or after a reboot.
    case notRunning = "not-running"
    /// Swiped away by the user: no automatic launch until the user relaunches it or the device reboots.
    case forceQuit = "force-quit"

    /// Whether the process exists (its delegate can be called without a launch).
    var isRunning: Bool { self == .foreground || self == .background || self == .suspended }
}

/// Why an app changed state; recorded with every transition.
package enum AppTransitionReason: String, Sendable, Equatable {
    case userLaunch = "user-launch"
    case userSwitchedAway = "user-switched-away"
    case systemSuspend = "system-suspend"
    case systemTerminate = "system-terminate"
    case userForceQuit = "user-force-quit"
    case reboot
    case backgroundLaunchForPush = "background-launch-for-push"
    case wokenForPush = "woken-for-push"
    case fetchCompleted = "fetch-completed"
    case fetchOverran = "fetch-overran-30s"
    case notificationTap = "notification-tap"
    case foregroundAction = "foreground-action"
    case backgroundAction = "background-action"
    case quickAction = "quick-action"
    /// iOS killed the app for not reporting a VoIP push's call to CallKit.
    case voipCallNotReported = "voip-call-not-reported"
}
