import Foundation
@testable import Provisioning
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import YAMLSource

@testable import DeviceSimulator

@Suite struct PresentationDetailTests {
    static func app(entitlements: [String: PlistValue]) -> AppDeclaration {
        var a = Fixture.app()
        for (k, v) in entitlements { a.signing.entitlements[k] = v }
        return a
    }

    /// device.md §2.3 `aps.interruption-level`.
    @Test(
        arguments: [
            (
                "passive", [:], NotificationSettings.authorized,
                Presentation(banner: false, list: true, sound: nil, quiet: false, interruptionLevel: "passive")
            ),
            (
                "time-sensitive", [:], .authorized,
                Presentation(banner: true, list: true, sound: "default", quiet: false)
            ),
            (
                "time-sensitive", ["com.apple.developer.usernotifications.time-sensitive": .bool(true)], .authorized,
                Presentation(
                    banner: true, list: true, sound: "default", quiet: false, interruptionLevel: "time-sensitive")
            ),
            (
                "critical", ["com.apple.developer.usernotifications.critical-alerts": .bool(true)],
                NotificationSettings(status: .authorized, sound: false),
                Presentation(banner: true, list: true, sound: nil, quiet: false)
            ),
            (
                "critical", ["com.apple.developer.usernotifications.critical-alerts": .bool(true)],
                NotificationSettings(status: .authorized, sound: false, criticalAlert: true),
                Presentation(banner: true, list: true, sound: "default", quiet: false, interruptionLevel: "critical")
            ),
        ] as [(String, [String: PlistValue], NotificationSettings, Presentation)])
    func interruptionLevels(
        level: String, entitlements: [String: PlistValue], settings: NotificationSettings, expected: Presentation
    ) {
        let (d, _) = Fixture.ready(Self.app(entitlements: entitlements), state: .suspended, settings: settings)
        let payload = Fixture.json(#"{"aps":{"alert":"x","sound":"default","interruption-level":"\#(level)"}}"#)
        #expect(Fixture.presented(d.deliver(Fixture.push(payload)).events) == [expected])
    }

    /// A localized alert (`title-loc-key`, `loc-key` with `loc-args`, no literal text) is shown, from the key as iOS
    /// shows a key it does not find, its arguments put in (Tests/reference/ios-push-types.md §6.1); it was dropped as
    /// an empty push, and the service extension did not run.
    @Test func aLocalizedAlertIsShown() {
        let (d, _) = Fixture.ready(Fixture.app(), state: .suspended)
        let payload = Fixture.json(
            #"{"aps":{"alert":{"title-loc-key":"GAME_INVITE","loc-key":"%@ and %2$@ play %1$@ (100%%)","loc-args":["Jenna","Frank"]}}}"#
        )
        let events = d.deliver(Fixture.push(payload)).events
        #expect(Fixture.presented(events).count == 1, "\(events)")
        #expect(
            events.contains {
                "\($0.kind)".contains("GAME_INVITE") && "\($0.kind)".contains("Jenna and Frank play Jenna (100%)")
            },
            "\(events.map { "\($0.kind)" })")
        #expect(APSDictionary.format("%@ %1$@ %3$@ %q %%", ["a", "b"]) == "a a  %q %")
    }

    /// The sound dictionary's `critical: 1` (no `interruption-level`) is a critical alert: it plays its sound though
    /// the sound switch is off (Tests/reference/ios-push-types.md §6.2); it played none.
    @Test func theSoundDictionarysCriticalFlagIsACriticalAlert() {
        let (d, _) = Fixture.ready(
            Self.app(entitlements: ["com.apple.developer.usernotifications.critical-alerts": .bool(true)]),
            state: .suspended, settings: NotificationSettings(status: .authorized, sound: false, criticalAlert: true))
        let payload = Fixture.json(#"{"aps":{"alert":"Fire","sound":{"critical":1,"name":"default","volume":1.0}}}"#)
        #expect(
            Fixture.presented(d.deliver(Fixture.push(payload)).events) == [
                Presentation(banner: true, list: true, sound: "default", quiet: false, interruptionLevel: "critical")
            ])
    }

