/// A table of the names a suite may write in one place (the keys of `expect:`, the fields of one of them, the
/// sources of `capture:`, the fields of a `${…}` namespace): every entry as data, in the order messages list them,
/// with one line saying what it is. What a schema or reference generator reads; the decoders take their allowed
/// names from the same cases.
protocol SuiteTable: RawRepresentable<String>, CaseIterable, Sendable {
    /// Where in a suite the names are written (`expect:`, `expect: { notification: … }`, `capture:` after `run`).
    static var place: String { get }
    /// One line: what the entry is or reads.
    var summary: String { get }
}

extension SuiteTable {
    /// Every entry: its name as written and its summary, in table order.
    static var entries: [(name: String, summary: String)] { allCases.map { ($0.rawValue, $0.summary) } }
}

extension ExpectKey: SuiteTable {
    static var place: String { "expect:" }
    var summary: String {
        switch self {
        case .status: "The last send's HTTP status."
        case .reason: "The last send's APNs reason (BadDeviceToken, Unregistered, …)."
        case .headers: "The last send's response headers, by name."
        case .timestamp: "The last send's 410 timestamp (milliseconds since the epoch)."
        case .errorCode: "The last FCM send's FcmError errorCode (UNREGISTERED, …; absent on success)."
        case .name: "The last FCM send's message name (projects/…/messages/…)."
        case .delivered: "Whether the last sent push reached the app."
        case .dropped: "Why the last sent push did not reach the app (absent when it did)."
        case .stored: "Whether the gateway keeps the last sent push for an offline device."
        case .reached:
            "What the last sent push reached: app, pushkit, push-to-talk, location-push-service-extension, "
                + "widget-reload, controls-reload, file-provider-extension."
        case .callkit: "reported or not-reported: the app and CallKit for the VoIP push since the previous expect."
        case .callbacks: "The app callbacks called since the previous expect, in order."
        case .extras: "Android: the extras of the intent the top activity holds (getIntent().getExtras()), by key."
        case .channel: "Android: the channel of the app's latest notification (after the SDK's fallbacks)."
        case .tray: "Android: the titles (else bodies) of the app's notifications in the tray, oldest first."
        case .permission: "A runtime permission's state (POST_NOTIFICATIONS: granted, denied, not_asked)."
        case .userInfo: "Key paths in the userInfo of the app's latest push."
        case .notification: "Fields of the app's latest notification; presented, count."
        case .extensions: "What the app's extensions did; the content extension's Info.plist facts."
        case .navigation: "The app's screens now; the routes taken since the previous expect."
        case .page: "The web view's page now; its navigation outcomes since the previous expect."
        case .openedURL: "A URL opened since the previous expect (a scalar means contains)."
        case .install: "installed, failed or not-installed."
        case .registration: "registered, failed or not-registered."
        case .findings: "The provisioning finding codes since the device was set up (a scalar means contains)."
        case .symptoms: "Those findings' symptoms, one line each."
        case .token: "The app's APNs device token (hex)."
        case .state: "The app's state (foreground, background, suspended, not-running, force-quit)."
        case .badge: "The app icon's badge."
        case .exit: "The last run step's exit code."
        case .stdout: "The last run step's standard output."
        case .stderr: "The last run step's standard error."
        case .callback: "One callback's arguments, at its last call since the previous expect."
        case .exactly: "Whole objects, every key and no more."
        case .atLeast: "Whole objects, these keys (nested) with these values."
        case .snapshot: "What the device got and did since the previous expect, against the stored snapshot."
        case .request: "Which request of a run step's backend the block checks (not a check)."
        case .activity: "The app's latest Live Activity: its state, content state, relevance, alert, token; count."
        }
    }
}

extension NotificationField: SuiteTable {
    static var place: String { "expect: { notification: … }" }
    var summary: String {
        switch self {
        case .presented: "Whether a notification was presented since the previous expect."
        case .channel: "Android: the latest notification's channel id."
        case .tag: "Android: the latest notification's tag (the message's, else FCM-Notification:<uptime>)."
        case .color: "Android: the latest notification's accent color."
        case .icon: "Android: the latest notification's small icon."
        case .number: "Android: the latest notification's number (notification_count)."
        case .count: "How many of the app's notifications Notification Center lists."
        case .title: "The latest notification's title."
        case .subtitle: "The latest notification's subtitle."
        case .body: "The latest notification's body."
        case .badge: "The latest notification's badge."
        case .sound: "The sound the latest notification played (or asked for)."
        case .category: "The latest notification's category identifier."
        case .threadID: "The latest notification's thread identifier."
        case .banner: "Whether the latest notification showed as a banner."
        case .list: "Whether the latest notification went to Notification Center's list."
        case .quiet: "Whether the latest notification was delivered quietly (provisional)."
        case .interruptionLevel: "The interruption level iOS applied to the latest notification."
        case .id: "The latest notification's id (n1, n2, …)."
        case .actions: "The action identifiers the latest notification offers (its registered category's)."
        case .actionTitles: "Those actions' titles."
        }
    }
}

extension NavigationField: SuiteTable {
    static var place: String { "expect: { navigation: … }" }
    var summary: String {
        switch self {
        case .tab: "The selected tab's 0-based position."
        case .activity: "Android: the top activity of the app's task."
        case .activities: "Android: the activities of the app's task, root first."
        case .tabTitle: "The selected tab's title."
        case .stack: "The screen ids on the navigation stack, bottom first."
        case .top: "The top screen's id."
        case .title: "The top screen's title."
        case .alert: "The title of the alert on screen."
        case .alertMessage: "The message of the alert on screen."
        case .routed: "The last route taken since the previous expect."
        case .routingFailed: "The key that failed the last route since the previous expect."
        case .loggedIn: "Whether the user is logged in."
        case .url: "The URL the top screen was routed to."
        }
    }
}

