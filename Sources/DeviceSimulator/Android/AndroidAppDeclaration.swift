import Foundation

// An Android app as the simulated phone sees it: its package, google-services.json facts, manifest facts, the
// channels it creates at start, its POST_NOTIFICATIONS state, its FCM handler and its navigation. Sources are the
// bracketed tags of Tests/reference/android.md ([R-SDK], [F-RECV], [AND-CH], [AND-PERM], …).

/// `android:launchMode` (Android `<activity>` manifest reference).
package enum AndroidLaunchMode: String, Sendable, Equatable, CaseIterable {
    case standard, singleTop, singleTask, singleInstance
}

/// One `<intent-filter>` with `ACTION_VIEW` and a `<data>` element: the URIs an activity opens (deep links).
package struct AndroidDeepLink: Sendable, Equatable {
    package var scheme: String
    /// nil = any host.
    package var host: String?
    /// `android:pathPrefix`; nil = any path.
    package var pathPrefix: String?

    package init(scheme: String, host: String? = nil, pathPrefix: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.pathPrefix = pathPrefix
    }

    /// Whether `uri` (`scheme://host[:port]/path…`) matches: scheme and host compare case-insensitively (the port is
    /// not part of `android:host`), the path by prefix.
    package func matches(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        guard uri[..<colon].lowercased() == scheme.lowercased() else { return false }
        var rest = uri[uri.index(after: colon)...]
        guard rest.hasPrefix("//") else { return host == nil && pathPrefix == nil }
        rest = rest.dropFirst(2)
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<hostEnd]
        let hostOnly = authority.hasPrefix("[") ? authority : authority.prefix { $0 != ":" }
        if let host, hostOnly.lowercased() != host.lowercased() { return false }
        if let pathPrefix {
            let path = rest[hostEnd...].prefix { $0 != "?" && $0 != "#" }
            return path.hasPrefix(pathPrefix)
        }
        return true
    }
}

/// An `<activity>` of the app's manifest, with what the app's code does with the intents it gets.
package struct AndroidActivityDeclaration: Sendable, Equatable {
    /// The class name as in the manifest (`.MainActivity` or fully qualified).
    package var name: String
    /// Has the `MAIN` / `LAUNCHER` intent filter (what `getLaunchIntentForPackage` finds).
    var launcher: Bool
    /// Actions of its `<intent-filter>`s with category DEFAULT: the `click_action` values that start it.
    package var actions: [String]
    /// `ACTION_VIEW` filters with `<data>`.
    var deepLinks: [AndroidDeepLink]
    package var launchMode: AndroidLaunchMode
    /// Its `onNewIntent` calls `setIntent` and routes the new extras. Without it an activity reused by a tap keeps
    /// reading the intent that first created it: "Note that getIntent() still returns the original Intent"
    /// (`Activity.onNewIntent` reference).
    var handlesNewIntent: Bool
    /// The navigation screen at the root of this activity (its content view); nil = the navigation's own root.
    package var screen: String?

    package init(
        name: String, launcher: Bool = false, actions: [String] = [], deepLinks: [AndroidDeepLink] = [],
        launchMode: AndroidLaunchMode = .standard, handlesNewIntent: Bool = true, screen: String? = nil
    ) {
        self.name = name
        self.launcher = launcher
        self.actions = actions
        self.deepLinks = deepLinks
        self.launchMode = launchMode
        self.handlesNewIntent = handlesNewIntent
        self.screen = screen
    }
}

/// `NotificationManager.IMPORTANCE_*` ([AND-CH] and the Android API constants).
package enum AndroidImportance: Int, Sendable, Equatable, CaseIterable {
    /// Blocked: nothing from the channel is shown.
    case none = 0
    case min = 1
    case low = 2
    case `default` = 3
    /// Heads-up.
    case high = 4

    package var name: String {
        switch self {
        case .none: "none"
        case .min: "min"
        case .low: "low"
        case .default: "default"
        case .high: "high"
        }
    }
}

