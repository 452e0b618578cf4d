import Foundation
import PushModel

/// What `deliver` did with a message, for the fleet.
package enum AndroidDeliveryResult: Sendable, Equatable {
    /// The app's SDK got it (what it did is in the event log).
    case delivered
    /// Not delivered yet: stored while offline, or held for Doze's window or the first unlock.
    case held(AndroidDeferral)
    /// Lost on the way (TTL, the store's limits, a stopped package, a duplicate).
    case dropped(AndroidDropReason)
    /// Not for an app of this device (no such package, or not its current token).
    case rejected(AndroidDropReason)
}

extension AndroidDeviceState {
    /// Delivers a message from FCM, by the rules of Tests/reference/android.md §1–4: FCM's offline store, TTL, direct boot,
    /// priority (standby buckets, deprioritization), Doze, then the SDK's dispatch by app state.
    @discardableResult
    package mutating func deliver(_ m: AndroidMessage, now: Date) -> AndroidDeliveryResult {
        guard online else {
            // TTL 0: "now or never" [F-LIFE] — an offline device is never.
            guard m.ttlSeconds > 0 else { return drop(m, .ttlZeroNotDeliverable, now) }
            switch store.add(m) {
            case .stored: break
            case .replaced(let old):
                log(.messageDropped(messageID: old, reason: .collapsed(by: m.messageID)), m.packageName, now)
            case .evictedKey(let key, let old):
                log(.messageDropped(messageID: old, reason: .collapseKeyEvicted(key)), m.packageName, now)
            case .overflowed(let discarded):
                for id in discarded { log(.messageDropped(messageID: id, reason: .storeOverflow), m.packageName, now) }
                return .dropped(.storeOverflow)
            }
            log(.messageDeferred(messageID: m.messageID, .storedOffline), m.packageName, now)
            return .held(.storedOffline)
        }
        return receive(m, now: now)
    }

    /// The device has the message (online, or released from the store or a hold).
    @discardableResult
    mutating func receive(_ m: AndroidMessage, now: Date, releasedFrom: AndroidDeferral? = nil) -> AndroidDeliveryResult
    {
        let pkg = m.packageName
        guard let app = apps[pkg] else {
            log(.messageDropped(messageID: m.messageID, reason: .appNotInstalled), pkg, now)
            return .rejected(.appNotInstalled)
        }
        guard app.fcmToken == m.token else {
            log(.messageDropped(messageID: m.messageID, reason: .tokenNotRegistered), pkg, now)
            return .rejected(.tokenNotRegistered)
        }
        // FCM keeps a message no longer than its TTL [F-LIFE].
        if now.timeIntervalSince(m.sentAt) > Double(m.ttlSeconds) { return drop(m, .ttlExpired, now) }
        // Direct boot: only `direct_boot_ok` messages to a direct-boot-aware service before the first unlock [F-DB].
        if !unlockedSinceBoot, !(m.directBootOK && app.declaration.manifest.serviceDirectBootAware) {
            return hold(m, .directBoot, now)
        }
        let priority: AndroidMessagePriority
        if case .doze = releasedFrom {
            priority = .normal  // decided when it was deferred
        } else {
            priority = deliveredPriority(m, now: now)
            // Doze: "High priority: No restriction; Normal priority: Deferred to window" [AND-PWR].
            if priority == .normal, let since = dozeSince,
                case .idle(let next) = rules.doze.phase(since: since, at: now)
            {
                return hold(m, .doze(until: next), now)
            }
        }
        return dispatch(m, priority: priority, now: now)
    }

    private mutating func drop(_ m: AndroidMessage, _ reason: AndroidDropReason, _ now: Date) -> AndroidDeliveryResult {
        log(.messageDropped(messageID: m.messageID, reason: reason), m.packageName, now)
        return .dropped(reason)
    }

    private mutating func hold(_ m: AndroidMessage, _ deferral: AndroidDeferral, _ now: Date) -> AndroidDeliveryResult {
        guard m.ttlSeconds > 0 else { return drop(m, .ttlZeroNotDeliverable, now) }
        held.append(AndroidHeldMessage(message: m, deferral: deferral))
        log(.messageDeferred(messageID: m.messageID, deferral), m.packageName, now)
        return .held(deferral)
    }

