import Foundation
import PushModel

/// Why a user interaction on the Android phone could not happen.
package enum AndroidInteractionError: Error, Equatable, CustomStringConvertible {
    case noSuchNotification(id: String, inTray: [String])
    case noSuchApp(String)

    package var description: String {
        switch self {
        case .noSuchNotification(let id, let tray):
            let list = tray.isEmpty ? "the tray is empty" : "in the tray: " + tray.joined(separator: ", ")
            return "no notification '\(id)' in the tray (\(list)); check the delivery events (was it shown at all?)"
        case .noSuchApp(let p): return "\(p) is not installed"
        }
    }
}

/// `Intent.ACTION_MAIN` / `ACTION_VIEW`.
let actionMain = "android.intent.action.MAIN"
let actionView = "android.intent.action.VIEW"

extension AndroidDeviceState {
    /// The user taps a notification: auto-cancel removes it (not for `sticky` ones), then its content intent starts an
    /// activity: `click_action` → the activity with that action (no fallback: nothing opens when none has it), else a
    /// link → the activity with a matching `<data>`, else the launcher activity ([R-SDK] `createContentIntent`,
    /// Tests/reference/android.md §6). App-posted notifications name their activity.
    package mutating func tap(_ id: String, now: Date) throws(AndroidInteractionError) {
        guard let i = tray.firstIndex(where: { $0.id == id }) else {
            throw .noSuchNotification(id: id, inTray: tray.map(\.id))
        }
        let n = tray[i]
        if locked { unlock(now: now) }  // opening it from the lock screen asks for the unlock first
        exitDoze(now: now)
        if n.autoCancel {
            tray.remove(at: i)
            log(.notificationRemoved(id: id, reason: "tapped"), n.packageName, now)
        }
        guard let manifest = apps[n.packageName]?.declaration.manifest else { return }
        let target: AndroidActivityDeclaration
        let action: String
        if let explicit = n.activity {
            guard let a = manifest.activity(named: explicit) ?? manifest.launcherActivity else {
                log(.messageDropped(messageID: n.messageID, reason: .noLauncherActivity), n.packageName, now)
                return
            }
            (target, action) = (a, actionMain)
        } else if let clickAction = n.clickAction {
            guard let a = manifest.activities.first(where: { $0.actions.contains(clickAction) }) else {
                log(
                    .messageDropped(messageID: n.messageID, reason: .tapNoActivityForAction(clickAction)),
                    n.packageName, now)
                return
            }
            (target, action) = (a, clickAction)
        } else if let link = n.link {
            guard let a = manifest.activities.first(where: { $0.deepLinks.contains { $0.matches(link) } }) else {
                log(.messageDropped(messageID: n.messageID, reason: .tapNoActivityForLink(link)), n.packageName, now)
                return
            }
            (target, action) = (a, actionView)
            startActivity(
                n.packageName, target, action: action, extras: n.extras, link: link, reason: .notificationTap, now: now)
            return
        } else {
            guard let a = manifest.launcherActivity else {
                log(.messageDropped(messageID: n.messageID, reason: .noLauncherActivity), n.packageName, now)
                return
            }
            (target, action) = (a, actionMain)
        }
        startActivity(n.packageName, target, action: action, extras: n.extras, reason: .notificationTap, now: now)
    }

    /// The user swipes a notification away.
    package mutating func dismiss(_ id: String, now: Date) throws(AndroidInteractionError) {
        guard let i = tray.firstIndex(where: { $0.id == id }) else {
            throw .noSuchNotification(id: id, inTray: tray.map(\.id))
        }
        let n = tray.remove(at: i)
        log(.notificationRemoved(id: id, reason: "dismissed by user"), n.packageName, now)
    }

