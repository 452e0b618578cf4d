import Foundation
@testable import PushModel
import Testing
@testable import YAMLSource

@testable import DeviceSimulator

@Suite struct DeviceActionTests {
    static func steps(_ yaml: String) throws -> [DeviceAction] {
        let root = try YAMLLoader.load(string: yaml, file: "steps.yaml")
        return try root.sequence().map { (n: YAMLNode) throws(SourceError) in
            try DeviceAction.decode(try YAMLMapping(n))
        }
    }

    @Test func seed002ScriptedAsSteps() throws {
        let (d, _) = Fixture.ready(Fixture.app(navigation: SeedTests.nav002), state: .foreground)
        d.deliver(Fixture.push(Fixture.alertPayload))
        let actions = try Self.steps(
            """
            - tap: latest
            - back: com.example.app
            - answer_alert: Cancel
            - back: true
            - answer_alert: OK
            """)
        #expect(
            actions == [
                .tap(.latest), .back(app: "com.example.app"), .answerAlert(app: nil, button: "Cancel"),
                .back(app: nil), .answerAlert(app: nil, button: "OK"),
            ])
        var stacks: [[String]] = []
        for a in actions {
            try d.apply(a)
            stacks.append(d.snapshot.apps[Fixture.bundleID]?.router.stack.map(\.id) ?? [])
        }
        #expect(stacks == [["edit"], ["edit"], ["edit"], ["edit"], []])
    }

    /// A suite's spellings decode to the same actions (suites and `serve` share one decoder).
    @Test func decodesTheSuiteSpellings() throws {
        let actions = try Self.steps(
            """
            - { foreground: true }
            - { state: suspended, app: a.b }
            - { state: not-running }
            - { offline: true }
            - { online: null }
            - { authorization: { status: provisional, sound: false } }
            - { action: { id: open, notification: n2 } }
            - { tap: true }
            - { expand: null }
            """)
        #expect(
            actions == [
                .launch(app: nil), .suspend(app: "a.b"), .terminate(app: nil), .online(false), .online(true),
                .authorize(app: nil, NotificationSettings(status: .provisional, sound: false)),
                .chooseAction("open", on: .id("n2")), .tap(.latest), .expand(.latest),
            ])
        #expect(throws: SourceError.self) { try Self.steps("- { state: asleep }") }
        #expect(throws: SourceError.self) { try Self.steps("- { quick_action: null }") }
        #expect(throws: SourceError.self) { try Self.steps("- { action: { id: open, on: n1 } }") }
    }

    @Test func decodesEveryShape() throws {
        let actions = try Self.steps(
            """
            - { launch: a.b }
            - { force_quit: a.b }
            - { reboot: true }
            - { online: false }
            - { action: open, on: n3 }
            - { action: open }
            - { dismiss: { title: Hello } }
            - { quick_action: camera, app: a.b }
            - { authorize: denied }
            - { swipe_back: a.b }
            - { swipe_back: true }
            """)
        #expect(
            actions == [
                .launch(app: "a.b"), .forceQuit(app: "a.b"), .reboot, .online(false),
                .chooseAction("open", on: .id("n3")), .chooseAction("open", on: .latest), .dismiss(.title("Hello")),
                .quickAction(app: "a.b", type: "camera"), .authorize(app: nil, .denied), .swipeBack(app: "a.b"),
                .swipeBack(app: nil),
            ])
        #expect(throws: SourceError.self) { try Self.steps("- { tap: latest, back: true }") }
        #expect(throws: SourceError.self) { try Self.steps("- { tapp: latest }") }
    }

    @Test func errorsSayWhatIsThere() throws {
        let (d, _) = Fixture.ready(state: .foreground)
        #expect(throws: DeviceActionError.noSuchApp("x.y", installed: [Fixture.bundleID])) {
            try d.apply(.launch(app: "x.y"))
        }
        #expect(throws: DeviceActionError.noSuchNotification(.latest, available: [])) { try d.apply(.tap(.latest)) }
        #expect(throws: DeviceActionError.noAlertShowing(app: Fixture.bundleID, button: "OK")) {
            try d.apply(.answerAlert(app: nil, button: "OK"))
        }
        d.deliver(Fixture.push(Fixture.alertPayload))
        #expect(
            throws: DeviceActionError.interaction(
                .noSuchAction(notificationID: "n1", actionID: "zap", category: nil, available: []))
        ) {
            try d.apply(.chooseAction("zap", on: .title("Hello")))
        }
        #expect(Fixture.callbacks(try d.apply(.tap(.title("Hello")))) == ["didReceiveResponse"])
    }

    @Test func eventsAsJSONForTheControlEndpoint() throws {
        let (d, _) = Fixture.ready(state: .suspended)
        let events = d.deliver(Fixture.push(Fixture.alertPayload)).events
        let presented = try #require(
            events.first { if case .notificationPresented = $0.kind { return true } else { return false } })
        let json = presented.jsonValue
        #expect(json["type"] == .string("notification-presented"))
        #expect(json["title"] == .string("Hello"))
        #expect(json["bundle_id"] == .string(Fixture.bundleID))
        #expect(json["user_info"]?["test"] == .string("aaa"))
        #expect(json["at"] == .string("2026-01-01T00:00:00Z"))
        // Every event of a busy log serializes and parses back.
        _ = try d.apply(.tap(.latest))
        for e in d.events {
            let text = e.jsonValue.serialized()
            #expect(try JSONValue.parse(text)["seq"] == .number(Double(e.sequence)))
        }
    }
}
