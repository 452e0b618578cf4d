import Foundation
@testable import Provisioning
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import YAMLSource

@testable import DeviceSimulator

@Suite struct DeclarationYAMLTests {
    static let world = """
        apps:
          - bundle_id: com.example.app
            team_id: ABCDE12345
            aps_environment: development
            background_modes: [remote-notification]
            profile: { devices: [00008110-000A1C2E0E12801E], expires: 2027-01-01T00:00:00Z }
            authorization: { status: authorized, sound: false }
            delegate:
              will_present: [banner, sound]
              fetch_handler: { result: no-data, duration: 45s }
            categories: [{ id: Kanmoba, actions: [{ id: open, title: Open }, { id: later }] }]
            service_extension: { duration: 2s, title: Decrypted, user_info: { decrypted: true } }
            content_extensions:
              - { name: KanmobaContent, categories: Kanmoba, actions: { open: { open_url_from: url, response: dismiss } } }
            firebase: { sender_id: "123456789", project_id: demo }
            navigation:
              tabs: [Top, Home]
              screens: [{ id: detail }]
              routes:
                - name: detail
                  on: tap
                  require: { url: url }
                  tab: 1
                  push: [{ screen: detail, title_from: aps.alert.title }]
                  open_url_from: url
            web_view: { external_hosts: [apps.apple.com] }
        devices:
          - name: Test iPhone
            udid: 00008110-000A1C2E0E12801E
            seed: 7
            background_wakes_per_day: 2
            apps: [com.example.app]
        """

    static func decode(_ text: String, file: String = "suite.yaml") throws(SourceError) -> DeviceWorld {
        try DeviceWorld.decode(try YAMLMapping(try YAMLLoader.load(string: text, file: file)), file: file)
    }

    @Test func decodesAWorldAndRunsIt() throws {
        let world = try Self.decode(Self.world)
        let app = try #require(world.apps.first)
        #expect(app.bundleID == "com.example.app")
        #expect(app.profile.type == .development)
        #expect(app.authorization == NotificationSettings(status: .authorized, sound: false))
        #expect(app.delegate.willPresentOptions == [.banner, .sound])
        #expect(app.delegate.fetchResult == .noData)
        #expect(app.delegate.fetchDuration == 45)
        #expect(app.categories.first?.actions.map(\.title) == ["Open", "later"])
        #expect(app.contentExtensions.first?.categories == ["Kanmoba"])
        #expect(app.serviceExtension?.userInfoAdditions == ["decrypted": .bool(true)])
        #expect(app.navigation.routes.first?.push == [ScreenPush("detail", title: .fromKey("aps.alert.title"))])
        #expect(world.devices.first?.rules.backgroundWakesPerDay == 2)

        let device = world.devices[0].makeDevice(apps: world.apps, clock: ManualClock(start: Fixture.start))
        let reg = device.registration(of: "com.example.app")
        #expect(reg.environment == .development)
        #expect(reg.fcmMapped)
        let payload = Fixture.json(
            #"{"aps":{"alert":{"title":"From YAML"},"mutable-content":1,"category":"Kanmoba"},"url":"https://example.com/"}"#
        )
        device.deliver(IncomingPush(bundleID: "com.example.app", token: reg.token, payload: payload, apnsID: "y1"))
        #expect(device.snapshot.notificationCenter.first?.content.title == "Decrypted")
        let nav = Fixture.navigation(try device.tap("n1"))
        // The service extension changed the displayed title, not `userInfo`: the route reads the payload's.
        #expect(nav.contains(.pushed(screen: "detail", title: "From YAML")))
        #expect(nav.contains(.tabSelected(index: 1, title: "Home")))
        // The fetch handler overruns its 30 s: a background push gets the app terminated.
        device.launch("com.example.app")
        device.moveToBackground("com.example.app")
        let e = device.deliver(
            IncomingPush(bundleID: "com.example.app", payload: Fixture.backgroundPayload, apnsID: "y2")
        ).events
        #expect(e.contains { if case .appTerminated = $0.kind { return true } else { return false } })
    }

