import Provisioning
import YAMLSource

/// The keys of an app declaration (`apps:` in a suite's world, an included app file or `serve`'s config) and of
/// each mapping inside it: what `AppDeclaration.decode` checks a file against and what `pushcheck schema`
/// describes.
extension AppDeclaration {
    package static let keyTable = KeyTable(
        "app", "An app: its signing (the team's real files or declared values) and its declared behaviour.",
        [
            .init("bundle_id", .text, "The bundle id (default: info_plist_file's CFBundleIdentifier)."),
            .init("team_id", .text, "The team id (default: from the entitlements)."),
            .init("entitlements_file", .file, "The app's .entitlements (aps-environment and the team)."),
            .init("info_plist_file", .file, "The app's Info.plist (UIBackgroundModes, Firebase's proxy switch)."),
            .init("provisioning_profile_file", .file, "The .mobileprovision the app is signed with."),
            .init(
                "aps_environment", .oneOf(APSEnvironment.allCases.map(\.rawValue)),
                "The aps-environment entitlement, instead of entitlements_file."),
            .init("background_modes", .list(.text), "UIBackgroundModes (remote-notification, …)."),
            .init(
                "firebase_app_delegate_proxy_enabled", .boolean,
                "FirebaseAppDelegateProxyEnabled (default true: Firebase swizzles the delegate)."),
            .init("profile", .object(profileTable), "A declared provisioning profile, instead of the file."),
            .init("authorization", authorizationShape, "How the user answers the notification permission prompt."),
            .init("delegate", .object(delegateTable), "What the app delegate implements and answers."),
            .init("categories", .list(.object(categoryTable)), "The notification categories the app registers."),
            .init("service_extension", .object(serviceExtensionTable), "The notification service extension."),
            .init(
                "content_extensions", .list(.object(contentExtensionTable)), "The notification content extensions."),
            .init("firebase", .object(firebaseTable), "The app uses the Firebase Messaging SDK."),
            .init("navigation", .object(NavigationDeclaration.keyTable), "Tabs, screens and the push router."),
            .init("web_view", .object(webViewTable), "The in-app web view's policy."),
            .init(
                "supports_live_activities", .boolean,
                "NSSupportsLiveActivities (default: info_plist_file's, else false: ActivityKit starts nothing)."),
            .init("live_activities", .list(.object(liveActivityTable)), "The app's Live Activity types."),
            .init(
                "push_types", .list(.oneOf(declarableTokenKinds.map(\.rawValue))),
                "Tokens it asks for beyond the APNs device token: voip (PushKit), pushtotalk, location (a Location "
                    + "Push Service Extension), widgets, controls, fileprovider; each issued when it registers."),
            .init("voip", .object(voipTable), "What its PushKit delegate does with a VoIP push."),
        ])

    static let voipTable = KeyTable(
        "voip", "The app's PushKit delegate.",
        [
            .init(
                "reports_call", .boolean,
                "It reports each VoIP push's call to CallKit (default true); if not, iOS terminates it and, after "
                    + "repeated failures, stops delivering VoIP pushes.")
        ])

    static let profileTable = KeyTable(
        "provisioningProfile", "A declared provisioning profile.",
        [
            .init("name", .text, "The profile's name."),
            .init("uuid", .text, "The profile's UUID."),
            .init("team_id", .text, "The team (default: the app's)."),
            .init("app_id", .text, "The application identifier (default <team>.<bundle id>)."),
            .init(
                "aps_environment", .oneOf(APSEnvironment.allCases.map(\.rawValue) + ["none"]),
                "The aps-environment it grants (none: the capability is missing)."),
            .init("get_task_allow", .boolean, "A development profile (default: aps_environment is development)."),
            .init("devices", .list(.text), "The UDIDs it provisions."),
            .init("all_devices", .boolean, "ProvisionsAllDevices (enterprise)."),
            .init("created", .date(orMilliseconds: false), "CreationDate (ISO 8601)."),
            .init("expires", .date(orMilliseconds: false), "ExpirationDate (ISO 8601)."),
        ])

    /// `authorization: denied` or `{ status: authorized, sound: false, … }` (also a device step's value).
    static let authorizationShape = ValueShape.either([
        .oneOf(AuthorizationStatus.allCases.map(\.rawValue)), .object(authorizationTable),
    ])

    static let authorizationTable = KeyTable(
        "authorization", "The permission answer and the per-setting switches of Settings › Notifications.",
        [
            .init("status", .oneOf(AuthorizationStatus.allCases.map(\.rawValue)), "The answer.", required: true),
            .init("alert", .boolean, "Alerts allowed (default true)."),
            .init("sound", .boolean, "Sounds allowed (default true)."),
            .init("badge", .boolean, "Badges allowed (default true)."),
            .init("notification_center", .boolean, "Shown in Notification Center (default true)."),
            .init("critical_alert", .boolean, "Critical alerts allowed (default false)."),
        ])

