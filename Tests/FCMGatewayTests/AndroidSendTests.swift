import Foundation
@testable import PushModel
import Synchronization
import Testing

@testable import FCMGateway

/// Records what the gateway hands to the Android side, answering as a device would.
final class AndroidRecorder: FCMAndroidDeliveryConsumer {
    let messages = Mutex<[AndroidMessage]>([])
    let answer: FCMAndroidDisposition
    init(answer: FCMAndroidDisposition = .delivered) { self.answer = answer }
    func deliverAndroid(_ message: AndroidMessage) -> FCMAndroidDisposition {
        messages.withLock { $0.append(message) }
        return answer
    }
    var all: [AndroidMessage] { messages.withLock { $0 } }
}

/// Sends to Android instances, in-process: registration from the mock, the `android` block as a typed
/// `AndroidMessage` for the consumer, the Android hop in the log, `restricted_package_name`, `android_v2` refused, and
/// the `AndroidNotification` rules (Tests/reference/android.md §9).
@Suite struct AndroidSendTests {
    static let fid = "YW5kcm9pZGluc3RhbGxhdA"
    static let pkg = "com.example.news"

    /// A world with one registered Android instance and a recorder.
    static func world() -> (World, String, AndroidRecorder) {
        let w = World()
        let token = w.fcm.issueAndroidInstanceToken(
            installationID: fid, senderID: "123456789012", projectID: "demo-project", packageName: pkg,
            appID: "1:123456789012:android:0a1b2c")!
        let recorder = AndroidRecorder()
        w.fcm.setAndroidConsumer(recorder)
        return (w, token, recorder)
    }