    @Test func sceneAppGetsTheColdStartTapInConnectionOptions() throws {
        let (d, _) = Fixture.ready(Fixture.app(delegate: DelegateBehaviour(usesScenes: true)), state: .notRunning)
        d.deliver(Fixture.push(Fixture.alertPayload))
        let e = try d.tap("n1")
        #expect(Fixture.callbacks(e) == ["didFinishLaunching", "sceneWillConnect", "didReceiveResponse"])
        #expect(e.contains { $0.kind == .callback(.didFinishLaunching(remoteNotification: nil)) })
        #expect(e.contains { $0.kind == .callback(.sceneWillConnect(notificationResponse: Fixture.alertPayload)) })
    }

    @Test func fcmRegistrationsExposeMappingForTheFCMGateway() throws {
        let mapped = Fixture.app(firebase: FirebaseDeclaration(senderID: "1", projectID: "p"))
        let (d, _) = Fixture.ready(mapped, state: .notRunning)
        let regs = d.fcmRegistrations
        #expect(regs.count == 1)
        #expect(regs.first?.apnsToken == d.registration(of: Fixture.bundleID).token)
        #expect(regs.first?.environment == .development)
        let unmapped = Fixture.app(firebase: FirebaseDeclaration(senderID: "1", projectID: "p"), proxyEnabled: false)
        let (d2, _) = Fixture.ready(unmapped, state: .notRunning)
        #expect(d2.fcmRegistrations.first?.apnsToken == nil)
        let fcm = try #require(d2.fcmRegistrations.first?.fcmToken)
        #expect(d2.fcmMessageNotDelivered(fcmToken: fcm, messageID: "projects/p/messages/1"))
        #expect(d2.events.last?.kind == .pushDropped(apnsID: "projects/p/messages/1", reason: .fcmTokenNotMapped))
        #expect(!d2.fcmMessageNotDelivered(fcmToken: "unknown", messageID: "m"))
    }

    @Test func contentExtensionCategoriesFromItsInfoPlist() throws {
        let dir = try TempDirectory("pushcheck-ext")
        defer { dir.remove() }
        try """
        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>NSExtension</key><dict>
        <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>
        <key>NSExtensionAttributes</key><dict><key>UNNotificationExtensionCategory</key><string>Kanmoba</string>
        <key>UNNotificationExtensionInitialContentSizeRatio</key><real>1</real></dict></dict></dict></plist>
        """.write(toFile: dir.file("ExtInfo.plist"), atomically: true, encoding: .utf8)
        let yaml = """
            apps:
              - bundle_id: a.b
                profile: {}
                content_extensions: [{ name: Ext, info_plist_file: ExtInfo.plist }]
            """
        let file = dir.file("suite.yaml")
        let world = try DeviceWorld.decode(try YAMLMapping(try YAMLLoader.load(string: yaml, file: file)), file: file)
        #expect(world.apps.first?.contentExtensions.first?.categories == ["Kanmoba"])
    }
}

@Suite struct SoundAndBadgeOnlyTests {
    @Test func soundOnlyPlaysAndBadgeOnlyUpdatesWithoutANotification() {
        let (d, _) = Fixture.ready(state: .suspended)
        let sound = d.deliver(Fixture.push(Fixture.json(#"{"aps":{"sound":"chime.caf"}}"#))).events
        #expect(sound.contains { $0.kind == .soundPlayed("chime.caf") })
        let badge = d.deliver(Fixture.push(Fixture.json(#"{"aps":{"badge":7}}"#), id: "p2")).events
        #expect(badge.contains { $0.kind == .badgeChanged(7) })
        #expect(d.snapshot.notificationCenter.isEmpty)
        let (muted, _) = Fixture.ready(
            state: .suspended, settings: NotificationSettings(status: .authorized, sound: false))
        #expect(
            !muted.deliver(Fixture.push(Fixture.json(#"{"aps":{"sound":"chime.caf"}}"#))).events.contains {
                if case .soundPlayed = $0.kind { return true } else { return false }
            })
    }
}