extension PageField: SuiteTable {
    static var place: String { "expect: { page: … }" }
    var summary: String {
        switch self {
        case .status: "The loaded page's HTTP status."
        case .url: "The loaded page's final URL, after redirects."
        case .title: "The loaded page's title."
        case .text: "The loaded page's text (contains: a substring of it)."
        case .httpVersion: "The HTTP version the page came over."
        case .redirects: "The redirects followed to reach the page."
        case .openedExternally: "A URL the web view's policy opened outside the app since the previous expect."
        case .failed: "Why the last page load failed since the previous expect."
        case .cancelled: "Why the app cancelled the last page load since the previous expect."
        }
    }
}

extension ExtensionField: SuiteTable {
    static var place: String { "expect: { extensions: … }" }
    var summary: String {
        switch self {
        case .service: "What the service extension did: ran, modified, timed-out or not-run."
        case .content: "The name of the content extension last shown."
        case .response: "How the content extension answered an action: dismiss, do-not-dismiss, dismiss-and-forward."
        case .contentSizeRatio: "The content extension's UNNotificationExtensionInitialContentSizeRatio."
        case .defaultContentHidden: "The content extension's UNNotificationExtensionDefaultContentHidden."
        case .userInteraction: "The content extension's UNNotificationExtensionUserInteractionEnabled."
        case .overridesTitle: "The content extension's UNNotificationExtensionOverridesDefaultTitle."
        }
    }
}

extension WholeObject: SuiteTable {
    static var place: String { "expect: { exactly: … } / { at_least: … }" }
    var summary: String {
        switch self {
        case .userInfo: "The userInfo of the app's latest push."
        case .notification: "The app's latest notification: title, subtitle, body, badge, sound, category and more."
        case .payload: "The last push the gateway accepted since the previous expect, as JSON."
        }
    }
}

extension CallbackField: SuiteTable {
    static var place: String { "expect: { callback: { <callback>: … } }" }
    var summary: String {
        switch self {
        case .calls: "How many times the callback was called since the previous expect."
        case .launchOptions: "launchOptions as the app sees it (remoteNotification.<path>)."
        case .action: "The action the user chose (the default action for a tap)."
        case .userInfo: "The userInfo the callback got (key paths)."
        case .token: "The device token, hex."
        case .error: "The registration error's description."
        case .options: "The presentation options willPresent answered."
        case .state: "The app state a background push ran in."
        case .type: "A home-screen quick action's type."
        }
    }
}

extension SendCapture: SuiteTable {
    static var place: String { "capture: after send (also header.<name>)" }
    var summary: String {
        switch self {
        case .status: "The HTTP status."
        case .reason: "The APNs reason."
        case .apnsID: "The apns-id of the push."
        case .apnsUniqueID: "The apns-unique-id (sandbox only)."
        case .timestamp: "The 410 timestamp."
        }
    }
}

extension FCMSendCapture: SuiteTable {
    static var place: String { "capture: after send: { via: fcm }" }
    var summary: String {
        switch self {
        case .status: "The HTTP status."
        case .errorCode: "The FcmError errorCode."
        case .name: "The message name (projects/…/messages/…)."
        case .apnsID: "The apns-id of the request FCM made to APNs."
        }
    }
}

extension RunCapture: SuiteTable {
    static var place: String { "capture: after run (also json.<path> of stdout)" }
    var summary: String {
        switch self {
        case .stdout: "Standard output, trimmed."
        case .stderr: "Standard error, trimmed."
        case .exit: "The exit code."
        }
    }
}

extension DeviceVariable: SuiteTable {
    static var place: String { "${device.<name>.…}, capture: after a device step" }
    var summary: String {
        switch self {
        case .token: "The app's APNs device token (hex)."
        case .previousToken: "The token before the last uninstall or re-registration (410 at the gateway)."
        case .fcmToken: "The app's FCM registration token."
        case .previousFCMToken: "The FCM token before the last uninstall or re-registration (UNREGISTERED)."
        case .udid: "The device's UDID."
        case .voipToken: "The app's PushKit VoIP token (hex; push_types: [voip])."
        case .pushToTalkToken: "The app's Push to Talk token (hex; push_types: [pushtotalk])."
        case .locationToken: "The app's location push token (hex; push_types: [location])."
        case .widgetsToken: "The app's WidgetKit push token (hex; push_types: [widgets])."
        case .controlsToken: "The app's controls push token (hex; push_types: [controls])."
        case .fileProviderToken: "The app's File Provider PushKit token (hex; push_types: [fileprovider])."
        case .pushToStartToken: "The app's push-to-start token (hex); .<AttributesType> picks the type."
        case .activityToken: "The latest activity's push token (hex); .<activity id> picks one (a1, a2, …)."
        case .activityID: "The app's latest Live Activity's id (a1, a2, …)."
        }
    }
}

extension FixtureVariable: SuiteTable {
    static var place: String { "${fixture.…}" }
    var summary: String {
        switch self {
        case .http: "The fixture web server's http:// URL (serves Suites/pages/)."
        case .https: "Its https:// URL."
        case .ca: "The PEM file of the CA that signed its certificate."
        }
    }
}

extension GatewayVariable: SuiteTable {
    static var place: String { "${gateway.…}" }
    var summary: String {
        switch self {
        case .sandbox: "The world's APNs sandbox URL, at the root (as api.sandbox.push.apple.com)."
        case .production: "The world's APNs production URL, at the root."
        case .ca: "The PEM file of the CA that signs the mock's certificates."
        case .fcm: "The world's FCM URL, at the root (as fcm.googleapis.com)."
        }
    }
}
