import Foundation
import PushModel

/// An activity instance in the app's task, with its own fragment back stack: the shared `Router` (the iOS navigation
/// model), built from the app's `navigation` when the instance is created.
package struct AndroidActivityInstance: Sendable, Equatable {
    package var name: String
    /// The intent it holds (`getIntent()`): the one that created it, or the last one `onNewIntent` took.
    package var action: String?
    package var extras: [String: String]
    package var router: Router
}

/// One installed Android app.
package struct InstalledAndroidApp: Sendable, Equatable {
    package var declaration: AndroidAppDeclaration
    /// A new install is in the stopped state until the user launches it (`AndroidAppState.forceStopped`).
    package var state: AndroidAppState = .forceStopped
    package var permission: PostNotificationsState
    /// Channels that exist (the app's, once `Application.onCreate` ran on API 26+, and the SDK's fallback).
    package var channels: [AndroidChannel] = []
    package var fcmToken: String?
    /// The task's activities, root first.
    package var task: [AndroidActivityInstance] = []
    /// The login, kept on disk by a real app: new activity instances start in it.
    package var loggedIn: Bool
    /// The page the top activity's WebView shows, once loaded.
    package var webPage: WebPage?
    var recentMessageIDs: [String] = []
    var highPriorityDeliveries: [Date] = []
    var silentHighPriority: [Date] = []
    var generation: Int

    init(declaration: AndroidAppDeclaration, generation: Int) {
        self.declaration = declaration
        self.permission = declaration.permission
        self.loggedIn = declaration.navigation.startsLoggedIn
        self.generation = generation
    }

    package func channel(_ id: String) -> AndroidChannel? { channels.first { $0.id == id } }
}

/// A message the device got but does not hand to the app yet (Doze, direct boot).
package struct AndroidHeldMessage: Sendable, Equatable {
    package var message: AndroidMessage
    package var deferral: AndroidDeferral
}

