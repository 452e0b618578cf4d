import Foundation
import Testing
import YAMLSource

@testable import DeviceSimulator

/// `apps:` entries with `package_name` and `devices:` with `platform: android`: what decodes into the Android
/// declaration, google-services.json read for the app's client, and the mistakes at their line with what to do.
@Suite struct AndroidDeclarationYAMLTests {
    static func world(_ text: String, file: String = "/tmp/world.yaml") throws(SourceError) -> DeviceWorld {
        try DeviceWorld.decode(try YAMLMapping(try YAMLLoader.load(string: text, file: file)), file: file)
    }

    static func error(_ text: String, file: String = "/tmp/world.yaml") -> SourceError? {
        do throws(SourceError) {
            _ = try world(text, file: file)
            return nil
        } catch { return error }
    }

    @Test func theWholeDeclarationDecodes() throws {
        let w = try Self.world(
            """
            apps:
              - package_name: com.example.shop
                target_sdk: 33
                firebase: { sender_id: "123456789012", project_id: shop-demo, app_id: "1:123456789012:android:0a1b" }
                manifest:
                  messaging_service: null
                  default_channel: orders
                  default_color: "#FF5722"
                  auto_init: false
                  activities:
                    - { name: .Main, launcher: true, launch_mode: singleTask }
                    - { name: .Web, deep_links: [{ scheme: https, host: shop.example, path_prefix: /p }], handles_new_intent: false }
                channels: [{ id: orders, name: Orders, importance: high }, { id: quiet, importance: none }]
                permission: not_asked
                handler: { duration: 25s, posts_notification: { channel: orders, tag: t } }
                standby_bucket: rare
                drawables: [ic_stat]
            devices:
              - { name: pixel, platform: android, api_level: 33, serial: emulator-5554, apps: [com.example.shop] }
            """)
        let app = try #require(w.androidApps.first)
        #expect(app.targetSdk == 33 && app.firebase?.appID == "1:123456789012:android:0a1b")
        #expect(app.manifest.messagingService == nil && app.manifest.defaultChannelID == "orders")
        #expect(app.manifest.defaultColor == "#FF5722" && !app.manifest.autoInitEnabled)
        #expect(app.manifest.launcherActivity?.launchMode == .singleTask)
        #expect(app.manifest.activity(named: ".Web")?.deepLinks.first?.matches("https://shop.example:8443/p/1") == true)
        #expect(app.manifest.activity(named: ".Web")?.handlesNewIntent == false)
        #expect(app.channels.map(\.importance) == [.high, .none] && app.channels[1].name == "quiet")
        #expect(app.permission == .notAsked && app.handler.duration == 25 && app.handler.postsNotification?.tag == "t")
        #expect(app.standbyBucket == .rare && app.drawables == ["ic_stat"])
        let d = try #require(w.devices.first)
        #expect(d.platform == .android && d.apiLevel == 33 && d.udid == "emulator-5554")
        #expect(w.apps.isEmpty)
    }

    @Test func googleServicesJSONGivesTheClientOfThePackage() throws {
        let dir = NSTemporaryDirectory() + "android-decl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        {"project_info": {"project_number": "123456789012", "project_id": "shop-demo"},
         "client": [
           {"client_info": {"mobilesdk_app_id": "1:123456789012:android:aaaa",
                            "android_client_info": {"package_name": "com.example.other"}}},
           {"client_info": {"mobilesdk_app_id": "1:123456789012:android:bbbb",
                            "android_client_info": {"package_name": "com.example.shop"}},
            "api_key": [{"current_key": "AIzaSyTest"}]}]}
        """.write(toFile: dir + "/google-services.json", atomically: true, encoding: .utf8)
        let text = """
            apps:
              - { package_name: com.example.shop, google_services_file: google-services.json }
            """
        let app = try #require(try Self.world(text, file: dir + "/world.yaml").androidApps.first)
        #expect(
            app.firebase
                == AndroidFirebaseConfig(
                    senderID: "123456789012", projectID: "shop-demo", appID: "1:123456789012:android:bbbb",
                    apiKey: "AIzaSyTest"))
        let missing = try #require(
            Self.error(
                text.replacingOccurrences(of: "com.example.shop", with: "com.example.nope"), file: dir + "/w.yaml"))
        #expect((missing.expected ?? "").contains("No matching client found for package name"))
        #expect((missing.expected ?? "").contains("com.example.other, com.example.shop"))
    }

    @Test func mistakesPointAtTheirKey() throws {
        let app = "apps: [{ package_name: com.example.shop }]\n"
        let ios = try #require(Self.error(app + "devices: [{ name: p, platform: android, udid: X, apps: [] }]"))
        #expect(ios.line == 2 && (ios.expected ?? "").contains("iOS only"))
        let level = try #require(Self.error(app + "devices: [{ name: p, platform: android, api_level: 12 }]"))
        #expect((level.expected ?? "").contains("21 (Android 5) to 36"))
        let apiOnIPhone = try #require(Self.error(app + "devices: [{ name: p, udid: X, api_level: 34 }]"))
        #expect((apiOnIPhone.expected ?? "").contains("platform: android"))
        let iosApp = try #require(
            Self.error(app + "devices: [{ name: p, platform: android, apps: [com.example.ios] }]"))
        #expect((iosApp.expected ?? "").contains("com.example.shop"))
        let twice = try #require(Self.error("apps: [{ package_name: a.b }, { package_name: a.b }]"))
        #expect((twice.expected ?? "").contains("a unique package_name"))
        let color = try #require(
            Self.error("apps: [{ package_name: a.b, manifest: { default_color: orange } }]"))
        #expect((color.expected ?? "").contains("#RRGGBB"))
        let bucket = try #require(Self.error("apps: [{ package_name: a.b, standby_bucket: sometimes }]"))
        #expect(bucket.suggestion != nil || (bucket.expected ?? "").contains("rare"))
    }
}