    /// `push_types:` and `voip:` (Tests/reference/ios-push-types.md §1.1, §4); device rules for VoIP and the hourly
    /// background budget.
    @Test func decodesPushTypesAndTheirRules() throws {
        let world = try Self.decode(
            """
            apps:
              - bundle_id: com.example.calls
                team_id: ABCDE12345
                aps_environment: development
                profile: { all_devices: true }
                push_types: [voip, pushtotalk, voip]
                voip: { reports_call: false }
            devices:
              - { name: d, udid: u, ios: "18.0", background_wakes_per_hour: 3, voip_unreported_limit: 5, apps: [com.example.calls] }
            """)
        let app = try #require(world.apps.first)
        #expect(app.pushTypes == [.voip, .pushToTalk])
        #expect(app.voip == VoIPBehaviour(reportsCall: false))
        #expect(world.devices[0].rules.backgroundWakesPerHour == 3)
        #expect(world.devices[0].rules.voipUnreportedLimit == 5)
        #expect(DeviceRules().backgroundWakesPerHour == 3, "Apple's two or three per hour")
        let unlimited = try Self.decode(
            "apps: []\ndevices:\n  - { name: d, udid: u, background_wakes_per_hour: unlimited }\n")
        #expect(unlimited.devices[0].rules.backgroundWakesPerHour == nil)
        let device = world.devices[0].makeDevice(apps: world.apps, clock: ManualClock(start: Fixture.start))
        let tokens = try #require(device.snapshot.apps["com.example.calls"]?.pushTokens)
        #expect(Set(tokens.keys) == [.voip, .pushToTalk])
    }