    /// The priority the message is delivered with: a high-priority message over its standby bucket's daily quota
    /// (pre-Android-13 table, also used on 13+: choice) or after too many silent high-priority messages goes as
    /// normal; neither applies while charging [AND-PWR][F-PRIO].
    private mutating func deliveredPriority(_ m: AndroidMessage, now: Date) -> AndroidMessagePriority {
        let pkg = m.packageName
        guard m.priority == .high, !charging, let app = apps[pkg] else { return m.priority }
        let bucket = app.declaration.standbyBucket
        if let quota = bucket.highPriorityPerDay {
            let recent = app.highPriorityDeliveries.filter { now.timeIntervalSince($0) < 86_400 }
            apps[pkg]!.highPriorityDeliveries = recent
            if recent.count >= quota {
                let why = "standby bucket \(bucket.rawValue) allows \(quota) high-priority messages a day"
                log(.priorityLowered(messageID: m.messageID, reason: why), pkg, now)
                return .normal
            }
        }
        if let threshold = rules.deprioritizeAfterSilentHighPriority {
            let silent = app.silentHighPriority.filter { now.timeIntervalSince($0) < 7 * 86_400 }
            apps[pkg]!.silentHighPriority = silent
            if silent.count >= threshold {
                let why = "\(silent.count) high-priority messages in 7 days showed no notification"
                log(.priorityLowered(messageID: m.messageID, reason: why), pkg, now)
                return .normal
            }
        }
        // Kept only where a quota reads it (and pruned there to a day): an app in a bucket without one received
        // high-priority messages into a list that grew for as long as the phone ran.
        if bucket.highPriorityPerDay != nil { apps[pkg]!.highPriorityDeliveries.append(now) }
        return .high
    }

    /// The SDK's `dispatchMessage` [R-SDK]: a notification message to an app not in the foreground is shown by the
    /// SDK and never reaches `onMessageReceived`; everything else goes to `onMessageReceived` (the process started if
    /// needed) [F-RECV]. A stopped package gets nothing.
    private mutating func dispatch(_ m: AndroidMessage, priority: AndroidMessagePriority, now: Date)
        -> AndroidDeliveryResult
    {
        let pkg = m.packageName
        guard apps[pkg]!.state != .forceStopped else { return drop(m, .appForceStopped, now) }
        guard !apps[pkg]!.recentMessageIDs.contains(m.messageID) else { return drop(m, .duplicateMessageID, now) }
        apps[pkg]!.recentMessageIDs = Array((apps[pkg]!.recentMessageIDs + [m.messageID]).suffix(10))
        log(.messageReceived(messageID: m.messageID, kind: AndroidMessageKind(m), priority: priority), pkg, now)
        let foreground = isForeground(pkg)
        if !apps[pkg]!.state.isRunning { startProcess(pkg, to: .background, .startedForMessage, now) }

        if m.isNotificationMessage, !foreground {
            let shown = postSDKNotification(m, delivered: priority, now: now)
            noteSilent(m, priority: priority, shown: shown, now: now)
            return .delivered
        }
        let declaration = apps[pkg]!.declaration
        guard declaration.manifest.messagingService != nil else {
            // The SDK's own base service: onMessageReceived is empty, the data is lost [R-SDK].
            log(.messageDropped(messageID: m.messageID, reason: .noMessagingService), pkg, now)
            noteSilent(m, priority: priority, shown: false, now: now)
            return .delivered
        }
        log(.callback(.onMessageReceived(AndroidRemoteMessage(m, delivered: priority))), pkg, now)
        let handler = declaration.handler
        // The window limits background work; an app on screen is not cut off.
        let window = priority == .high ? rules.highPriorityHandlerWindow : rules.normalPriorityHandlerWindow
        if !foreground, handler.duration > window {
            log(.handlerTimedOut(messageID: m.messageID, duration: handler.duration, window: window), pkg, now)
            log(.messageDropped(messageID: m.messageID, reason: .handlerTimeout), pkg, now)
            noteSilent(m, priority: priority, shown: false, now: now)
            return .delivered
        }
        var shown = false
        if let post = handler.postsNotification, m.data[post.titleKey] != nil || m.data[post.bodyKey] != nil {
            shown = postAppNotification(m, post, delivered: priority, now: now)
        }
        noteSilent(m, priority: priority, shown: shown, now: now)
        return .delivered
    }

    /// Counts a high-priority message that showed nothing (FCM's deprioritization input [F-PRIO]).
    private mutating func noteSilent(_ m: AndroidMessage, priority: AndroidMessagePriority, shown: Bool, now: Date) {
        // Only when the rule reads it (which prunes it to 7 days): otherwise the list grew without end.
        guard priority == .high, !shown, apps[m.packageName] != nil, rules.deprioritizeAfterSilentHighPriority != nil
        else { return }
        apps[m.packageName]!.silentHighPriority.append(now)
    }

    /// The store overflowed while offline: the app gets `onDeletedMessages` once it is back [F-COLL][R-SDK].
    mutating func deliverDeletedMessages(_ pkg: String, now: Date) {
        guard let app = apps[pkg] else { return }
        guard app.state != .forceStopped else {
            log(.messageDropped(messageID: "deleted_messages", reason: .appForceStopped), pkg, now)
            return
        }
        if !app.state.isRunning { startProcess(pkg, to: .background, .startedForMessage, now) }
        guard app.declaration.manifest.messagingService != nil else {
            log(.messageDropped(messageID: "deleted_messages", reason: .noMessagingService), pkg, now)
            return
        }
        log(.callback(.onDeletedMessages), pkg, now)
    }
}
