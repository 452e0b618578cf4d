import YAMLSource

/// The keys of a device action (a suite's device steps and the bodies of `serve`'s
/// `POST /devices/{name}/actions`), each with what its value is: what `DeviceAction.decode` checks and what
/// `pushcheck schema` describes. A key whose value may be left out (`- reboot`, `tap:`) accepts null; the others
/// need one (`state: background`).
extension DeviceAction {
    /// `latest` (or `true`, or nothing), an id like `n2`, or `{ title: … }` / `{ id: … }`.
    package static let notificationShape = ValueShape.either([.text, .object(notificationRefTable)])

    static let notificationRefTable = KeyTable(
        "notificationRef", "A notification in Notification Center, by title or id.",
        [
            .init("title", .text, "The latest with this title."),
            .init("id", .text, "By id (n1, n2, …)."),
        ])

    static let actionTable = KeyTable(
        "notificationAction", "An action chosen on a notification.",
        [
            .init("id", .text, "The action identifier.", required: true),
            .init("notification", notificationShape, "Which notification (default latest)."),
        ])

    /// `grant:` / `deny:`: the runtime permission (only POST_NOTIFICATIONS is modelled), or nothing / `true`.
    static let permissionShape = ValueShape.either([
        .boolean, .oneOf(["POST_NOTIFICATIONS", "android.permission.POST_NOTIFICATIONS"]),
    ])

    /// The value of a lifecycle key: the app's bundle id, or `true`/nothing for the step's app.
    static let appValue = ValueShape.text

    package static let keyTable = KeyTable(
        "deviceAction", "What the user or the system does to the simulated phone.",
        [
            .init("launch", appValue, "Launch the app to the foreground (the value may name the app)."),
            .init("foreground", appValue, "Bring the app to the foreground (launch)."),
            .init("background", appValue, "Send the app to the background."),
            .init("suspend", appValue, "Suspend the app."),
            .init(
                "terminate", appValue, "The system terminates the app (it can still be launched for background pushes)."
            ),
            .init("force_quit", appValue, "The user swipes the app away in the app switcher."),
            .init(
                "state", .oneOf(AppState.allCases.map(\.rawValue)), "Put the app in this state.", acceptsNull: false),
            .init("reboot", .ignored, "Restart the device."),
            .init("online", .boolean, "Take the device online (online: false takes it offline)."),
            .init("offline", .boolean, "Take the device offline."),
            .init("register", appValue, "The app calls registerForRemoteNotifications."),
            .init("uninstall", appValue, "Delete the app; its token stops working."),
            .init(
                "authorize", AppDeclaration.authorizationShape, "Change the notification permission in Settings.",
                acceptsNull: false),
            .init(
                "authorization", AppDeclaration.authorizationShape, "Change the notification permission (authorize).",
                acceptsNull: false),
            .init("tap", notificationShape, "Tap a notification (default the latest)."),
            .init(
                "action", .either([.text, .object(actionTable)]),
                "Choose an action of a notification (on: or notification: picks which).", acceptsNull: false),
            .init("dismiss", notificationShape, "Swipe a notification away."),
            .init("expand", notificationShape, "Long-press a notification (its content extension shows)."),
            .init("back", appValue, "Press the Back button."),
            .init("swipe_back", appValue, "The edge-swipe back gesture (skips a confirm_back)."),
            .init("answer_alert", .text, "Press this button of the alert on screen.", acceptsNull: false),
            .init("log_in", appValue, "Log the user in."),
            .init("log_out", appValue, "Log the user out."),
            .init("quick_action", .text, "Perform this home-screen quick action type.", acceptsNull: false),
            .init("force_stop", appValue, "Android: Settings › Force stop (nothing arrives until a launch)."),
            .init("clear_data", appValue, "Android: Settings › Clear data (new FCM token at the next launch)."),
            .init(
                "doze", .either([.boolean, .oneOf(["on", "off"])]), "Android: Doze on or off.", acceptsNull: false),
            .init(
                "open_link", .text, "Android: a VIEW intent with this URI from outside (a deep link).",
                acceptsNull: false),
            .init("lock", .boolean, "Android: the keyguard goes up (apps count as background)."),
            .init("unlock", .boolean, "Android: unlock (the first unlock after a reboot ends direct boot)."),
            .init("grant", permissionShape, "Android: the user grants POST_NOTIFICATIONS (the value may name it)."),
            .init("deny", permissionShape, "Android: the user denies POST_NOTIFICATIONS."),
            .init(
                "start_activity", .object(ActivityRequest.keyTable),
                "The app starts a Live Activity (Activity.request).", acceptsNull: false),
        ])

    /// The keys beside the action key: `app:` and `on:`.
    static let targetTable = KeyTable(
        "deviceActionTarget", "Which app and notification an action applies to.",
        [
            .init("app", .text, "The app (default: the device's only one)."),
            .init("on", notificationShape, "The notification an action: applies to."),
        ])

    /// The action keys (exactly one may appear in a mapping).
    package static var yamlKeys: [String] { keyTable.names }
}