/// A `NotificationChannel` the app creates (or the SDK's fallback).
package struct AndroidChannel: Sendable, Equatable {
    package var id: String
    package var name: String
    var importance: AndroidImportance

    package init(id: String, name: String? = nil, importance: AndroidImportance = .default) {
        self.id = id
        self.name = name ?? id
        self.importance = importance
    }

    /// The channel the SDK creates when neither the message's nor the manifest's channel exists: id
    /// `fcm_fallback_notification_channel`, label "Miscellaneous", IMPORTANCE_DEFAULT ([R-SDK]
    /// `CommonNotificationBuilder`, `res/values/strings.xml`).
    static let fcmFallback = AndroidChannel(
        id: "fcm_fallback_notification_channel", name: "Miscellaneous", importance: .default)
}

/// The `POST_NOTIFICATIONS` runtime permission ([AND-PERM]).
package enum PostNotificationsState: String, Sendable, Equatable, CaseIterable {
    case granted, denied
    case notAsked = "not_asked"
}

/// The facts of `google-services.json` the SDK uses (or the same given inline).
package struct AndroidFirebaseConfig: Sendable, Equatable {
    /// `project_info.project_number`: the sender ID.
    package var senderID: String
    /// `project_info.project_id`.
    package var projectID: String
    /// `client_info.mobilesdk_app_id` (`1:<number>:android:<hex>`).
    package var appID: String
    /// `api_key[].current_key`.
    package var apiKey: String?

    package init(senderID: String, projectID: String, appID: String, apiKey: String? = nil) {
        self.senderID = senderID
        self.projectID = projectID
        self.appID = appID
        self.apiKey = apiKey
    }
}

/// What `AndroidManifest.xml` (merged) says that push delivery depends on (Tests/reference/android.md §10).
package struct AndroidManifestFacts: Sendable, Equatable {
    /// The app's `FirebaseMessagingService` subclass with the `com.google.firebase.MESSAGING_EVENT` filter; nil: only
    /// the SDK's own base service (background notifications still shown, `onMessageReceived` a no-op) [R-SDK].
    package var messagingService: String?
    /// `android:directBootAware="true"` on that service ([F-DB]).
    var serviceDirectBootAware: Bool
    /// `com.google.firebase.messaging.default_notification_channel_id`.
    var defaultChannelID: String?
    /// `com.google.firebase.messaging.default_notification_icon`.
    var defaultIcon: String?
    /// `com.google.firebase.messaging.default_notification_color` (`#RRGGBB`).
    var defaultColor: String?
    /// `firebase_messaging_auto_init_enabled` (false: no token until the app asks) [R-SDK].
    var autoInitEnabled: Bool
    package var activities: [AndroidActivityDeclaration]

    package init(
        messagingService: String? = ".PushService", serviceDirectBootAware: Bool = false,
        defaultChannelID: String? = nil, defaultIcon: String? = nil, defaultColor: String? = nil,
        autoInitEnabled: Bool = true,
        activities: [AndroidActivityDeclaration] = [AndroidActivityDeclaration(name: ".MainActivity", launcher: true)]
    ) {
        self.messagingService = messagingService
        self.serviceDirectBootAware = serviceDirectBootAware
        self.defaultChannelID = defaultChannelID
        self.defaultIcon = defaultIcon
        self.defaultColor = defaultColor
        self.autoInitEnabled = autoInitEnabled
        self.activities = activities
    }

    /// The activity with `MAIN`/`LAUNCHER` (what `getLaunchIntentForPackage` resolves to).
    package var launcherActivity: AndroidActivityDeclaration? { activities.first { $0.launcher } }

    package func activity(named name: String) -> AndroidActivityDeclaration? { activities.first { $0.name == name } }
}

