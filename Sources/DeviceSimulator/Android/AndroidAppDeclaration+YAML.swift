import Foundation
import YAMLSource

/// An Android app in `apps:` (a suite's world or `serve`'s config): an entry with `package_name` instead of
/// `bundle_id`. Its keys are `keyTable`; sources for each fact are in Tests/reference/android.md.
///
/// ```yaml
/// apps:
///   - package_name: com.example.shop
///     target_sdk: 34
///     firebase: { sender_id: "123456789012", project_id: demo, app_id: "1:123456789012:android:0a1b2c3d" }
///     # or google_services_file: app/google-services.json (the client whose package_name matches)
///     manifest:
///       messaging_service: .PushService        # null: no FirebaseMessagingService subclass
///       default_channel: orders                 # com.google.firebase.messaging.default_notification_channel_id
///       default_icon: ic_stat_push
///       default_color: "#FF5722"
///       activities:
///         - { name: .MainActivity, launcher: true }
///         - { name: .OrderActivity, actions: [OPEN_ORDER], launch_mode: singleTop, screen: order }
///         - { name: .WebActivity, deep_links: [{ scheme: https, host: shop.example, path_prefix: /p }] }
///     channels: [{ id: orders, name: Orders, importance: high }]
///     permission: granted                       # POST_NOTIFICATIONS: granted, denied, not_asked
///     handler: { duration: 1s, posts_notification: { channel: orders, title_key: title, body_key: body } }
///     navigation: { … }                         # the iOS model: screens and routes on the tap's extras
///     web_view: { external_hosts: [play.google.com] }
/// ```
extension AndroidAppDeclaration {
    package static let keyTable = KeyTable(
        "androidApp", "An Android app (an apps: entry with package_name): Firebase, manifest, channels, permission.",
        [
            .init("package_name", .text, "The application id (package name).", required: true),
            .init("target_sdk", .integer, "targetSdkVersion (default 34)."),
            .init("firebase", .object(firebaseTable), "google-services.json's facts, inline."),
            .init(
                "google_services_file", .file,
                "The app's google-services.json (the client whose package_name is this app's)."),
            .init("manifest", .object(manifestTable), "What the merged AndroidManifest.xml declares."),
            .init("channels", .list(.object(channelTable)), "Notification channels created in Application.onCreate."),
            .init(
                "permission", .oneOf(PostNotificationsState.allCases.map(\.rawValue)),
                "POST_NOTIFICATIONS after set-up (default granted)."),
            .init("handler", .object(handlerTable), "What onMessageReceived does."),
            .init("drawables", .list(.text), "Drawable resources the app ships (default: any name exists)."),
            .init("launcher_icon", .text, "The launcher icon (default ic_launcher)."),
            .init(
                "standby_bucket", .oneOf(AndroidStandbyBucket.allCases.map(\.rawValue)),
                "The App Standby bucket (default active)."),
            .init("navigation", .object(NavigationDeclaration.keyTable), "Screens and the push router (as iOS)."),
            .init("web_view", .object(AppDeclaration.webViewTable), "The WebView's shouldOverrideUrlLoading policy."),
        ])

    static let firebaseTable = KeyTable(
        "androidFirebase", "google-services.json's facts.",
        [
            .init("sender_id", .text, "project_info.project_number.", required: true),
            .init("project_id", .text, "project_info.project_id.", required: true),
            .init("app_id", .text, "client_info.mobilesdk_app_id (1:<number>:android:<hex>).", required: true),
            .init("api_key", .text, "api_key[].current_key."),
        ])

    static let manifestTable = KeyTable(
        "androidManifest", "The merged AndroidManifest.xml's push facts.",
        [
            .init(
                "messaging_service", .text,
                "The FirebaseMessagingService subclass (default .PushService; null: none declared)."),
            .init("direct_boot_aware", .boolean, "android:directBootAware on that service."),
            .init("default_channel", .text, "default_notification_channel_id meta-data."),
            .init("default_icon", .text, "default_notification_icon meta-data."),
            .init("default_color", .text, "default_notification_color meta-data (#RRGGBB)."),
            .init("auto_init", .boolean, "firebase_messaging_auto_init_enabled (default true)."),
            .init("activities", .list(.object(activityTable)), "The <activity> elements (default one launcher)."),
        ])

