import Foundation
import Provisioning
import PushModel

/// What `deliver` did with a push, for the gateway: whether the device took it.
package enum DeviceDeliveryResult: Sendable, Equatable {
    /// The device accepted the push (what the app did with it is in the event log).
    case accepted
    /// The device is offline: it never received the push (no event); the gateway keeps it (store and forward).
    case deviceOffline
    /// No app with that bundle id, or the token is not the app's current token.
    case rejected(DropReason)
}

extension DeviceState {
    /// Delivers a push from the gateway: presentation by authorization and app state, the service
    /// extension, `willPresent`, background wake rules, callbacks (device.md §1–2).
    @discardableResult
    package mutating func deliver(_ push: IncomingPush, now: Date) -> DeviceDeliveryResult {
        // An offline phone has no connection to APNs: the push does not reach it, and APNs keeps it.
        guard online else { return .deviceOffline }
        let bundleID = push.bundleID
        let aps = push.aps
        guard let app = apps[bundleID] else {
            log(.pushReceived(apnsID: push.apnsID, kind: push.kind), bundleID, now)
            log(.pushDropped(apnsID: push.apnsID, reason: .appNotInstalled), bundleID, now)
            return .rejected(.appNotInstalled)
        }
        guard let kind = tokenKind(of: push, app: app) else {
            log(.pushReceived(apnsID: push.apnsID, kind: push.kind), bundleID, now)
            log(.pushDropped(apnsID: push.apnsID, reason: .tokenNotRegistered), bundleID, now)
            return .rejected(.tokenNotRegistered)
        }
        if let dropped = tokenKindDrop(push, kind: kind, now: now) { return dropped }
        if let handled = deliverByType(push, now: now) { return handled }
        if push.pushType == .background, aps.isUserFacing {
            // The push type must match the payload; a mismatch may cause an error, delay or drop (device.md §1.2,
            // ios-push-types.md §5.9). Choice: the device takes it as what its type says, a background push: the
            // alert, sound and badge are not shown, the app is woken by the background rules (content-available: 1).
            log(.pushReceived(apnsID: push.apnsID, kind: aps.contentAvailable ? .background : .empty), bundleID, now)
            log(.pushDropped(apnsID: push.apnsID, reason: .userFacingInBackgroundPush), bundleID, now)
            if aps.contentAvailable { handleBackground(push, now: now) }
            return .accepted
        }
        log(.pushReceived(apnsID: push.apnsID, kind: aps.kind), bundleID, now)
        if aps.isUserFacing { presentUserFacing(push, now: now) }
        if aps.contentAvailable { handleBackground(push, now: now) }
        return .accepted
    }

    // MARK: user-facing part

