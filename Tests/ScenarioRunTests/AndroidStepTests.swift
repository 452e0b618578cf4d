import Foundation
@testable import PushModel
import Testing
import YAMLSource

@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat

/// An Android phone in a suite world: the declaration's mistakes at their line, and a suite that expects what the
/// phone does not do fails with the device's reason (the mock never answers 200 and models nothing).
@Suite struct AndroidStepTests {
    static let world = """
        world:
          apps:
            - package_name: com.example.shop
              firebase: { sender_id: "123456789012", project_id: shop-demo, app_id: "1:123456789012:android:0a1b2c3d" }
              manifest:
                default_channel: orders
                activities:
                  - { name: .MainActivity, launcher: true }
                  - { name: .OrderActivity, actions: [OPEN_ORDER] }
              channels: [{ id: orders, importance: high }]
          devices:
            - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop] }
          gateway:
            fcm:
              projects: [{ id: shop-demo, number: "123456789012" }]
        """

    static func run(_ steps: String) async throws -> ScenarioResult {
        try await Support.runSteps(steps, world: Self.world).1
    }

    @Test func expectingDeliveryToAForceStoppedAppFailsWithTheDevicesReason() async throws {
        let r = try await Self.run(
            """
            - force_stop: com.example.shop
            - send: { via: fcm, message: { notification: { title: Hi }, data: { k: v } } }
              expect: { status: 200, delivered: true, tray: [Hi] }
            """)
        let f = Support.failures(r)
        #expect(f.count == 2, "\(Support.describe(r))")
        #expect(f.first?.message.contains("delivered") == true)
        #expect(f.first?.actual.contains("app-force-stopped") == true, "\(f.first?.actual ?? "")")
        #expect(f.first?.events.contains("dropped: app-force-stopped") == true)
    }

    /// The package's 51st notification in the tray is not shown (Android's own limit, Tests/reference/android.md §7):
    /// FCM still answers 200 and the app gets the message, but a suite expecting the notification fails with the
    /// device's reason, and the reason itself can be expected.
    @Test func theFiftyFirstNotificationOfAPackageIsNotShown() async throws {
        let fifty = (1...50).map { "- send: { via: fcm, message: { notification: { title: N\($0) } } }" }
        let r = try await Self.run(
            (["- background"] + fifty).joined(separator: "\n") + """

                - send: { via: fcm, message: { notification: { title: Last } } }
                  expect: { status: 200, delivered: true, notification: { title: Last } }
                - send: { via: fcm, message: { notification: { title: Again } } }
                  expect: { status: 200, delivered: true, dropped: package-notification-limit(50) }
                """)
        let f = Support.failures(r)
        #expect(f.count == 1, "\(Support.describe(r))")
        #expect(f.first?.message.contains("notification") == true, "\(f.first?.message ?? "")")
        #expect(f.first?.events.contains("dropped: package-notification-limit(50)") == true, "\(f.first?.events ?? "")")
    }

    @Test func theTapsActivityAndExtrasAreChecked() async throws {
        let r = try await Self.run(
            """
            - background
            - send:
                via: fcm
                message: { notification: { title: Hi }, data: { order_id: A1 }, android: { notification: { click_action: OPEN_ORDER } } }
            - tap:
              expect: { navigation: { activity: .MainActivity }, extras: { order_id: A2 } }
            """)
        let f = Support.failures(r)
        #expect(f.map(\.expected) == ["\".MainActivity\"", "\"A2\""], "\(Support.describe(r))")
        #expect(f.map { Support.withoutReadNote($0.actual) } == ["\".OrderActivity\"", "\"A1\""])
    }

    @Test func iPhoneOnlyStepsAndAPNsSendsAreRefusedOnAnAndroidPhone() async throws {
        let expand = try await Self.run("- expand: latest")
        #expect(Support.failures(expand).first?.actual.contains("not an action of an Android phone") == true)
        let apns = try await Self.run("- send: { payload: { aps: { alert: Hi } } }")
        guard case .error(_, let message, let detail) = apns.status else {
            Issue.record("expected an error: \(Support.describe(apns))")
            return
        }
        #expect(message.contains("is an Android phone: it has no APNs token"))
        #expect(detail.contains("via: fcm"))
    }

    @Test func aLinkNoActivityHandlesFailsTheStep() async throws {
        let r = try await Self.run("- open_link: https://elsewhere.example/x")
        #expect(Support.failures(r).first?.actual.contains("no activity of an installed app handles") == true)
    }

    @Test func declarationMistakesPointAtTheirKey() throws {
        let iosKey = try #require(
            try Support.loadError(
                Self.world.replacingOccurrences(of: "api_level: 34,", with: "api_level: 34, ios: \"17.5\",")
                    + "\nscenarios: []\n"))
        #expect(iosKey.message.contains("ios") || (iosKey.expected ?? "").contains("iOS only"), "\(iosKey)")
        let unknownApp = try #require(
            try Support.loadError(
                Self.world.replacingOccurrences(of: "apps: [com.example.shop] }", with: "apps: [com.example.shp] }")
                    + "\nscenarios: []\n"))
        #expect((unknownApp.expected ?? "").contains("com.example.shop"), "\(unknownApp)")
        let channel = try #require(
            try Support.loadError(
                Self.world.replacingOccurrences(of: "importance: high", with: "importance: urgent")
                    + "\nscenarios: []\n"))
        #expect(channel.line == 10, "\(channel)")
    }
}
