import Foundation
import Provisioning
import PushModel

extension DeviceState {
    /// The user taps the app icon. Refused when the profile has expired. A cold launch calls
    /// `didFinishLaunching` (and runs any `.launch` route); a held background push is delivered.
    @discardableResult
    package mutating func launch(_ bundleID: String, now: Date) -> Bool {
        let cold = apps[bundleID].map { !$0.state.isRunning } ?? false
        guard userLaunch(bundleID, reason: .userLaunch, launchPayload: nil, now: now) else { return false }
        // A cold start already ran the launch routes in `userLaunch`.
        if !cold, apps[bundleID]!.router.stack.isEmpty { route(bundleID, .object([:]), trigger: .launch, now: now) }
        return true
    }

    /// Brings the app to the foreground because of the user (launch, tap, foreground action, quick action).
    /// Returns false when the app is missing or cannot launch.
    mutating func userLaunch(_ bundleID: String, reason: AppTransitionReason, launchPayload: JSONValue?, now: Date)
        -> Bool
    {
        guard let app = apps[bundleID] else { return false }
        if app.declaration.profile.expirationDate <= now {
            let f = ProvisioningFinding.profileExpired(
                profileName: app.declaration.profile.name,
                expiredAt: app.declaration.profile.expirationDate)
            log(.launchRefused([f]), bundleID, now)
            return false
        }
        let cold = !app.state.isRunning
        setState(bundleID, .foreground, reason, now)
        if cold {
            if app.declaration.delegate.usesScenes {
                log(.callback(.didFinishLaunching(remoteNotification: nil)), bundleID, now)
                log(.callback(.sceneWillConnect(notificationResponse: launchPayload)), bundleID, now)
            } else {
                log(.callback(.didFinishLaunching(remoteNotification: launchPayload)), bundleID, now)
            }
            // `didFinishLaunching` (or the scene's `willConnect`) builds the root first (seed 003's splash
            // picks login or main) whatever launched the app: an icon tap, a notification tap or a quick
            // action; the tap's or shortcut's routing runs after it (device.md §1.1 (d), [A-DEL][A-SCENE]).
            route(bundleID, .object([:]), trigger: .launch, now: now)
        }
        if let held = apps[bundleID]!.heldPush {
            apps[bundleID]!.heldPush = nil
            if app.declaration.delegate.implementsFetchHandler {
                log(.callback(.didReceiveRemoteNotification(userInfo: held.payload, state: .foreground)), bundleID, now)
                completeFetch(bundleID, inBackground: false, now: now)
            }
        }
        return true
    }

    /// The user switches to another app: foreground → background.
    mutating func moveToBackground(_ bundleID: String, now: Date) {
        guard apps[bundleID]?.state == .foreground else { return }
        setState(bundleID, .background, .userSwitchedAway, now)
    }

    /// The system suspends a background app.
    package mutating func suspend(_ bundleID: String, now: Date) {
        guard let s = apps[bundleID]?.state, s == .background || s == .foreground else { return }
        setState(bundleID, .suspended, .systemSuspend, now)
    }

    /// The system terminates the app (memory pressure): it can still be launched for background pushes.
    package mutating func terminate(_ bundleID: String, now: Date) {
        guard let s = apps[bundleID]?.state, s.isRunning else { return }
        discardHeldPush(bundleID, now)
        setState(bundleID, .notRunning, .systemTerminate, now)
    }

    /// The user swipes the app away in the app switcher.
    package mutating func forceQuit(_ bundleID: String, now: Date) {
        guard apps[bundleID] != nil else { return }
        discardHeldPush(bundleID, now)
        setState(bundleID, .forceQuit, .userForceQuit, now)
    }

    /// A home-screen quick action: launches or foregrounds the app and routes through the same router.
    package mutating func performQuickAction(_ bundleID: String, type: String, now: Date) {
        guard userLaunch(bundleID, reason: .quickAction, launchPayload: nil, now: now) else { return }
        log(.callback(.performQuickAction(type: type)), bundleID, now)
        route(bundleID, .object([:]), trigger: .quickAction, quickActionType: type, now: now)
    }

    // MARK: navigation

    mutating func route(
        _ bundleID: String, _ payload: JSONValue, trigger: RouteTrigger, actionID: String? = nil,
        quickActionType: String? = nil, now: Date
    ) {
        // An app without any route for this entry point has no routing code to run: log nothing.
        guard let app = apps[bundleID],
            app.declaration.navigation.routes.contains(where: { $0.triggers.contains(trigger) })
        else { return }
        let events = apps[bundleID]!.router.route(
            payload, trigger: trigger, actionID: actionID, quickActionType: quickActionType)
        for e in events { log(.navigation(e), bundleID, now) }
    }

    /// The user presses Back in the app's navigation bar.
    mutating func pressBack(_ bundleID: String, now: Date) {
        guard apps[bundleID] != nil else { return }
        for e in apps[bundleID]!.router.pressBack() { log(.navigation(e), bundleID, now) }
    }

    /// The user swipes from the left edge (interactive pop gesture).
    package mutating func swipeBack(_ bundleID: String, now: Date) {
        guard apps[bundleID] != nil else { return }
        for e in apps[bundleID]!.router.swipeBack() { log(.navigation(e), bundleID, now) }
    }

    /// The user answers the alert on screen. Returns false when there is no alert or no such button.
    @discardableResult
    package mutating func answerAlert(_ bundleID: String, button: String, now: Date) -> Bool {
        guard apps[bundleID] != nil, let events = apps[bundleID]!.router.answerAlert(button) else { return false }
        for e in events { log(.navigation(e), bundleID, now) }
        return true
    }

    /// The user logs in; a route waiting for login runs.
    package mutating func logIn(_ bundleID: String, now: Date) {
        guard apps[bundleID] != nil else { return }
        for e in apps[bundleID]!.router.logIn() { log(.navigation(e), bundleID, now) }
    }

    /// The user logs out.
    package mutating func logOut(_ bundleID: String) { apps[bundleID]?.router.logOut() }
}
