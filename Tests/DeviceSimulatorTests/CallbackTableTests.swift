import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// device.md §1.1: one row per (push kind, app state) with the callbacks in order, whether the
/// notification is shown, and the app's state afterwards.
@Suite struct CallbackTableTests {
    struct Row: Sendable, CustomStringConvertible {
        var kind: String
        var state: AppState
        var callbacks: [String]
        var shown: Bool
        var after: AppState
        var description: String { "\(kind) @ \(state.rawValue)" }
    }

    static let rows: [Row] = [
        // (a) alert
        Row(kind: "alert", state: .foreground, callbacks: ["willPresent"], shown: true, after: .foreground),
        Row(kind: "alert", state: .background, callbacks: [], shown: true, after: .background),
        Row(kind: "alert", state: .suspended, callbacks: [], shown: true, after: .suspended),
        Row(kind: "alert", state: .notRunning, callbacks: [], shown: true, after: .notRunning),
        Row(kind: "alert", state: .forceQuit, callbacks: [], shown: true, after: .forceQuit),
        // (b) background
        Row(
            kind: "background", state: .foreground, callbacks: ["didReceiveRemoteNotification"], shown: false,
            after: .foreground),
        Row(
            kind: "background", state: .background, callbacks: ["didReceiveRemoteNotification"], shown: false,
            after: .suspended),
        Row(
            kind: "background", state: .suspended, callbacks: ["didReceiveRemoteNotification"], shown: false,
            after: .suspended),
        Row(
            kind: "background", state: .notRunning, callbacks: ["didFinishLaunching", "didReceiveRemoteNotification"],
            shown: false, after: .suspended),
        Row(kind: "background", state: .forceQuit, callbacks: [], shown: false, after: .forceQuit),
        // (c) alert + content-available
        Row(
            kind: "alert+background", state: .foreground, callbacks: ["willPresent", "didReceiveRemoteNotification"],
            shown: true, after: .foreground),
        Row(
            kind: "alert+background", state: .background, callbacks: ["didReceiveRemoteNotification"], shown: true,
            after: .suspended),
        Row(
            kind: "alert+background", state: .suspended, callbacks: ["didReceiveRemoteNotification"], shown: true,
            after: .suspended),
        Row(
            kind: "alert+background", state: .notRunning,
            callbacks: ["didFinishLaunching", "didReceiveRemoteNotification"],
            shown: true, after: .suspended),
        Row(kind: "alert+background", state: .forceQuit, callbacks: [], shown: true, after: .forceQuit),
    ]

    static func payload(_ kind: String) -> JSONValue {
        switch kind {
        case "alert": return Fixture.alertPayload
        case "background": return Fixture.backgroundPayload
        default: return Fixture.alertAndBackgroundPayload
        }
    }