    static let delegateTable = KeyTable(
        "delegate", "What the app's delegates implement.",
        [
            .init(
                "will_present", .either([.oneOf(["none"]), .list(.text)]),
                "willPresent's answer: banner, list, sound, badge, alert; none: not implemented."),
            .init(
                "fetch_handler", .either([.boolean, .object(fetchHandlerTable)]),
                "didReceiveRemoteNotification:fetchCompletionHandler: (false: not implemented)."),
            .init("legacy_did_receive", .boolean, "The legacy didReceiveRemoteNotification: (default false)."),
            .init("did_receive_response", .boolean, "didReceive response: is implemented (default true)."),
            .init(
                "delegate_set_before_launch", .boolean,
                "The notification-center delegate is set before launch finishes (default true)."),
            .init("uses_scenes", .boolean, "The app uses scenes (sceneWillConnect gets the launch push)."),
        ])

    static let fetchHandlerTable = KeyTable(
        "fetchHandler", "How the background fetch handler completes.",
        [
            .init("result", .oneOf(["new-data", "no-data", "failed"]), "The UIBackgroundFetchResult it passes."),
            .init(
                "duration", .either([.duration, .oneOf(["never"])]),
                "How long until it calls completion (never: it does not)."),
        ])

    static let categoryTable = KeyTable(
        "category", "A UNNotificationCategory.",
        [
            .init("id", .text, "The category identifier.", required: true),
            .init("actions", .list(.object(categoryActionTable)), "Its actions, in order."),
        ])

    static let categoryActionTable = KeyTable(
        "categoryAction", "A UNNotificationAction.",
        [
            .init("id", .text, "The action identifier.", required: true),
            .init("title", .text, "The button title (default: the id)."),
            .init("foreground", .boolean, "The action opens the app (default false)."),
        ])

    static let serviceExtensionTable = KeyTable(
        "serviceExtension", "What the service extension does to a mutable-content push.",
        [
            .init("duration", .duration, "How long it runs (default 1s; past the device's budget it times out)."),
            .init("title", .text, "The title it sets."),
            .init("subtitle", .text, "The subtitle it sets."),
            .init("body", .text, "The body it sets."),
            .init("category", .text, "The category identifier it sets."),
            .init("thread_id", .text, "The thread identifier it sets."),
            .init("user_info", .dictionary(keys: "userInfo key", .json), "Keys it adds to the userInfo."),
        ])

    static let contentExtensionTable = KeyTable(
        "contentExtension", "A notification content extension.",
        [
            .init("name", .text, "Its name.", required: true),
            .init(
                "categories", .either([.text, .list(.text)]),
                "UNNotificationExtensionCategory (without info_plist_file)."),
            .init("info_plist_file", .file, "The extension's real Info.plist."),
            .init("handles_actions", .boolean, "It implements didReceive response (default true)."),
            .init(
                "actions", .dictionary(keys: "action id", .object(contentActionTable)),
                "How it answers each action."),
            .init("default_content_hidden", .boolean, "UNNotificationExtensionDefaultContentHidden."),
            .init("initial_content_size_ratio", .number, "UNNotificationExtensionInitialContentSizeRatio."),
            .init("overrides_default_title", .boolean, "UNNotificationExtensionOverridesDefaultTitle."),
            .init("user_interaction_enabled", .boolean, "UNNotificationExtensionUserInteractionEnabled."),
        ])

    static let contentActionTable = KeyTable(
        "contentExtensionAction", "How the content extension answers one action.",
        [
            .init("open_url_from", .text, "Open the URL at this userInfo key path."),
            .init(
                "response", .oneOf(["do-not-dismiss", "dismiss", "dismiss-and-forward"]),
                "The UNNotificationContentExtensionResponseOption (default dismiss)."),
        ])

    package static let firebaseTable = KeyTable(
        "firebase", "The Firebase Messaging SDK in the app.",
        [
            .init("sender_id", .text, "The project number the app registers with.", required: true),
            .init("project_id", .text, "The Firebase project id.", required: true),
            .init(
                "forwards_apns_token", .boolean,
                "With swizzling off: the app hands the APNs token to Messaging (default false)."),
        ])

    static let webViewTable = KeyTable(
        "webView", "The in-app web view's navigation policy.",
        [
            .init("external_hosts", .list(.text), "Hosts opened outside the app (App Store links, …)."),
            .init("schemes", .list(.text), "Schemes the web view loads (default http, https)."),
            .init("open_other_schemes_externally", .boolean, "Other schemes open outside (else cancelled)."),
            .init(
                "response_policy", .oneOf(["allow-all", "cancel-non-2xx"]),
                "decidePolicyFor navigationResponse (default allow-all: error pages show)."),
        ])
}