    /// `event_log_limit` and `notification_center_limit` set the simulator's bounds (README "Simulated device
    /// limits") on the device the declaration builds: 9 alerts to an iPhone keeping 4 notifications and 6 events.
    @Test func theLogLimitsAreDeclaredPerDevice() throws {
        let world = try Self.decode(
            Self.world.replacingOccurrences(
                of: "background_wakes_per_day: 2", with: "event_log_limit: 6\n    notification_center_limit: 4"))
        #expect(world.devices[0].rules.eventLogLimit == PhoneLogLimit(6))
        #expect(world.devices[0].rules.notificationCenterLimit == PhoneLogLimit(4))
        let defaults = try Self.decode(Self.world).devices[0].rules
        #expect(
            defaults.eventLogLimit == PhoneLogLimit(10_000) && defaults.notificationCenterLimit == PhoneLogLimit(1_000))
        let device = world.devices[0].makeDevice(apps: world.apps, clock: ManualClock(start: Fixture.start))
        for i in 1...9 { device.deliver(Fixture.push(Fixture.alertPayload, id: "p\(i)")) }
        let s = device.snapshot
        #expect(
            (4...6).contains(s.notificationCenter.count) && s.notificationsDropped + s.notificationCenter.count == 9)
        #expect((6...9).contains(s.events.count) && s.eventsDropped > 0)
        let android = try Self.decode(
            "apps: []\ndevices:\n  - { name: p, platform: android, event_log_limit: 3 }\n")
        #expect(android.devices[0].rules.eventLogLimit == PhoneLogLimit(3))
    }

    @Test func sameWorldSameSeedSameLog() throws {
        let world = try Self.decode(Self.world)
        func run() -> [DeviceEvent] {
            let d = world.devices[0].makeDevice(apps: world.apps, clock: ManualClock(start: Fixture.start))
            d.deliver(IncomingPush(bundleID: "com.example.app", payload: Fixture.alertPayload, apnsID: "a"))
            return d.events
        }
        #expect(run() == run())
    }

    @Test func readsTheTeamsRealFiles() throws {
        let dir = try TempDirectory("pushcheck-yaml")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("App"), withIntermediateDirectories: true)
        let head = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
        try
            (head + "<dict><key>aps-environment</key><string>production</string>"
            + "<key>application-identifier</key><string>TEAM000001.com.example.shop</string></dict></plist>")
            .write(toFile: dir.file("App/App.entitlements"), atomically: true, encoding: .utf8)
        try
            (head + "<dict><key>CFBundleIdentifier</key><string>com.example.shop</string>"
            + "<key>UIBackgroundModes</key><array><string>remote-notification</string></array>"
            + "<key>FirebaseAppDelegateProxyEnabled</key><false/></dict></plist>")
            .write(toFile: dir.file("App/Info.plist"), atomically: true, encoding: .utf8)
        try
            (head
            + "<dict><key>Name</key><string>Shop AdHoc</string><key>TeamIdentifier</key><array><string>TEAM000001</string></array>"
            + "<key>CreationDate</key><date>2026-01-01T00:00:00Z</date><key>ExpirationDate</key><date>2027-01-01T00:00:00Z</date>"
            + "<key>ProvisionedDevices</key><array><string>00008110-000A1C2E0E12801E</string></array>"
            + "<key>Entitlements</key><dict><key>application-identifier</key><string>TEAM000001.com.example.shop</string>"
            + "<key>aps-environment</key><string>production</string></dict></dict></plist>")
            .write(toFile: dir.file("Shop.mobileprovision"), atomically: true, encoding: .utf8)
        let yaml = """
            apps:
              - entitlements_file: App/App.entitlements
                info_plist_file: App/Info.plist
                provisioning_profile_file: Shop.mobileprovision
            """
        let world = try Self.decode(yaml, file: dir.file("suite.yaml"))
        let app = try #require(world.apps.first)
        #expect(app.bundleID == "com.example.shop")
        #expect(app.signing.teamID == "TEAM000001")
        #expect(app.signing.apsEnvironment == .production)
        #expect(app.signing.hasRemoteNotificationBackgroundMode)
        #expect(!app.signing.firebaseAppDelegateProxyEnabled)
        #expect(app.profile.type == .adHoc)
        #expect(app.profile.name == "Shop AdHoc")
    }

    @Test(
        arguments: [
            ("apps:\n  - bundle_id: a.b\n    profle: {}\n", 3, "unknown key 'profle'"),
            ("apps:\n  - bundle_id: a.b\n", 2, "missing required key 'profile'"),
            (
                "apps:\n  - bundle_id: a.b\n    profile: {}\n    delegate: { will_present: [banner, loud] }\n", 4,
                "invalid value"
            ),
            (
                "apps:\n  - bundle_id: a.b\n    provisioning_profile_file: /nonexistent.mobileprovision\n", 3,
                "invalid value"
            ),
            (
                "apps:\n  - bundle_id: a.b\n    profile: {}\n    provisioning_profile_file: x.mobileprovision\n", 3,
                "not both"
            ),
            (
                "apps:\n  - bundle_id: a.b\n    profile: {}\ndevices:\n  - { name: d, udid: u, apps: [c.d] }\n", 5,
                "unknown app 'c.d'"
            ),
            (
                "apps:\n  - bundle_id: a.b\n    profile: {}\n    navigation: { routes: [{ name: r, on: [tapp] }] }\n",
                4, "invalid value"
            ),
            ("apps:\n  - bundle_id: a.b\n    profile: {}\n    push_types: [voip, liveactivity]\n", 4, "invalid value"),
            ("apps:\n  - bundle_id: a.b\n    profile: {}\n    voip: { report_call: false }\n", 4, "unknown key"),
            ("apps: []\ndevices:\n  - name: d\n    udid: u\n    event_log_limit: 0\n", 5, "1 or more (default 10000)"),
            (
                "apps: []\ndevices:\n  - name: d\n    udid: u\n    notification_center_limit: lots\n", 5,
                "expected an integer"
            ),
            (
                "apps: []\ndevices:\n  - name: p\n    platform: android\n    notification_center_limit: 5\n", 5,
                "at most 50 notifications per app"
            ),
        ] as [(String, Int, String)])
    func mistakesPointAtTheLine(yaml: String, line: Int, message: String) {
        #expect {
            try Self.decode(yaml)
        } throws: { error in
            guard let e = error as? SourceError else { return false }
            return e.line == line && e.description.contains(message)
        }
    }
}