/// A notification the app posts itself from `onMessageReceived` (the common "data message → own notification"
/// code). Unlike the SDK it gets no channel fallback: on API 26+ a notification to a channel that does not exist
/// "doesn't appear and the system logs an error" [AND-CH].
package struct AndroidAppNotification: Sendable, Equatable {
    package var channelID: String
    /// The data key whose value is the title / body.
    var titleKey: String
    var bodyKey: String
    package var tag: String?
    /// The activity its content intent starts (explicit; nil = the launcher activity), with the data as extras.
    package var activity: String?

    package init(
        channelID: String, titleKey: String = "title", bodyKey: String = "body", tag: String? = nil,
        activity: String? = nil
    ) {
        self.channelID = channelID
        self.titleKey = titleKey
        self.bodyKey = bodyKey
        self.tag = tag
        self.activity = activity
    }
}

/// What the app's `onMessageReceived` does.
package struct AndroidMessageHandler: Sendable, Equatable {
    /// How long it runs (seconds); past the handling window its unfinished work is lost (`AndroidRules`).
    package var duration: TimeInterval
    /// Posts its own notification, for messages whose data has the title key.
    var postsNotification: AndroidAppNotification?

    package init(duration: TimeInterval = 1, postsNotification: AndroidAppNotification? = nil) {
        self.duration = duration
        self.postsNotification = postsNotification
    }
}

/// App Standby buckets ([AND-ASB], [AND-PWR]).
package enum AndroidStandbyBucket: String, Sendable, Equatable, CaseIterable {
    case active
    case workingSet = "working_set"
    case frequent, rare, restricted

    /// High-priority FCM messages a day before the rest are delivered as normal: the pre-Android-13 table
    /// (Frequent 10, Rare 5, Restricted 5; Active and Working set unrestricted) [AND-PWR]; nil = no limit.
    var highPriorityPerDay: Int? {
        switch self {
        case .active, .workingSet: nil
        case .frequent: 10
        case .rare, .restricted: 5
        }
    }
}

/// Everything the simulated Android phone needs to know about one app.
package struct AndroidAppDeclaration: Sendable, Equatable {
    package var packageName: String
    /// `targetSdkVersion`: channels apply from 26, the app-requested permission dialog from 33 [AND-PERM][AND-CH].
    package var targetSdk: Int
    /// nil: the app does not use Firebase (no token, no messages).
    package var firebase: AndroidFirebaseConfig?
    package var manifest: AndroidManifestFacts
    /// Channels created in `Application.onCreate` (API 26+).
    package var channels: [AndroidChannel]
    /// POST_NOTIFICATIONS after set-up (API 33+; below 33 `denied` means notifications turned off in Settings).
    package var permission: PostNotificationsState
    package var handler: AndroidMessageHandler
    /// Drawable / mipmap resources the app ships (a message `icon` that is not one falls back); nil = any name.
    var drawables: [String]?
    /// The app's launcher icon (the small-icon fallback after the manifest default) [R-SDK].
    var launcherIcon: String
    var standbyBucket: AndroidStandbyBucket
    /// The same navigation model as iOS apps: screens are the activities' and fragments' content, a route's
    /// trigger `tap` runs on the extras of the intent that started (or was delivered to) an activity.
    package var navigation: NavigationDeclaration
    /// The WebView's `shouldOverrideUrlLoading`, in the iOS policy's terms (external hosts, schemes).
    var webViewPolicy: WebViewPolicy

    package init(
        packageName: String, targetSdk: Int = 34, firebase: AndroidFirebaseConfig?,
        manifest: AndroidManifestFacts = AndroidManifestFacts(), channels: [AndroidChannel] = [],
        permission: PostNotificationsState = .granted, handler: AndroidMessageHandler = AndroidMessageHandler(),
        drawables: [String]? = nil, launcherIcon: String = "ic_launcher", standbyBucket: AndroidStandbyBucket = .active,
        navigation: NavigationDeclaration = NavigationDeclaration(),
        webViewPolicy: WebViewPolicy = WebViewPolicy(externalHosts: ["play.google.com"])
    ) {
        self.packageName = packageName
        self.targetSdk = targetSdk
        self.firebase = firebase
        self.manifest = manifest
        self.channels = channels
        self.permission = permission
        self.handler = handler
        self.drawables = drawables
        self.launcherIcon = launcherIcon
        self.standbyBucket = standbyBucket
        self.navigation = navigation
        self.webViewPolicy = webViewPolicy
    }
}