    private mutating func presentUserFacing(_ push: IncomingPush, now: Date) {
        let bundleID = push.bundleID
        let app = apps[bundleID]!
        let aps = push.aps
        let settings = app.settings
        guard settings.alertsEnabled else {
            // Not determined / denied: nothing shown, no service extension (§1.4).
            log(.pushDropped(apnsID: push.apnsID, reason: .notAuthorized), bundleID, now)
            if app.state == .foreground, !aps.contentAvailable { callForegroundFallback(push, now: now) }
            return
        }
        var content = NotificationContent(payload: push.payload)
        if aps.mutableContent, aps.hasAlertText, let nse = app.declaration.serviceExtension {
            if nse.duration > rules.serviceExtensionBudget {
                log(.serviceExtensionTimedOut(duration: nse.duration), bundleID, now)
            } else {
                let changed = nse.apply(to: content)
                log(.serviceExtensionRan(modified: changed != content, duration: nse.duration), bundleID, now)
                content = changed
            }
        }

        var presentation: Presentation
        var applyBadge: Bool
        if app.state == .foreground {
            guard let options = app.declaration.delegate.willPresentOptions else {
                log(.pushDropped(apnsID: push.apnsID, reason: .noWillPresentDelegate), bundleID, now)
                if !aps.contentAvailable { callForegroundFallback(push, now: now) }
                return
            }
            log(.callback(.willPresent(userInfo: content.userInfo, options: options)), bundleID, now)
            route(bundleID, content.userInfo, trigger: .foreground, now: now)
            let quiet = settings.status == .provisional
            let shown = options.presentation
            presentation = Presentation(
                banner: !quiet && settings.alert && shown.banner,
                list: settings.notificationCenter && shown.list,
                sound: !quiet && settings.sound && shown.sound ? content.sound : nil,
                quiet: quiet)
            applyBadge = !quiet && settings.badge && shown.badge
            if options.isDisjoint(with: [.banner, .alert, .list, .sound, .badge]) {
                log(.pushDropped(apnsID: push.apnsID, reason: .presentationSilenced), bundleID, now)
                return
            }
        } else if settings.status == .provisional {
            presentation = Presentation(banner: false, list: true, sound: nil, quiet: true)
            applyBadge = false
        } else {
            let level = Self.effectiveInterruptionLevel(
                content.interruptionLevel, app: app.declaration, settings: settings)
            let passive = level == "passive"
            let critical = level == "critical"
            presentation = Presentation(
                banner: (settings.alert || critical) && !passive, list: settings.notificationCenter,
                sound: (settings.sound || critical) && !passive ? content.sound : nil, quiet: false,
                interruptionLevel: level)
            applyBadge = settings.badge
        }

        if applyBadge, let badge = content.badge {
            let value: Int? = badge == 0 ? nil : badge
            apps[bundleID]!.badge = value
            log(.badgeChanged(value), bundleID, now)
        }
        let hasText = content.title != nil || content.subtitle != nil || content.body != nil
        guard hasText, presentation.banner || presentation.list else {
            // Sound-only (or text the settings hide): the sound still plays.
            if let sound = presentation.sound { log(.soundPlayed(sound), bundleID, now) }
            return
        }
        if let cid = push.collapseID,
            let i = notificationCenter.firstIndex(where: { $0.bundleID == bundleID && $0.collapseID == cid })
        {
            notificationCenter[i].content = content
            notificationCenter[i].deliveredAt = now
            notificationCenter[i].presentation = presentation
            log(.notificationReplaced(id: notificationCenter[i].id, collapseID: cid), bundleID, now)
            log(
                .notificationPresented(id: notificationCenter[i].id, content: content, presentation: presentation),
                bundleID, now)
            return
        }
        let id = nextNotificationID()
        notificationCenter.append(
            PresentedNotification(
                id: id, bundleID: bundleID, content: content, collapseID: push.collapseID,
                deliveredAt: now, presentation: presentation))
        log(.notificationPresented(id: id, content: content, presentation: presentation), bundleID, now)
    }

    /// `interruption-level` as the device applies it (§2.3): `time-sensitive` needs its entitlement,
    /// `critical` the critical-alerts entitlement and `.criticalAlert` permission; otherwise `active`.
    static func effectiveInterruptionLevel(_ requested: String?, app: AppDeclaration, settings: NotificationSettings)
        -> String
    {
        let ents = app.signing.entitlements
        switch requested ?? "active" {
        case "passive": return "passive"
        case "time-sensitive":
            return ents["com.apple.developer.usernotifications.time-sensitive"]?.boolValue == true
                ? "time-sensitive" : "active"
        case "critical":
            let entitled = ents["com.apple.developer.usernotifications.critical-alerts"]?.boolValue == true
            return entitled && settings.criticalAlert ? "critical" : "active"
        default: return "active"
        }
    }

    /// Foreground alert push without a `willPresent` answer: UIKit falls back to the app delegate
    /// (fetch-handler variant first, else the deprecated one). ❓ ordering per device.md open gaps.
    private mutating func callForegroundFallback(_ push: IncomingPush, now: Date) {
        let delegate = apps[push.bundleID]!.declaration.delegate
        if delegate.implementsFetchHandler {
            log(
                .callback(.didReceiveRemoteNotification(userInfo: push.payload, state: .foreground)), push.bundleID, now
            )
            completeFetch(push.bundleID, inBackground: false, now: now)
        } else if delegate.implementsLegacyDidReceive {
            log(.callback(.legacyDidReceiveRemoteNotification(userInfo: push.payload)), push.bundleID, now)
        }
    }