    /// The user taps the app's icon: the process starts if needed and the launcher activity is created, or the
    /// existing task comes to the front.
    package mutating func launch(_ pkg: String, now: Date) throws(AndroidInteractionError) {
        guard let app = apps[pkg] else { throw .noSuchApp(pkg) }
        if locked { unlock(now: now) }
        exitDoze(now: now)
        if app.state.isRunning, !app.task.isEmpty {
            setState(pkg, .foreground, .userLaunch, now)
            return
        }
        guard let launcher = app.declaration.manifest.launcherActivity else {
            log(.messageDropped(messageID: "launch", reason: .noLauncherActivity), pkg, now)
            return
        }
        startActivity(pkg, launcher, action: actionMain, extras: [:], reason: .userLaunch, now: now)
    }

    /// A `VIEW` intent from outside (a browser, `adb shell am start -d`): the first app's activity with a matching
    /// `<data>` opens. Returns false when no activity on the device handles the URI.
    @discardableResult
    mutating func openDeepLink(_ uri: String, now: Date) -> Bool {
        for pkg in apps.keys.sorted() {
            guard
                let a = apps[pkg]!.declaration.manifest.activities.first(where: {
                    $0.deepLinks.contains { $0.matches(uri) }
                })
            else { continue }
            if locked { unlock(now: now) }
            startActivity(pkg, a, action: actionView, extras: [:], link: uri, reason: .deepLink, now: now)
            log(.urlOpened(url: uri, by: "\(pkg)/\(a.name)"), pkg, now)
            return true
        }
        return false
    }

    /// Starts `target` with `FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_CLEAR_TOP` (what the SDK's content intent and a
    /// launch use). CLEAR_TOP: an instance already in the task has the activities above it finished; "If it has
    /// declared its launch mode to be "multiple" (the default) and you have not set FLAG_ACTIVITY_SINGLE_TOP in the
    /// same intent, then it will be finished and re-created; for all other launch modes … this Intent will be
    /// delivered to the current instance's onNewIntent()" (`Intent.FLAG_ACTIVITY_CLEAR_TOP` reference).
    mutating func startActivity(
        _ pkg: String, _ target: AndroidActivityDeclaration, action: String, extras: [String: String],
        link: String? = nil, reason: AndroidTransitionReason, now: Date
    ) {
        startProcess(pkg, to: .foreground, reason, now)
        var task = apps[pkg]!.task
        guard let i = task.lastIndex(where: { $0.name == target.name }) else {
            createActivity(pkg, target, action: action, extras: extras, link: link, reason: reason, now: now)
            return
        }
        for a in task[(i + 1)...].reversed() {
            log(.activityStarted(activity: a.name, how: "finished (CLEAR_TOP)"), pkg, now)
        }
        task.removeSubrange((i + 1)...)
        if target.launchMode == .standard {
            task.removeLast()
            apps[pkg]!.task = task
            log(
                .activityStarted(
                    activity: target.name, how: "finished to be re-created (standard launch mode, CLEAR_TOP)"), pkg, now
            )
            createActivity(pkg, target, action: action, extras: extras, link: link, reason: reason, now: now)
            return
        }
        apps[pkg]!.task = task
        apps[pkg]!.webPage = nil
        log(
            .activityStarted(activity: target.name, how: "reused (\(target.launchMode.rawValue)): onNewIntent"), pkg,
            now)
        log(.callback(.onNewIntent(activity: target.name, action: action, extras: extras)), pkg, now)
        guard target.handlesNewIntent else {
            log(.messageDropped(messageID: "intent", reason: .newIntentNotHandled(activity: target.name)), pkg, now)
            return
        }
        let top = apps[pkg]!.task.count - 1
        apps[pkg]!.task[top].action = action
        apps[pkg]!.task[top].extras = extras
        if reason == .notificationTap { route(pkg, extras, trigger: .tap, now: now) }
        if let link { route(pkg, extras.merging(["link": link]) { _, l in l }, trigger: .link, now: now) }
    }