    static let activityTable = KeyTable(
        "androidActivity", "An <activity> and what its code does with intents.",
        [
            .init("name", .text, "The class name (.MainActivity).", required: true),
            .init("launcher", .boolean, "Has the MAIN/LAUNCHER intent filter."),
            .init("actions", .list(.text), "Intent-filter actions (the click_action values that start it)."),
            .init("deep_links", .list(.object(deepLinkTable)), "ACTION_VIEW filters with <data>."),
            .init("launch_mode", .oneOf(AndroidLaunchMode.allCases.map(\.rawValue)), "android:launchMode."),
            .init("handles_new_intent", .boolean, "onNewIntent calls setIntent (default true)."),
            .init("screen", .text, "The navigation screen at its root."),
        ])

    static let deepLinkTable = KeyTable(
        "androidDeepLink", "A <data> element.",
        [
            .init("scheme", .text, "android:scheme.", required: true),
            .init("host", .text, "android:host (absent: any)."),
            .init("path_prefix", .text, "android:pathPrefix (absent: any)."),
        ])

    static let channelTable = KeyTable(
        "androidChannel", "A NotificationChannel the app creates.",
        [
            .init("id", .text, "The channel id.", required: true),
            .init("name", .text, "Its user-visible name."),
            .init(
                "importance", .oneOf(AndroidImportance.allCases.map(\.name)),
                "IMPORTANCE_* (none: the user blocked it; default default)."),
        ])

    static let handlerTable = KeyTable(
        "androidHandler", "What the app's onMessageReceived does.",
        [
            .init("duration", .duration, "How long it runs (past the ~20 s window its work is lost)."),
            .init("posts_notification", .object(appNotificationTable), "It posts its own notification for data."),
        ])

    static let appNotificationTable = KeyTable(
        "androidAppNotification", "A notification the app posts from onMessageReceived.",
        [
            .init("channel", .text, "The channel it posts to (no fallback when it does not exist).", required: true),
            .init("title_key", .text, "The data key of the title (default title)."),
            .init("body_key", .text, "The data key of the body (default body)."),
            .init("tag", .text, "The notify tag."),
            .init("activity", .text, "The activity its content intent starts (default the launcher)."),
        ])

    /// Decodes one Android app mapping; relative paths resolve against the directory of `file`.
    package static func decode(_ m: YAMLMapping, file: String) throws(SourceError) -> AndroidAppDeclaration {
        try m.checkKeys(keyTable)
        let pkg: String = try m.required("package_name")
        var firebase: AndroidFirebaseConfig?
        if let f = try m.optionalMapping("firebase", keys: firebaseTable) {
            firebase = AndroidFirebaseConfig(
                senderID: try f.required("sender_id"), projectID: try f.required("project_id"),
                appID: try f.required("app_id"), apiKey: try f.optional("api_key"))
        }
        if let node = m["google_services_file"], !node.isNull {
            if let k = m.keyNode("firebase") {
                throw k.invalidValue(expected: "either firebase or google_services_file, not both")
            }
            let path = YAMLLoader.resolve(include: try String.decode(from: node), from: file)
            firebase = try readGoogleServices(path, package: pkg, at: node)
        }
        var app = AndroidAppDeclaration(packageName: pkg, firebase: firebase)
        app.targetSdk = try m.optional("target_sdk", default: 34)
        if let mf = try m.optionalMapping("manifest", keys: manifestTable) { app.manifest = try decodeManifest(mf) }
        for node in try m.optionalSequence("channels") ?? [] {
            let c = try YAMLMapping(node)
            try c.checkKeys(channelTable)
            let importance = try c.optional("importance", oneOf: AndroidImportance.allCases.map(\.name)) ?? "default"
            app.channels.append(
                AndroidChannel(
                    id: try c.required("id"), name: try c.optional("name"),
                    importance: AndroidImportance.allCases.first { $0.name == importance }!))
        }
        if let p = try m.optional("permission", oneOf: PostNotificationsState.allCases.map(\.rawValue)) {
            app.permission = PostNotificationsState(rawValue: p)!
        }
        if let h = try m.optionalMapping("handler", keys: handlerTable) {
            if let d = try h.optional("duration", as: Duration.self) {
                app.handler.duration = AppDeclaration.seconds(d)
            }
            if let n = try h.optionalMapping("posts_notification", keys: appNotificationTable) {
                app.handler.postsNotification = AndroidAppNotification(
                    channelID: try n.required("channel"), titleKey: try n.optional("title_key", default: "title"),
                    bodyKey: try n.optional("body_key", default: "body"), tag: try n.optional("tag"),
                    activity: try n.optional("activity"))
            }
        }
        app.drawables = try m.optional("drawables", as: [String].self)
        app.launcherIcon = try m.optional("launcher_icon", default: "ic_launcher")
        if let b = try m.optional("standby_bucket", oneOf: AndroidStandbyBucket.allCases.map(\.rawValue)) {
            app.standbyBucket = AndroidStandbyBucket(rawValue: b)!
        }
        if let n = try m.optionalMapping("navigation") { app.navigation = try NavigationDeclaration.decode(n) }
        if let w = try m.optionalMapping("web_view", keys: AppDeclaration.webViewTable) {
            app.webViewPolicy = try AppDeclaration.decodeWebViewPolicy(w, default: app.webViewPolicy)
        }
        return app
    }