    @Test(arguments: rows)
    func deliveryByAppState(row: Row) {
        let (d, _) = Fixture.ready(state: row.state)
        let payload = Self.payload(row.kind)
        let (disposition, events) = d.deliver(Fixture.push(payload))
        #expect(disposition == .accepted)
        #expect(Fixture.callbacks(events) == row.callbacks)
        #expect(!Fixture.presented(events).isEmpty == row.shown)
        #expect(Fixture.state(d) == row.after)
        // Every payload-carrying callback gets the payload as is: custom keys beside `aps`.
        for e in events {
            if case .callback(.didReceiveRemoteNotification(let u, _)) = e.kind { #expect(u == payload) }
            if case .callback(.willPresent(let u, _)) = e.kind { #expect(u == payload) }
            if case .callback(.didFinishLaunching(let n)) = e.kind { #expect(n == payload) }
        }
        if row.kind == "background" && row.state == .forceQuit {
            #expect(Fixture.drops(events) == [.appForceQuit])
        }
    }

    /// Row (d): a tap, per state. Not running and force-quit cold-launch with launchOptions then the response.
    @Test(arguments: [
        (AppState.foreground, ["didReceiveResponse"]),
        (AppState.background, ["didReceiveResponse"]),
        (AppState.suspended, ["didReceiveResponse"]),
        (AppState.notRunning, ["didFinishLaunching", "didReceiveResponse"]),
        (AppState.forceQuit, ["didFinishLaunching", "didReceiveResponse"]),
    ])
    func tapByAppState(state: AppState, expected: [String]) throws {
        let (d, _) = Fixture.ready(state: state)
        d.deliver(Fixture.push(Fixture.alertPayload))
        let id = try #require(d.snapshot.notificationCenter.first?.id)
        let events = try d.tap(id)
        #expect(Fixture.callbacks(events) == expected)
        #expect(Fixture.state(d) == .foreground)
        #expect(d.snapshot.notificationCenter.isEmpty)
        for e in events {
            if case .callback(.didFinishLaunching(let n)) = e.kind { #expect(n == Fixture.alertPayload) }
            if case .callback(.didReceiveResponse(let a, let u)) = e.kind {
                #expect(a == AppCallback.defaultActionID)
                #expect(u["test"] == .string("aaa"))
                #expect(u["gcm.message_id"] == .string("1600000000000001"))
            }
        }
    }

    /// §1.1 bullet: a custom (non-foreground) action runs the app in the background.
    @Test func backgroundActionRunsAppInBackground() throws {
        let cat = NotificationCategory(id: "MSG", actions: [NotificationAction(id: "reply", title: "Reply")])
        let (d, _) = Fixture.ready(Fixture.app(categories: [cat]), state: .notRunning)
        d.deliver(Fixture.push(Fixture.json(#"{"aps":{"alert":"hi","category":"MSG"}}"#)))
        let events = try d.chooseAction("reply", on: "n1")
        #expect(Fixture.callbacks(events) == ["didFinishLaunching", "didReceiveResponse"])
        #expect(Fixture.state(d) == .background)
        #expect(throws: InteractionError.self) { try d.chooseAction("reply", on: "n1") }
    }

    /// §1.1 bullet: the deprecated variant is foreground only and ignored when the fetch variant exists.
    @Test func legacyDidReceiveOnlyInForegroundAndOnlyWithoutFetchVariant() {
        let legacyOnly = DelegateBehaviour(
            willPresentOptions: nil, implementsFetchHandler: false, implementsLegacyDidReceive: true)
        let (d, _) = Fixture.ready(Fixture.app(delegate: legacyOnly), state: .foreground)
        #expect(
            Fixture.callbacks(d.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [
                "legacyDidReceiveRemoteNotification"
            ])
        let both = DelegateBehaviour(
            willPresentOptions: nil, implementsFetchHandler: true, implementsLegacyDidReceive: true)
        let (d2, _) = Fixture.ready(Fixture.app(delegate: both), state: .foreground)
        #expect(
            Fixture.callbacks(d2.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [
                "didReceiveRemoteNotification"
            ])
        let (d3, _) = Fixture.ready(Fixture.app(delegate: legacyOnly), state: .suspended)
        #expect(Fixture.callbacks(d3.deliver(Fixture.push(Fixture.backgroundPayload)).events) == [])
    }

    /// §1.3 (device.md, [A-PO] UNNotificationPresentationOptions): since iOS 14 `.banner` presents a
    /// banner only and `.list` only keeps the notification in Notification Center; the deprecated `.alert`
    /// ("Use List | Banner") is both; `.sound`/`.badge` alone show nothing; `[]` silences.
    @Test(
        arguments: [
            (PresentationOptions([.banner, .sound]), true, false, "default"),  // seed 001: banner, not listed
            (PresentationOptions([.banner]), true, false, nil),
            (PresentationOptions([.list]), false, true, nil),
            (PresentationOptions([.banner, .list]), true, true, nil),
            (PresentationOptions([.alert]), true, true, nil),
            (PresentationOptions([.alert, .sound]), true, true, "default"),
            (PresentationOptions([.list, .sound, .badge]), false, true, "default"),
            (PresentationOptions([.sound]), false, false, "default"),
            (PresentationOptions([.badge]), false, false, nil),
        ] as [(PresentationOptions, Bool, Bool, String?)])
    func willPresentOptionsDecidePresentation(options: PresentationOptions, banner: Bool, list: Bool, sound: String?) {
        let (d, _) = Fixture.ready(
            Fixture.app(delegate: DelegateBehaviour(willPresentOptions: options)), state: .foreground)
        let events = d.deliver(Fixture.push(Fixture.alertPayload)).events
        let p = Fixture.presented(events)
        if banner || list {
            #expect(p.map(\.banner) == [banner])
            #expect(p.map(\.list) == [list])
            #expect(p.map(\.sound) == [sound])
        } else {
            #expect(p.isEmpty)
        }
    }

    @Test func emptyOptionsAndMissingDelegateShowNothingInForeground() {
        let (d, _) = Fixture.ready(Fixture.app(delegate: DelegateBehaviour(willPresentOptions: [])), state: .foreground)
        let e = d.deliver(Fixture.push(Fixture.alertPayload)).events
        #expect(Fixture.presented(e).isEmpty)
        #expect(Fixture.drops(e) == [.presentationSilenced])
        let (d2, _) = Fixture.ready(
            Fixture.app(delegate: DelegateBehaviour(willPresentOptions: nil)), state: .foreground)
        let e2 = d2.deliver(Fixture.push(Fixture.alertPayload)).events
        #expect(Fixture.presented(e2).isEmpty)
        #expect(Fixture.drops(e2) == [.noWillPresentDelegate])
    }
}