    /// The token comes from the mock as for iOS instances (same shape, same installation → same token), recorded as
    /// an Android instance of the sender's project.
    @Test func registrationFromTheMock() {
        let (w, token, _) = Self.world()
        #expect(token.hasPrefix(Self.fid + ":APA91b") && token.count == 22 + 7 + 134)
        #expect(token == FCMGateway.registrationToken(installationID: Self.fid, senderID: "123456789012"))
        let entry = w.fcm.registeredTokens.first { $0.token.token == token }
        #expect(entry?.project == "demo-project")
        #expect(
            entry?.token.android == FCMAndroidInstance(packageName: Self.pkg, appID: "1:123456789012:android:0a1b2c"))
        #expect(entry?.token.apnsToken == nil && entry?.token.bundleID == nil && entry?.token.fid == Self.fid)
        #expect(
            w.fcm.issueAndroidInstanceToken(
                installationID: Self.fid, senderID: "1", projectID: "nope", packageName: Self.pkg, appID: nil) == nil)
    }

    struct Row: Sendable, CustomStringConvertible {
        var name: String
        var message: String
        var check: @Sendable (AndroidMessage) -> Bool
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(name: "notification", message: #""notification":{"title":"Goal!","body":"1-0"}"#) {
            $0.notification?.title == "Goal!" && $0.notification?.body == "1-0" && $0.data.isEmpty
                && $0.priority == .high
                && $0.requestedPriority == nil && $0.ttlSeconds == 2_419_200
        },
        Row(
            name: "data",
            message: #""data":{"match":"7"},"android":{"priority":"HIGH","ttl":"3.5s","collapse_key":"score"}"#
        ) {
            $0.notification == nil && $0.data == ["match": "7"] && $0.priority == .high && $0.ttlSeconds == 3
                && $0.collapseKey == "score"
        },
        Row(
            name: "both, android fields over the top-level ones",
            message:
                ##""notification":{"title":"t","body":"b","image":"https://x/i.png"},"data":{"k":"v"},"android":{"priority":"NORMAL","ttl":"0s","notification":{"title":"T","channel_id":"goals","tag":"m7","color":"#3366FF","click_action":"OPEN","notification_count":"3","sticky":true},"direct_boot_ok":true,"fcm_options":{"analytics_label":"goals"}}"##
        ) {
            let n = $0.notification
            return n?.title == "T" && n?.body == "b" && n?.image == "https://x/i.png" && n?.channelID == "goals"
                && n?.tag == "m7" && n?.color == "#3366FF" && n?.clickAction == "OPEN" && n?.notificationCount == 3
                && n?.sticky == true && $0.priority == .normal && $0.ttlSeconds == 0 && $0.directBootOK
                && $0.analyticsLabel == "goals" && $0.data == ["k": "v"]
        },
        Row(name: "android.data replaces data", message: #""data":{"a":"1"},"android":{"data":{"b":"2"}}"#) {
            $0.data == ["b": "2"]
        },
    ]

    @Test(arguments: rows)
    func typedMessageForTheConsumer(row: Row) throws {
        let (w, token, recorder) = Self.world()
        let (status, body) = w.send(#"{"token":"\#(token)",\#(row.message)}"#)
        #expect(status == 200, "\(body)")
        let m = try #require(recorder.all.first)
        #expect(row.check(m), "\(m)")
        #expect(m.token == token && m.packageName == Self.pkg && m.senderID == "123456789012")
        #expect("projects/demo-project/messages/" + m.messageID == body["name"]?.stringValue)
        // The log records the Android hop as it records an APNs hop; nothing went to APNs.
        let entry = try #require(w.fcm.log().last)
        #expect(entry.apns.isEmpty && w.apns.log().isEmpty)
        #expect(entry.android.map(\.message) == [m])
        #expect(entry.json[path: "android.0.status"] == "delivered")
        #expect(entry.json[path: "android.0.package"] == .string(Self.pkg))
        #expect(entry.json[path: "android.0.bundle"]?["google.message_id"] == .string(m.messageID))
    }

    /// validate_only checks and delivers nothing; no consumer: accepted, the hop says no device.
    @Test func validateOnlyAndNoConsumer() {
        let (w, token, recorder) = Self.world()
        #expect(w.send(#"{"token":"\#(token)","data":{"k":"v"}}"#, validateOnly: true).0 == 200)
        #expect(recorder.all.isEmpty && w.fcm.log().last?.android.isEmpty == true)
        w.fcm.setAndroidConsumer(nil)
        #expect(w.send(#"{"token":"\#(token)","data":{"k":"v"}}"#).0 == 200)
        #expect(w.fcm.log().last?.android.first?.disposition == .noDevice)
        w.fcm.unregisterToken(token)
        let (gone, body) = w.send(#"{"token":"\#(token)","data":{"k":"v"}}"#)
        #expect(gone == 404 && body.fcmErrorCode == "UNREGISTERED")
    }

    /// The 4096-byte limit counts what the recipient's platform receives (data keys and values, notification text),
    /// and APNs' own 4 KB limit on the translated payload applies only when the message goes to an iOS instance:
    /// `data` of 1 + 3949 bytes reaches an Android or a web instance; the same message to an iPhone becomes an APNs
    /// payload over 4096 bytes, "Message is too big". `android.data` replaces `data` for Android, so the two are not
    /// added up (and the iPhone, which gets `data`, is not charged for `android.data`).
    @Test func sizeIsCountedPerPlatform() {
        let (w, token, recorder) = Self.world()
        let x3949 = String(repeating: "x", count: 3949)
        for recipient in [token, Fixture.tokenAndroid] {  // Android; a web instance (neither iOS nor Android)
            let (status, body) = w.send(#"{"token":"\#(recipient)","data":{"k":"\#(x3949)"}}"#)
            #expect(status == 200, "\(body)")
        }
        #expect(recorder.all.first?.data["k"]?.count == 3949)
        let (ios, iosBody) = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"k":"\#(x3949)"}}"#)
        #expect(ios == 400 && iosBody[path: "error.message"] == "Message is too big", "\(iosBody)")
        // Over 4096 by FCM's count for Android itself: refused for every target.
        let x4096 = String(repeating: "x", count: 4096)
        #expect(
            w.send(#"{"token":"\#(token)","data":{"k":"\#(x4096)"}}"#).1[path: "error.message"] == "Message is too big")
        #expect(w.send(#"{"token":"\#(Fixture.tokenAndroid)","data":{"k":"\#(x4096)"}}"#).0 == 400)
        // `android.data` replaces `data`: 3001 bytes each, never 6002.
        let x3000 = String(repeating: "x", count: 3000), y3000 = String(repeating: "y", count: 3000)
        let both = #""data":{"k":"\#(x3000)"},"android":{"data":{"k":"\#(y3000)"}}"#
        #expect(w.send(#"{"token":"\#(token)",\#(both)}"#).0 == 200)
        #expect(recorder.all.last?.data["k"] == y3000)
        #expect(w.send(#"{"token":"\#(Fixture.tokenA)",\#(both)}"#).0 == 200)
        // Android is charged for `android.data`, not `data`.
        let x5000 = String(repeating: "x", count: 5000)
        #expect(w.send(#"{"token":"\#(token)","data":{"k":"\#(x5000)"},"android":{"data":{"k":"v"}}}"#).0 == 200)
        #expect(w.send(#"{"token":"\#(token)","data":{"k":"v"},"android":{"data":{"k":"\#(x5000)"}}}"#).0 == 400)
    }

    /// restricted_package_name: a token send to another package is refused; a topic send skips those instances.
    @Test func restrictedPackageName() {
        let (w, token, recorder) = Self.world()
        let (status, body) = w.send(#"{"token":"\#(token)","android":{"restricted_package_name":"com.example.other"}}"#)
        #expect(status == 400 && body.violationField == "message.android.restricted_package_name")
        #expect(w.send(#"{"token":"\#(token)","android":{"restricted_package_name":"\#(Self.pkg)"}}"#).0 == 200)
        #expect(recorder.all.count == 1)
        w.fcm.registerToken(
            FCMRegisteredToken(
                token: "otherPkg0001:APA91bOOOOOOOOOOOOOOOOOOOOO",
                android: FCMAndroidInstance(packageName: "com.example.other")),
            project: "demo-project")
        for t in [token, "otherPkg0001:APA91bOOOOOOOOOOOOOOOOOOOOO", Fixture.tokenA] {
            _ = w.fcm.evaluate(
                w.request("POST", "/iid/v1/\(t)/rel/topics/news", bearer: w.bearer()))
        }
        #expect(
            w.send(#"{"topic":"news","data":{"k":"v"},"android":{"restricted_package_name":"\#(Self.pkg)"}}"#).0 == 200)
        let entry = w.fcm.log().last!
        #expect(entry.android.map(\.fcmToken) == [token])
        #expect(entry.apns.count == 1)  // the iOS subscriber: restricted_package_name is an Android option
    }

    /// `android_v2` (AndroidConfigV2, a preview whose members' fields are not published) is refused as FCM refuses
    /// a field the project does not have: 400 INVALID_ARGUMENT, "Unknown name … at 'message'", a BadRequest field
    /// violation on `message` (Tests/reference/android.md §9, §12 item 9). Whatever it holds, alone or beside
    /// `android`, in either spelling; nothing is delivered or logged as an Android hop.
    @Test(arguments: [
        (#""data":{"a":"1"},"android_v2":{"background_sync":{},"ttl":"60s"}"#, "android_v2"),
        (#""notification":{"title":"t"},"android_v2":{"remote_notification":{}}"#, "android_v2"),
        (#""android_v2":{}"#, "android_v2"),
        (#""android_v2":{"background_sync":{},"remote_notification":{}}"#, "android_v2"),
        (#""android":{"priority":"HIGH"},"android_v2":{"background_sync":{}}"#, "android_v2"),
        (#""androidV2":{"remote_notification":{}}"#, "androidV2"),
    ])
    func androidV2IsRefused(fragment: String, name: String) throws {
        let (w, token, recorder) = Self.world()
        let (status, body) = w.send(#"{"token":"\#(token)",\#(fragment)}"#)
        let text = #"Invalid JSON payload received. Unknown name \"\#(name)\" at 'message': Cannot find field."#
        let expected = try JSONValue.parse(
            Array(
                #"""
                {"error":{"code":400,"message":"\#(text)","status":"INVALID_ARGUMENT","details":[
                {"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[
                {"field":"message","description":"\#(text)"}]}]}}
                """#.utf8))
        #expect(status == 400)
        #expect(body == expected, "\(body)")
        #expect(recorder.all.isEmpty && w.fcm.log().last?.android.isEmpty != false)
    }

    /// What FCM refuses in `android` (admin SDK checks mirrored, proto3 JSON types) [R-ADMIN][G-API].
    @Test(arguments: [
        (#""android":{"notification":{"color":"red"}}"#, "message.android.notification.color"),
        (#""android":{"notification":{"title_loc_args":["a"]}}"#, "message.android.notification.title_loc_args"),
        (
            #""android":{"notification":{"body_loc_key":"k","body_loc_args":[1]}}"#,
            "message.android.notification.body_loc_args"
        ),
        (
            #""android":{"notification":{"notification_priority":"URGENT"}}"#,
            "message.android.notification.notification_priority"
        ),
        (#""android":{"notification":{"visibility":"HIDDEN"}}"#, "message.android.notification.visibility"),
        (#""android":{"notification":{"notification_count":1.5}}"#, "message.android.notification.notification_count"),
        (#""android":{"notification":{"event_time":"yesterday"}}"#, "message.android.notification.event_time"),
        (#""android":{"notification":{"vibrate_timings":["1 s"]}}"#, "message.android.notification.vibrate_timings"),
        (#""android":{"data":{"google.x":"1"}}"#, "message.android.data"),
        // LightSettings: color a google.type.Color, both durations Durations, all three required [G-API].
        (
            ##""android":{"notification":{"light_settings":{"color":"#ff0000","light_on_duration":"1s","light_off_duration":"1s"}}}"##,
            "message.android.notification.light_settings.color"
        ),
        (
            #""android":{"notification":{"light_settings":{"color":{"red":"x"},"light_on_duration":"abc","light_off_duration":"1s"}}}"#,
            "message.android.notification.light_settings.color.red"
        ),
        (
            #""android":{"notification":{"light_settings":{"color":{"red":1},"light_on_duration":"abc","light_off_duration":"1s"}}}"#,
            "message.android.notification.light_settings.light_on_duration"
        ),
        (
            #""android":{"notification":{"light_settings":{"color":{"red":1},"light_on_duration":"1s","lightOffDuration":7}}}"#,
            "message.android.notification.light_settings.light_off_duration"
        ),
        (
            #""android":{"notification":{"light_settings":{"color":{"red":1},"light_on_duration":"1s"}}}"#,
            "message.android.notification.light_settings.light_off_duration"
        ),
        (
            #""android":{"notification":{"light_settings":{"light_on_duration":"1s","light_off_duration":"1s"}}}"#,
            "message.android.notification.light_settings.color"
        ),
        (#""android":{"notification":{"light_settings":{}}}"#, "message.android.notification.light_settings.color"),
        (
            #""android":{"notification":{"light_settings":{"color":{"green":1.5},"light_on_duration":"1s","light_off_duration":"1s"}}}"#,
            "message.android.notification.light_settings.color.green"
        ),
        (
            #""android":{"notification":{"light_settings":{"color":{"alpha":{"value":1}},"light_on_duration":"1s","light_off_duration":"1s"}}}"#,
            "message.android.notification.light_settings.color.alpha"
        ),
        (
            #""android":{"notification":{"light_settings":{"color":{"hue":1},"light_on_duration":"1s","light_off_duration":"1s"}}}"#,
            "message.android.notification.light_settings.color"
        ),
        // Enums by number: only the numbers the enum defines (proto3 JSON).
        (#""android":{"priority":2}"#, "message.android.priority"),
        (#""android":{"notification":{"visibility":4}}"#, "message.android.notification.visibility"),
        (#""android":{"notification":{"visibility":1.5}}"#, "message.android.notification.visibility"),
        (
            #""android":{"notification":{"notification_priority":6}}"#,
            "message.android.notification.notification_priority"
        ),
        (
            #""android":{"notification":{"notification_priority":-1}}"#,
            "message.android.notification.notification_priority"
        ),
        (#""android":{"notification":{"proxy":4}}"#, "message.android.notification.proxy"),
        (#""android":{"notification":{"proxy":true}}"#, "message.android.notification.proxy"),
        (#""android":{"direct_boot_ok":"yes"}"#, "message.android.direct_boot_ok"),
    ])
    func refusals(fragment: String, field: String) {
        let (w, token, recorder) = Self.world()
        let (status, body) = w.send(#"{"token":"\#(token)",\#(fragment)}"#)
        #expect(status == 400, "\(body)")
        #expect(body.violationField == field, "\(body)")
        #expect(recorder.all.isEmpty)
    }

    /// `light_settings` as firebase-admin-python 7.7.0 writes it (`_messaging_encoder.py` `encode_light_settings`:
    /// color as `{red, green, blue, alpha}` in 0…1, both durations `"<s>.<nanos>s"` or `"<s>s"`), and in the other
    /// proto3 JSON forms (camelCase names, a float as a string, `alpha` left out, the edges 0 and 1).
    @Test(arguments: [
        #"{"color":{"red":1.0,"green":0.2,"blue":0.0,"alpha":1.0},"light_on_duration":"0.200000000s","light_off_duration":"1s"}"#,
        #"{"color":{"red":0,"green":1,"blue":"0.5"},"lightOnDuration":"3s","lightOffDuration":"0s"}"#,
        #"{"color":{},"light_on_duration":"1.5s","light_off_duration":"2s"}"#,
    ])
    func acceptedLightSettings(lightSettings: String) {
        let (w, token, recorder) = Self.world()
        let (status, body) = w.send(
            #"{"token":"\#(token)","android":{"notification":{"light_settings":\#(lightSettings)}}}"#)
        #expect(status == 200, "\(body)")
        #expect(recorder.all.count == 1)
    }

    /// An enum by its number, as proto3 JSON allows: AndroidMessagePriority NORMAL 0 / HIGH 1; NotificationPriority
    /// PRIORITY_UNSPECIFIED 0 … PRIORITY_MAX 5; Visibility VISIBILITY_UNSPECIFIED 0, PRIVATE 1, PUBLIC 2, SECRET 3;
    /// Proxy PROXY_UNSPECIFIED 0, ALLOW 1, DENY 2, IF_PRIORITY_LOWERED 3 [G-API]. The number stands for the name.
    @Test func enumsByNumber() {
        let (w, token, recorder) = Self.world()
        let (status, body) = w.send(
            #"{"token":"\#(token)","android":{"priority":0,"notification":{"visibility":2,"notification_priority":4,"proxy":1}}}"#
        )
        #expect(status == 200, "\(body)")
        let n = recorder.all.first?.notification
        #expect(n?.visibility == "PUBLIC" && n?.notificationPriority == "PRIORITY_HIGH", "\(String(describing: n))")
        #expect(recorder.all.first?.priority == .normal)
        for (field, top) in [("visibility", 3), ("notification_priority", 5), ("proxy", 3)] {
            for number in 0...top {
                let (s, b) = w.send(#"{"token":"\#(token)","android":{"notification":{"\#(field)":\#(number)}}}"#)
                #expect(s == 200, "\(field) \(number): \(b)")
            }
        }
        #expect(recorder.all.last?.notification?.visibility == nil)  // the proxy rows: no visibility sent
        // The number in a string, as proto3 JSON parsers also take it.
        #expect(w.send(#"{"token":"\#(token)","android":{"notification":{"visibility":"2"}}}"#).0 == 200)
        #expect(recorder.all.last?.notification?.visibility == "PUBLIC")
    }

    /// What FCM accepts there (RFC 3339 with a fraction or an offset, string int32, the enums).
    @Test func acceptedAndroidNotificationForms() {
        let (w, token, recorder) = Self.world()
        let n =
            #"{"event_time":"2026-01-01T12:00:00.000000Z","notification_priority":"PRIORITY_MAX","visibility":"PUBLIC","proxy":"DENY","vibrate_timings":["0.5s","1s"],"light_settings":{"color":{"red":1},"light_on_duration":"1s","light_off_duration":"1s"},"title_loc_key":"k","title_loc_args":["a"]}"#
        #expect(w.send(#"{"token":"\#(token)","android":{"notification":\#(n)}}"#).0 == 200)
        #expect(recorder.all.first?.notification?.visibility == "PUBLIC")
        #expect(FCMMessageRules.isTimestamp("2026-01-01T12:00:00+09:00"))
        #expect(!FCMMessageRules.isTimestamp("2026-01-01 12:00:00Z"))
    }
}