    // MARK: background part

    private mutating func handleBackground(_ push: IncomingPush, now: Date) {
        let bundleID = push.bundleID
        let app = apps[bundleID]!
        let delegate = app.declaration.delegate
        switch app.state {
        case .foreground:
            if delegate.implementsFetchHandler {
                log(.callback(.didReceiveRemoteNotification(userInfo: push.payload, state: .foreground)), bundleID, now)
                completeFetch(bundleID, inBackground: false, now: now)
            } else if delegate.implementsLegacyDidReceive {
                log(.callback(.legacyDidReceiveRemoteNotification(userInfo: push.payload)), bundleID, now)
            } else {
                log(.pushDropped(apnsID: push.apnsID, reason: .noFetchHandler), bundleID, now)
            }
        case .forceQuit:
            log(.pushDropped(apnsID: push.apnsID, reason: .appForceQuit), bundleID, now)
        case .background, .suspended, .notRunning:
            guard app.declaration.signing.hasRemoteNotificationBackgroundMode else {
                log(.pushDropped(apnsID: push.apnsID, reason: .noRemoteNotificationBackgroundMode), bundleID, now)
                return
            }
            guard delegate.implementsFetchHandler else {
                log(.pushDropped(apnsID: push.apnsID, reason: .noFetchHandler), bundleID, now)
                return
            }
            let recent = app.wakes.filter { now.timeIntervalSince($0) < 86_400 }
            apps[bundleID]!.wakes = recent
            let lastHour = recent.filter { now.timeIntervalSince($0) < 3_600 }.count
            let overDay = rules.backgroundWakesPerDay.map { recent.count >= $0 } ?? false
            let overHour = rules.backgroundWakesPerHour.map { lastHour >= $0 } ?? false
            if overDay || overHour {
                if let old = app.heldPush {
                    log(.pushDropped(apnsID: old.apnsID, reason: .heldPushReplaced), bundleID, now)
                }
                apps[bundleID]!.heldPush = push
                log(.backgroundPushHeld(apnsID: push.apnsID), bundleID, now)
                return
            }
            wake(push, now: now)
        }
    }

    private mutating func wake(_ push: IncomingPush, now: Date) {
        let bundleID = push.bundleID
        apps[bundleID]!.wakes.append(now)
        switch apps[bundleID]!.state {
        case .notRunning:
            setState(bundleID, .background, .backgroundLaunchForPush, now)
            log(.callback(.didFinishLaunching(remoteNotification: push.payload)), bundleID, now)
        case .suspended:
            setState(bundleID, .background, .wokenForPush, now)
        default:
            break
        }
        log(.callback(.didReceiveRemoteNotification(userInfo: push.payload, state: .background)), bundleID, now)
        completeFetch(bundleID, inBackground: true, now: now)
    }

    /// The fetch handler finishes (or overruns its budget and the app is terminated, in the background).
    mutating func completeFetch(_ bundleID: String, inBackground: Bool, now: Date) {
        let delegate = apps[bundleID]!.declaration.delegate
        if let d = delegate.fetchDuration, d <= rules.fetchBudget {
            log(.fetchCompleted(result: delegate.fetchResult, duration: d), bundleID, now)
            if inBackground { setState(bundleID, .suspended, .fetchCompleted, now) }
        } else if inBackground {
            let took = delegate.fetchDuration.map { "\($0) s" } ?? "never"
            log(
                .appTerminated(
                    reason: "fetch completion handler not called within \(Int(rules.fetchBudget)) s (took \(took))"),
                bundleID, now)
            setState(bundleID, .notRunning, .fetchOverran, now)
        }
    }
}
