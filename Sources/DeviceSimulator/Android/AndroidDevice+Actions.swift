import Foundation

// The shared `DeviceAction`s (a suite's device steps, `serve`'s `POST /devices/{name}/actions`) on the Android
// phone: the same word means the same thing where both phones have it; the iOS-only ones are refused with
// `DeviceActionError.notOnThisPlatform`.

extension AndroidDeviceState {
    func resolveApp(_ app: String?) throws(DeviceActionError) -> String {
        try ActionTarget.app(app, installed: apps.keys.sorted())
    }

    /// A tray notification by reference: `latest` is the most recently posted (or replaced) one still there.
    func resolveNotification(_ ref: NotificationRef) throws(DeviceActionError) -> String {
        try ActionTarget.notification(
            ref, in: tray, id: \.id, shownAt: \.postedAt, title: \.title, body: \.body)
    }

    /// Applies a shared action. `terminate` is the system killing the process (an FCM message can start it again);
    /// `force_quit` (swiping the task away in Recents) is the same on AOSP: the process dies, the package is not
    /// stopped (choice [U]: some OEM builds force-stop here; `force_stop` models that). `authorize` maps its status
    /// onto POST_NOTIFICATIONS (authorized/provisional/ephemeral → granted, denied → denied, not-determined →
    /// not asked).
    package mutating func apply(_ action: DeviceAction, now: Date) throws(DeviceActionError) {
        func interaction(_ body: (inout AndroidDeviceState) throws(AndroidInteractionError) -> Void)
            throws(DeviceActionError)
        {
            do throws(AndroidInteractionError) { try body(&self) } catch {
                switch error {
                case .noSuchApp(let p): throw .noSuchApp(p, installed: apps.keys.sorted())
                case .noSuchNotification(let id, _): throw .noSuchNotification(.id(id), available: tray.map(\.id))
                }
            }
        }
        switch action {
        case .launch(let a):
            let pkg = try resolveApp(a)
            try interaction { (s) throws(AndroidInteractionError) in try s.launch(pkg, now: now) }
        case .background(let a): goHome(try resolveApp(a), now: now)
        case .terminate(let a), .forceQuit(let a): kill(try resolveApp(a), now: now)
        case .forceStop(let a): forceStop(try resolveApp(a), now: now)
        case .clearData(let a): clearData(try resolveApp(a), now: now)
        case .reboot: reboot(now: now)
        case .online(let on): setOnline(on, now: now)
        case .doze(let on): setDoze(on, now: now)
        case .lock(let on): if on { lock(now: now) } else { unlock(now: now) }
        case .openLink(let uri): guard openDeepLink(uri, now: now) else { throw .noActivityForLink(uri) }
        case .uninstall(let a): uninstall(try resolveApp(a), now: now)
        case .permission(let a, let granted):
            setPermission(granted ? .granted : .denied, for: try resolveApp(a), now: now)
        case .authorize(let a, let settings):
            let p: PostNotificationsState =
                switch settings.status {
                case .denied: .denied
                case .notDetermined: .notAsked
                default: .granted
                }
            setPermission(p, for: try resolveApp(a), now: now)
        case .tap(let ref):
            let id = try resolveNotification(ref)
            try interaction { (s) throws(AndroidInteractionError) in try s.tap(id, now: now) }
        case .dismiss(let ref):
            let id = try resolveNotification(ref)
            try interaction { (s) throws(AndroidInteractionError) in try s.dismiss(id, now: now) }
        case .back(let a), .swipeBack(let a): pressBack(try resolveApp(a), now: now)
        case .answerAlert(let a, let button):
            let pkg = try resolveApp(a)
            guard answerAlert(pkg, button: button, now: now) else { throw .noAlertShowing(app: pkg, button: button) }
        case .logIn(let a): logIn(try resolveApp(a), now: now)
        case .suspend, .register, .chooseAction, .expand, .quickAction, .logOut, .startActivity:
            throw .notOnThisPlatform(action: "\(action)", platform: .android)
        }
    }
}

extension AndroidDevice {
    /// Applies `action` and returns the events it caused (token answers included).
    @discardableResult
    package func apply(_ action: DeviceAction) throws(DeviceActionError) -> [AndroidDeviceEvent] {
        try perform { (s: inout AndroidDeviceState, now: Date) throws(DeviceActionError) in
            try s.apply(action, now: now)
        }.events
    }
}
