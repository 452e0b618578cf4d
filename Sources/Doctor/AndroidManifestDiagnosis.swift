import Foundation

/// Checks of a plain-XML `AndroidManifest.xml` against what FCM delivery needs (Tests/reference/android.md §5–§7, §10).
/// The simulated Android phone applies the same rules when it delivers (DeviceSimulator/Android).
extension Doctor {
    static let defaultChannelKey = "com.google.firebase.messaging.default_notification_channel_id"
    static let defaultIconKey = "com.google.firebase.messaging.default_notification_icon"
    static let autoInitKey = "firebase_messaging_auto_init_enabled"

    static func androidChecks(_ inputs: DoctorInputs, context: DoctorContext, into list: inout Checklist) {
        googleServicesChecks(inputs, context: context, into: &list)
        guard let file = inputs.androidManifest, let manifest = file.value else { return }
        let path = file.path
        func finding(
            _ id: String, _ severity: DoctorFinding.Severity, cause: String, breaks: String, symptom: String,
            fix: String
        )
            -> DoctorFinding
        {
            DoctorFinding(
                id: id, severity: severity, file: path, cause: cause, breaks: breaks, symptom: symptom, fix: fix)
        }

        // No FirebaseMessagingService subclass: the SDK's own base service gets everything [R-SDK].
        list.record(
            "android-manifest.messaging-service", "a service handles com.google.firebase.MESSAGING_EVENT", file: path,
            manifest.messagingService != nil
                ? []
                : [
                    finding(
                        "no-firebase-messaging-service", .warning,
                        cause: "no <service> has an intent filter for com.google.firebase.MESSAGING_EVENT",
                        breaks:
                            "data messages, and notification messages while the app is in the foreground, reach only the "
                            + "SDK's empty onMessageReceived: their data is lost (background notifications still show)",
                        symptom:
                            "onMessageReceived never runs; onNewToken is never called, so the backend never learns the token",
                        fix:
                            "declare your FirebaseMessagingService subclass: <service android:name=\".PushService\" "
                            + "android:exported=\"false\"><intent-filter><action android:name=\"com.google.firebase.MESSAGING_EVENT\"/>"
                            + "</intent-filter></service>")
                ])

        // The default channel: missing, or not among the channels the app creates [R-SDK] CommonNotificationBuilder.
        let declared = manifest.metaData[defaultChannelKey]
        var channel: [DoctorFinding] = []
        if declared == nil {
            channel.append(
                finding(
                    "default-notification-channel-missing", .warning,
                    cause: "no <meta-data android:name=\"\(defaultChannelKey)\"> in <application>",
                    breaks:
                        "notification messages without android.notification.channel_id (or with one the app never created) "
                        + "go to the SDK's fallback channel \"Miscellaneous\" (fcm_fallback_notification_channel)",
                    symptom:
                        "logcat: \"Missing Default Notification Channel metadata in AndroidManifest. Default value will be used.\"",
                    fix:
                        "add <meta-data android:name=\"\(defaultChannelKey)\" android:value=\"<a channel id the app creates>\"/>"
                ))
        } else if let id = declared, !id.hasPrefix("@"), let created = context.androidChannels, !created.contains(id) {
            channel.append(
                finding(
                    "default-notification-channel-not-created", .warning,
                    cause:
                        "the default channel is \(id) but the app creates \(created.isEmpty ? "no channel" : created.joined(separator: ", "))",
                    breaks: "notification messages meant for the default channel go to \"Miscellaneous\" instead",
                    symptom:
                        "logcat: \"Notification Channel set in AndroidManifest.xml has not been created by the app. Default value will be used.\"",
                    fix: "create channel \(id) in Application.onCreate, or name a channel the app creates"))
        }
        list.record(
            "android-manifest.default-channel", "the default notification channel is declared and created", file: path,
            channel)

        // POST_NOTIFICATIONS on targetSdk 33+ [AND-PERM]; the FCM SDK's own manifest declares it, merged in [R-SDK].
        // A removal keeps it out of the merged manifest whatever the targetSdk, so it is an error even when a source
        // manifest (no <uses-sdk>) leaves the targetSdk unknown; a missing declaration then is "not checked".
        let target = manifest.targetSdk ?? context.targetSdk
        let removed = manifest.removedPermissions.contains(AndroidManifestFile.postNotifications)
        let hasPermission = manifest.permissions.contains(AndroidManifestFile.postNotifications)
        if removed || target.map({ $0 >= 33 }) ?? !hasPermission {
            var permission: [DoctorFinding] = []
            if removed {
                permission.append(
                    finding(
                        "post-notifications-removed", .error,
                        cause: "POST_NOTIFICATIONS is removed with tools:node=\"remove\""
                            + (target.map { " (targetSdk \($0))" } ?? ""),
                        breaks:
                            "on Android 13+ the app can never be granted the permission: no notification is ever shown",
                        symptom:
                            "requestPermission() returns denied at once, no dialog; notifications stay off in Settings",
                        fix:
                            "remove the tools:node=\"remove\" <uses-permission> for android.permission.POST_NOTIFICATIONS"
                    ))
            } else if target == nil {
                permission.append(
                    finding(
                        "post-notifications-not-checked", .warning,
                        cause:
                            "the manifest has no <uses-sdk android:targetSdkVersion> (a source manifest: Gradle sets it) and no "
                            + "--target-sdk, so whether POST_NOTIFICATIONS must be declared (targetSdk 33+) was not checked; "
                            + "this manifest does not declare it",
                        breaks:
                            "if the app targets API 33+, notifications stay off until the permission is declared and granted",
                        symptom: "none from doctor; on Android 13+ messages arrive but nothing appears in the tray",
                        fix:
                            "pass --target-sdk (the build.gradle targetSdk), or check the merged manifest under app/build/intermediates/merged_manifests/"
                    ))
            } else if let target, !hasPermission {
                permission.append(
                    finding(
                        "post-notifications-not-declared", .warning,
                        cause:
                            "targetSdk \(target) and no <uses-permission android:name=\"android.permission.POST_NOTIFICATIONS\"/> "
                            + "(recent firebase-messaging versions add it when manifests are merged: check the merged one)",
                        breaks:
                            "on Android 13+ notifications are off until the app requests the permission and the user allows it",
                        symptom: "messages arrive (onMessageReceived runs for data) but nothing appears in the tray",
                        fix:
                            "declare the permission and request it at runtime (ActivityCompat.requestPermissions) on API 33+"
                    ))
            }
            list.record(
                "android-manifest.post-notifications",
                "POST_NOTIFICATIONS is declared (targetSdk 33+) and not removed", file: path,
                permission)
        }

        // click_action: "new Intent(click_action)" with no launcher fallback [R-SDK]; implicit intents need the
        // DEFAULT category ("Intents and intent filters": to receive implicit intents an intent filter must include
        // CATEGORY_DEFAULT).
        if !context.clickActions.isEmpty {
            var actions: [DoctorFinding] = []
            for action in context.clickActions {
                let handlers = manifest.activities.compactMap { a in a.handles(action: action).map { (a, $0) } }
                if handlers.isEmpty {
                    actions.append(
                        finding(
                            "click-action-no-activity", .error,
                            cause: "no activity has an intent filter with action \(action)",
                            breaks:
                                "tapping a notification sent with click_action \(action) opens nothing (the SDK has no fallback)",
                            symptom: "the notification disappears on tap and the app does not open",
                            fix:
                                "add <intent-filter><action android:name=\"\(action)\"/><category android:name=\"android.intent.category.DEFAULT\"/>"
                                + "</intent-filter> to the activity that shows it"))
                } else if !handlers.contains(where: { $0.1.categories.contains("android.intent.category.DEFAULT") }) {
                    actions.append(
                        finding(
                            "click-action-no-default-category", .error,
                            cause:
                                "\(handlers[0].0.name) handles \(action) but its intent filter lacks category DEFAULT",
                            breaks: "the tap's implicit intent does not match the filter: nothing opens",
                            symptom: "the notification disappears on tap and the app does not open",
                            fix:
                                "add <category android:name=\"android.intent.category.DEFAULT\"/> to that intent filter"
                        ))
                }
            }
            list.record(
                "android-manifest.click-action", "an activity handles each click_action the backend sends", file: path,
                actions)
        }

        // Taps without click_action start the launcher activity [R-SDK]; the default icon [F-RECV].
        list.record(
            "android-manifest.launcher", "an activity has MAIN/LAUNCHER", file: path,
            manifest.launcherActivity != nil
                ? []
                : [
                    finding(
                        "no-launcher-activity", .warning,
                        cause: "no activity has the MAIN action with the LAUNCHER category",
                        breaks:
                            "tapping a notification without click_action opens nothing (getLaunchIntentForPackage is null)",
                        symptom: "the notification disappears on tap; logcat: \"No activity found to launch app\"",
                        fix: "give the main activity <action android:name=\"android.intent.action.MAIN\"/> and "
                            + "<category android:name=\"android.intent.category.LAUNCHER\"/>")
                ])
        list.record(
            "android-manifest.default-icon", "a default notification icon is declared", file: path,
            manifest.metaData[defaultIconKey] != nil
                ? []
                : [
                    finding(
                        "default-notification-icon-missing", .warning,
                        cause: "no <meta-data android:name=\"\(defaultIconKey)\">",
                        breaks: "notification messages without android.notification.icon use the launcher icon",
                        symptom:
                            "\"If a custom default icon isn't set … Android displays the application icon rendered in white\"",
                        fix:
                            "add <meta-data android:name=\"\(defaultIconKey)\" android:resource=\"@drawable/ic_stat_notification\"/>"
                    )
                ])
        if manifest.metaData[autoInitKey] == "false" {
            list.record(
                "android-manifest.auto-init", "FCM auto-init is on", file: path,
                [
                    finding(
                        "fcm-auto-init-disabled", .warning, cause: "\(autoInitKey) is false",
                        breaks:
                            "no registration token is generated until the app calls setAutoInitEnabled(true) or getToken()",
                        symptom: "onNewToken is not called after install; sends to the app have no token to target",
                        fix:
                            "call FirebaseMessaging.getInstance().setAutoInitEnabled(true) once the user consents, or remove the meta-data"
                    )
                ])
        }
    }
}
