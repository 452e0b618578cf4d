import Foundation

/// The time limits and thresholds the simulated Android phone applies (Tests/reference/android.md §2, §3). Configurable per
/// device, as `DeviceRules` is for the iPhone.
package struct AndroidRules: Sendable, Equatable {
    /// How long `onMessageReceived` may run for a high-priority message in the background: the base class's Javadoc
    /// says it "should complete within 20 seconds" [R-SDK]; Google adds "slightly more time allocated for high
    /// priority messages than normal priority ones" [F-PRIO].
    var highPriorityHandlerWindow: TimeInterval
    /// The same for normal priority (choice: 10 s, the older page's Marshmallow figure [F-RECV]).
    var normalPriorityHandlerWindow: TimeInterval
    /// After this many high-priority messages in 7 days that showed no notification, FCM delivers the next ones as
    /// normal priority ("FCM uses 7 days of message behavior", [F-PRIO]; the threshold itself is not published:
    /// choice, nil = never deprioritized).
    var deprioritizeAfterSilentHighPriority: Int?
    /// Doze's timing (AOSP `DeviceIdleController.Constants` defaults [AOSP-DIC]).
    package var doze: DozeTiming
    /// The event log keeps the newest 10,000 entries (a simulator limit, as on the iPhone: `DeviceRules`; the
    /// entries dropped are counted in `AndroidDeviceState.eventsDropped`). `event_log_limit:` in the device's
    /// declaration (`HostedDevice` copies it from the declaration's `DeviceRules`).
    package var eventLogLimit = PhoneLogLimit(10_000)

    package init(
        highPriorityHandlerWindow: TimeInterval = 20, normalPriorityHandlerWindow: TimeInterval = 10,
        deprioritizeAfterSilentHighPriority: Int? = nil, doze: DozeTiming = DozeTiming()
    ) {
        self.highPriorityHandlerWindow = highPriorityHandlerWindow
        self.normalPriorityHandlerWindow = normalPriorityHandlerWindow
        self.deprioritizeAfterSilentHighPriority = deprioritizeAfterSilentHighPriority
        self.doze = doze
    }
}

/// Deep Doze's cycle: idle periods of `firstIdle` doubling up to `maxIdle`, each followed by a maintenance window of
/// `firstWindow` doubling up to `maxWindow` (AOSP defaults: `idle_to` 60 min, `idle_factor` 2, `max_idle_to` 6 h;
/// `idle_pending_to` 5 min up to `max_idle_pending_to` 10 min [AOSP-DIC]). Normal-priority FCM messages wait for a
/// window ("Normal priority: Deferred to window" [AND-PWR]).
package struct DozeTiming: Sendable, Equatable {
    var firstIdle: TimeInterval
    var maxIdle: TimeInterval
    var firstWindow: TimeInterval
    var maxWindow: TimeInterval

    package init(
        firstIdle: TimeInterval = 3600, maxIdle: TimeInterval = 6 * 3600, firstWindow: TimeInterval = 300,
        maxWindow: TimeInterval = 600
    ) {
        self.firstIdle = firstIdle
        self.maxIdle = maxIdle
        self.firstWindow = firstWindow
        self.maxWindow = maxWindow
    }

    /// Where the cycle that started at `start` is at `now`: inside a maintenance window (deliver), or idle until the
    /// next window opens.
    package func phase(since start: Date, at now: Date) -> DozePhase {
        var idleStart = start
        var idle = firstIdle, window = firstWindow
        // Bounded: the cycle reaches its 6 h / 10 min steady state after a few rounds; 10 000 rounds is > 6 years.
        for _ in 0..<10_000 {
            let windowStart = idleStart.addingTimeInterval(idle)
            let windowEnd = windowStart.addingTimeInterval(window)
            if now < windowStart { return .idle(nextWindow: windowStart) }
            if now < windowEnd { return .maintenanceWindow(until: windowEnd) }
            idleStart = windowEnd
            idle = min(idle * 2, maxIdle)
            window = min(window * 2, maxWindow)
        }
        return .maintenanceWindow(until: now)
    }
}

/// See `DozeTiming.phase`.
package enum DozePhase: Sendable, Equatable {
    case idle(nextWindow: Date)
    case maintenanceWindow(until: Date)
}