/// The whole Android phone as a value: every operation is a mutating function taking the time and appending to the
/// event log; `AndroidDevice` wraps it behind a `Mutex`. No I/O.
package struct AndroidDeviceState: Sendable, Equatable {
    package let name: String
    package let serial: String
    /// The Android API level (33 = Android 13: POST_NOTIFICATIONS; 26: channels; 31: Back moves launcher tasks back).
    package let apiLevel: Int
    package var rules: AndroidRules
    package internal(set) var online = true
    /// The keyguard is up: apps count as background for FCM even with an activity on screen (Tests/reference/android.md §1, [R-SDK]
    /// `DisplayNotification.isAppForeground`).
    var locked = false
    /// False from a reboot until the first unlock (direct boot mode) [F-DB].
    var unlockedSinceBoot = true
    /// When Doze's idle cycle started (nil: not dozing).
    var dozeSince: Date?
    var charging = false
    var bootedAt: Date
    package internal(set) var apps: [String: InstalledAndroidApp] = [:]
    package internal(set) var tray: [AndroidTrayNotification] = []
    package internal(set) var events: [AndroidDeviceEvent] = []
    /// What FCM keeps for the device while it is offline.
    package internal(set) var store = AndroidMessageStore()
    /// Received, waiting for Doze's window or the first unlock.
    package internal(set) var held: [AndroidHeldMessage] = []
    package let seed: UInt64
    let tokens: TokenGenerator
    var lastUptimeMillis: Int64 = -1
    /// True when a token service is attached (`AndroidDevice.useTokenService`): tokens come from it.
    var tokenServiceAttached = false
    var pendingTokenRequests: [String] = []
    var installs = 0
    var notificationCounter = 0

    package init(
        name: String, serial: String, apiLevel: Int = 34, seed: UInt64, bootedAt: Date,
        rules: AndroidRules = AndroidRules()
    ) {
        self.name = name
        self.serial = serial
        self.apiLevel = apiLevel
        self.seed = seed
        self.bootedAt = bootedAt
        self.rules = rules
        self.tokens = TokenGenerator(seed: seed)
    }

    mutating func log(_ kind: AndroidEventKind, _ packageName: String?, _ now: Date) {
        events.log(kind, packageName, now)
    }

    /// Entries dropped from the front of `events` (`AndroidRules.eventLogLimit`; see `DeviceState.eventsDropped`).
    package var eventsDropped: Int { (events.first?.sequence ?? 1) - 1 }

    mutating func trimLogs() { rules.eventLogLimit.trim(&events) }

    mutating func setState(_ pkg: String, _ to: AndroidAppState, _ reason: AndroidTransitionReason, _ now: Date) {
        guard let from = apps[pkg]?.state, from != to else { return }
        apps[pkg]!.state = to
        if !to.isRunning {
            apps[pkg]!.task = []
            apps[pkg]!.webPage = nil
        }
        log(.stateChanged(from: from, to: to, reason: reason), pkg, now)
    }

    /// FCM's notion of foreground: unlocked, and an activity of the app resumed (Tests/reference/android.md §1).
    func isForeground(_ pkg: String) -> Bool { !locked && apps[pkg]?.state == .foreground }

    /// Whether the app may show notifications: API 33+ needs POST_NOTIFICATIONS granted (`not_asked` counts as
    /// denied: "notifications are off by default" on a new install [AND-PERM]); below 33 notifications are on unless
    /// the user turned them off (`denied`).
    func notificationsAllowed(_ pkg: String) -> Bool {
        guard let app = apps[pkg] else { return false }
        return apiLevel >= 33 ? app.permission == .granted : app.permission != .denied
    }

    /// Channels exist on API 26+ for apps targeting 26+ [AND-CH].
    func usesChannels(_ pkg: String) -> Bool {
        apiLevel >= 26 && (apps[pkg]?.declaration.targetSdk ?? 0) >= 26
    }

    // MARK: install, data, permission

    /// Installs `app` in the stopped state (it gets no token and no message until first launched).
    package mutating func install(_ app: AndroidAppDeclaration, now: Date) {
        installs += 1
        apps[app.packageName] = InstalledAndroidApp(declaration: app, generation: installs)
        log(.installed, app.packageName, now)
    }

    /// Removes the app: its notifications go, its token stops working (FCM answers UNREGISTERED).
    package mutating func uninstall(_ pkg: String, now: Date) {
        guard let app = apps.removeValue(forKey: pkg) else { return }
        tray.removeAll { $0.packageName == pkg }
        held.removeAll { $0.message.packageName == pkg }
        log(.uninstalled(fcmToken: app.fcmToken), pkg, now)
    }

    /// Settings ▸ Storage ▸ Clear data: the process is killed, channels and the Firebase installation are deleted;
    /// the next launch is a first launch with a new token (Tests/reference/android.md §8, §12). Choice: the
    /// package is left stopped, like a fresh install.
    package mutating func clearData(_ pkg: String, now: Date) {
        guard let app = apps[pkg] else { return }
        setState(pkg, .forceStopped, .dataCleared, now)
        tray.removeAll { $0.packageName == pkg }
        installs += 1
        var fresh = InstalledAndroidApp(declaration: app.declaration, generation: installs)
        fresh.state = .forceStopped
        apps[pkg] = fresh
        log(.dataCleared(fcmToken: app.fcmToken), pkg, now)
    }

    /// The user answers the permission dialog or changes Settings.
    mutating func setPermission(_ p: PostNotificationsState, for pkg: String, now: Date) {
        guard apps[pkg] != nil, apps[pkg]!.permission != p else { return }
        apps[pkg]!.permission = p
        log(.permissionChanged(p), pkg, now)
    }

    /// The app's process starts (for a launch, a tap or an FCM message): `Application.onCreate` creates the
    /// declared channels (API 26+) and, on the first start of an install, the SDK registers for a token.
    mutating func startProcess(
        _ pkg: String, to target: AndroidAppState, _ reason: AndroidTransitionReason, _ now: Date
    ) {
        guard let app = apps[pkg], !app.state.isRunning else {
            if target == .foreground { setState(pkg, .foreground, reason, now) }
            return
        }
        setState(pkg, target, reason, now)
        log(.callback(.applicationOnCreate), pkg, now)
        if usesChannels(pkg) {
            for c in app.declaration.channels where apps[pkg]!.channel(c.id) == nil {
                apps[pkg]!.channels.append(c)
                log(.channelCreated(c), pkg, now)
            }
        }
        if let fb = app.declaration.firebase, app.declaration.manifest.autoInitEnabled, app.fcmToken == nil {
            if tokenServiceAttached {
                if !pendingTokenRequests.contains(pkg) { pendingTokenRequests.append(pkg) }
            } else {
                receiveToken(
                    pkg, generation: app.generation,
                    .success(
                        tokens.fcmToken(
                            udid: serial, bundleID: pkg, senderID: fb.senderID, generation: app.generation)), now)
            }
        }
    }

    /// The token service's answer (or the device's own seeded token): `onNewToken`.
    mutating func receiveToken(
        _ pkg: String, generation: Int, _ answer: Result<String, FirebaseTokenRefusal>, _ now: Date
    ) {
        guard let app = apps[pkg], app.generation == generation else { return }  // an install since gone
        switch answer {
        case .success(let token):
            apps[pkg]!.fcmToken = token
            log(.tokenIssued(fcmToken: token), pkg, now)
            if app.declaration.manifest.messagingService != nil { log(.callback(.onNewToken(token: token)), pkg, now) }
        case .failure(let refusal):
            log(.tokenFailed(reason: refusal.reason), pkg, now)
        }
    }

    /// The Firebase installation ID of the app's current install (22 characters, seeded).
    package func installationID(of pkg: String) -> String? {
        guard let app = apps[pkg], let fb = app.declaration.firebase else { return nil }
        return tokens.firebaseInstallationID(
            udid: serial, bundleID: pkg, senderID: fb.senderID, generation: app.generation)
    }

    // MARK: app life cycle

    /// The user presses Home: the foreground app goes to the background.
    mutating func goHome(_ pkg: String, now: Date) {
        guard apps[pkg]?.state == .foreground else { return }
        setState(pkg, .background, .userWentHome, now)
    }

    /// The system kills the process (memory): an FCM message can start it again. No state restoration is modelled:
    /// the task is rebuilt from nothing at the next start.
    package mutating func kill(_ pkg: String, now: Date) {
        guard let s = apps[pkg]?.state, s.isRunning else { return }
        setState(pkg, .killed, .systemKill, now)
    }

    /// Settings ▸ Force stop: the stopped state; the app's notifications are cleared with it (choice [U]: the
    /// package manager's force stop cancels them, as observed on devices).
    package mutating func forceStop(_ pkg: String, now: Date) {
        guard apps[pkg] != nil else { return }
        setState(pkg, .forceStopped, .userForceStop, now)
        for n in tray where n.packageName == pkg {
            log(.notificationRemoved(id: n.id, reason: "app force-stopped"), pkg, now)
        }
        tray.removeAll { $0.packageName == pkg }
        held.removeAll { $0.message.packageName == pkg }
    }

    // MARK: device conditions

    package mutating func lock(now: Date) {
        guard !locked else { return }
        locked = true
        log(.locked, nil, now)
    }

    /// Unlocks the keyguard; the first unlock after a reboot ends direct boot and releases what waited for it.
    mutating func unlock(now: Date) {
        guard locked else { return }
        locked = false
        log(.unlocked, nil, now)
        exitDoze(now: now)
        if !unlockedSinceBoot {
            unlockedSinceBoot = true
            releaseHeld(now: now) { $0 == .directBoot }
        }
    }

    /// Doze on (screen off, unplugged, still) or off. Off (or the screen coming on) delivers what Doze deferred.
    mutating func setDoze(_ on: Bool, now: Date) {
        if on {
            guard dozeSince == nil, !charging else { return }
            dozeSince = now
            log(.dozeChanged(on: true), nil, now)
        } else {
            exitDoze(now: now)
        }
    }

    /// Charging: Doze and the bucket limits do not apply ("These restrictions do not apply while the device is
    /// charging" [AND-PWR]).
    mutating func setCharging(_ on: Bool, now: Date) {
        guard charging != on else { return }
        charging = on
        log(.chargingChanged(on: on), nil, now)
        if on { exitDoze(now: now) }
    }

    mutating func exitDoze(now: Date) {
        guard dozeSince != nil else { return }
        dozeSince = nil
        log(.dozeChanged(on: false), nil, now)
        releaseHeld(now: now) { if case .doze = $0 { return true } else { return false } }
    }

    /// Network on/off. Back online, FCM hands over what it stored: `onDeletedMessages` first when the store
    /// overflowed, then the stored messages.
    package mutating func setOnline(_ online: Bool, now: Date) {
        guard self.online != online else { return }
        self.online = online
        log(.offlineChanged(online: online), nil, now)
        guard online else { return }
        let (messages, overflowed) = store.drain()
        for pkg in overflowed.sorted() { deliverDeletedMessages(pkg, now: now) }
        for m in messages { receive(m, now: now) }
    }

    /// Reboot: every running app stops (stopped packages stay stopped: the state is kept on disk), the tray empties,
    /// the device is locked and in direct boot until the first unlock.
    package mutating func reboot(now: Date) {
        log(.rebooted, nil, now)
        for pkg in apps.keys.sorted() where apps[pkg]!.state.isRunning { setState(pkg, .killed, .reboot, now) }
        tray.removeAll()
        bootedAt = now
        dozeSince = nil
        locked = true
        unlockedSinceBoot = false
    }

    /// What the clock's advance made due: a message Doze deferred is released once the window it waited for has
    /// opened, even when the clock jumped past that window (a `wait: 3h` crosses several idle periods: the message
    /// went out in the first window). Called before every operation; the release is stamped `now`.
    mutating func catchUp(now: Date) {
        guard dozeSince != nil, !held.isEmpty else { return }
        func due(_ d: AndroidDeferral) -> Bool { if case .doze(let until) = d { until <= now } else { false } }
        guard held.contains(where: { due($0.deferral) }) else { return }
        releaseHeld(now: now, due)
    }

    mutating func releaseHeld(now: Date, _ which: (AndroidDeferral) -> Bool) {
        let due = held.filter { which($0.deferral) }
        held.removeAll { which($0.deferral) }
        for h in due { receive(h.message, now: now, releasedFrom: h.deferral) }
    }

    mutating func nextNotificationID() -> String {
        notificationCounter += 1
        return "a\(notificationCounter)"
    }
}