    /// A new activity instance: its own fragment stack, `onCreate` with the intent; the launcher activity runs the
    /// app's `launch` routes (its splash), then a tap's extras are routed.
    private mutating func createActivity(
        _ pkg: String, _ target: AndroidActivityDeclaration, action: String, extras: [String: String],
        link: String? = nil, reason: AndroidTransitionReason, now: Date
    ) {
        let app = apps[pkg]!
        var router = Router(app.declaration.navigation)
        if app.loggedIn, !router.loggedIn {
            _ = router.logIn()
        } else if !app.loggedIn {
            router.logOut()
        }
        apps[pkg]!.task.append(
            AndroidActivityInstance(name: target.name, action: action, extras: extras, router: router))
        apps[pkg]!.webPage = nil
        log(.activityStarted(activity: target.name, how: "created"), pkg, now)
        log(.callback(.onCreate(activity: target.name, action: action, extras: extras)), pkg, now)
        if target.launcher { route(pkg, [:], trigger: .launch, now: now) }
        if reason == .notificationTap { route(pkg, extras, trigger: .tap, now: now) }
        if let link { route(pkg, extras.merging(["link": link]) { _, l in l }, trigger: .link, now: now) }
    }

    /// Routes through the top activity's router, as the iOS device does (an app with no route for the trigger logs
    /// nothing). The payload is the extras, all strings as Android delivers them.
    mutating func route(_ pkg: String, _ extras: [String: String], trigger: RouteTrigger, now: Date) {
        guard let app = apps[pkg], !app.task.isEmpty,
            app.declaration.navigation.routes.contains(where: { $0.triggers.contains(trigger) })
        else { return }
        let top = app.task.count - 1
        let payload = JSONValue.object(extras.mapValues(JSONValue.string))
        for e in apps[pkg]!.task[top].router.route(payload, trigger: trigger) { log(.navigation(e), pkg, now) }
    }

    /// Back: the top activity's fragment stack pops first; then the activity finishes; on the task's root, a launcher
    /// activity on Android 12+ (API 31) moves the task to the back instead of finishing ("Root launcher activities are
    /// no longer finished on Back press", Android 12 behavior changes; AOSP 50b3cc03e62b), any other root finishes the
    /// task. The app goes to the background either way.
    mutating func pressBack(_ pkg: String, now: Date) {
        guard let app = apps[pkg], app.state == .foreground, let top = app.task.last else { return }
        let index = app.task.count - 1
        if top.router.alert != nil || !top.router.stack.isEmpty {
            for e in apps[pkg]!.task[index].router.pressBack() { log(.navigation(e), pkg, now) }
            return
        }
        if app.task.count > 1 {
            apps[pkg]!.task.removeLast()
            apps[pkg]!.webPage = nil
            log(.activityStarted(activity: top.name, how: "finished (Back)"), pkg, now)
            return
        }
        let launcher = app.declaration.manifest.activity(named: top.name)?.launcher ?? false
        if launcher, apiLevel >= 31 {
            setState(pkg, .background, .backMovedTaskToBack, now)
        } else {
            log(.activityStarted(activity: top.name, how: "finished (Back)"), pkg, now)
            apps[pkg]!.task = []
            apps[pkg]!.webPage = nil
            setState(pkg, .background, .backFinishedTask, now)
        }
    }

    /// The user answers the alert of the top activity. False when none shows or the button does not exist.
    @discardableResult
    package mutating func answerAlert(_ pkg: String, button: String, now: Date) -> Bool {
        guard let app = apps[pkg], !app.task.isEmpty else { return false }
        let top = app.task.count - 1
        guard let events = apps[pkg]!.task[top].router.answerAlert(button) else { return false }
        for e in events { log(.navigation(e), pkg, now) }
        return true
    }

    /// The user logs in (a route waiting for it runs in the top activity); the login is kept for new activities.
    package mutating func logIn(_ pkg: String, now: Date) {
        guard apps[pkg] != nil else { return }
        apps[pkg]!.loggedIn = true
        guard !apps[pkg]!.task.isEmpty else { return }
        let top = apps[pkg]!.task.count - 1
        for e in apps[pkg]!.task[top].router.logIn() { log(.navigation(e), pkg, now) }
    }

    /// The screen the user sees in the app: the top fragment, else the top activity's own screen.
    package func currentScreen(_ pkg: String) -> String? {
        guard let top = apps[pkg]?.task.last else { return nil }
        return top.router.currentScreen ?? apps[pkg]?.declaration.manifest.activity(named: top.name)?.screen
    }
}