    static func decodeManifest(_ mf: YAMLMapping) throws(SourceError) -> AndroidManifestFacts {
        var facts = AndroidManifestFacts()
        if mf.contains("messaging_service") { facts.messagingService = try mf.optional("messaging_service") }
        facts.serviceDirectBootAware = try mf.optional("direct_boot_aware", default: false)
        facts.defaultChannelID = try mf.optional("default_channel")
        facts.defaultIcon = try mf.optional("default_icon")
        if let color: String = try mf.optional("default_color") {
            guard AndroidDeviceState.isColor(color) else {
                throw mf["default_color"]!.invalidValue(expected: "a color #RRGGBB")
            }
            facts.defaultColor = color
        }
        facts.autoInitEnabled = try mf.optional("auto_init", default: true)
        if let nodes = try mf.optionalSequence("activities") {
            facts.activities = []
            for node in nodes {
                let a = try YAMLMapping(node)
                try a.checkKeys(activityTable)
                var links: [AndroidDeepLink] = []
                for l in try a.optionalSequence("deep_links") ?? [] {
                    let d = try YAMLMapping(l)
                    try d.checkKeys(deepLinkTable)
                    links.append(
                        AndroidDeepLink(
                            scheme: try d.required("scheme"), host: try d.optional("host"),
                            pathPrefix: try d.optional("path_prefix")))
                }
                let mode = try a.optional("launch_mode", oneOf: AndroidLaunchMode.allCases.map(\.rawValue))
                facts.activities.append(
                    AndroidActivityDeclaration(
                        name: try a.required("name"), launcher: try a.optional("launcher", default: false),
                        actions: try a.optional("actions", as: [String].self) ?? [], deepLinks: links,
                        launchMode: mode.flatMap(AndroidLaunchMode.init(rawValue:)) ?? .standard,
                        handlesNewIntent: try a.optional("handles_new_intent", default: true),
                        screen: try a.optional("screen")))
            }
        }
        return facts
    }

    /// google-services.json: `project_info.project_number` / `project_id`, and the `client` whose
    /// `client_info.android_client_info.package_name` is `pkg` (its `mobilesdk_app_id`, first `api_key`).
    static func readGoogleServices(_ path: String, package pkg: String, at node: YAMLNode) throws(SourceError)
        -> AndroidFirebaseConfig
    {
        guard let data = FileManager.default.contents(atPath: path),
            let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let info = root["project_info"] as? [String: Any], let number = info["project_number"] as? String,
            let project = info["project_id"] as? String
        else {
            throw node.invalidValue(expected: "a readable google-services.json with project_info at \(path)")
        }
        let clients = root["client"] as? [[String: Any]] ?? []
        func package(_ c: [String: Any]) -> String? {
            ((c["client_info"] as? [String: Any])?["android_client_info"] as? [String: Any])?["package_name"]
                as? String
        }
        guard let client = clients.first(where: { package($0) == pkg }),
            let appID = (client["client_info"] as? [String: Any])?["mobilesdk_app_id"] as? String
        else {
            let names = clients.compactMap(package)
            throw node.invalidValue(
                expected:
                    "a client for \(pkg) in \(path) (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")));"
                    + " the Google Services plugin fails the build with \"No matching client found for package name\"")
        }
        let key = ((client["api_key"] as? [[String: Any]])?.first)?["current_key"] as? String
        return AndroidFirebaseConfig(senderID: number, projectID: project, appID: appID, apiKey: key)
    }
}

/// Defaults of a declared Android device.
package enum AndroidDeviceDefaults {
    /// A serial derived from the device's name (stable across runs): `pc-` and the name's FNV-1a hash in hex.
    package static func serial(name: String) -> String {
        var h: UInt32 = 2_166_136_261
        for b in name.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return "pc-" + String(h, radix: 16)
    }
}
