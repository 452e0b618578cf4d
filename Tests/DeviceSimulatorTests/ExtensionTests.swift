import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// device.md §2.1 (service extension) and §2.2 (content extension), and §2.3 replacement/badge.
@Suite struct ExtensionTests {
    static let nse = ServiceExtensionBehaviour(
        duration: 2, newTitle: "Decrypted title", userInfoAdditions: ["decrypted": true])

    struct ServiceRow: Sendable, CustomStringConvertible {
        var name: String
        var payload: String
        var settings: NotificationSettings = .authorized
        var state: AppState = .suspended
        var duration: TimeInterval = 2
        var runs: Bool
        var timesOut = false
        var shownTitle: String?
        var description: String { name }
    }

    static let serviceRows: [ServiceRow] = [
        ServiceRow(
            name: "mutable-content + alert",
            payload: #"{"aps":{"alert":{"title":"Orig","body":"b"},"mutable-content":1}}"#,
            runs: true, shownTitle: "Decrypted title"),
        ServiceRow(
            name: "no mutable-content", payload: #"{"aps":{"alert":{"title":"Orig","body":"b"}}}"#, runs: false,
            shownTitle: "Orig"),
        ServiceRow(
            name: "mutable-content without alert (sound only)",
            payload: #"{"aps":{"sound":"default","mutable-content":1}}"#,
            runs: false),
        ServiceRow(name: "silent push", payload: #"{"aps":{"content-available":1,"mutable-content":1}}"#, runs: false),
        ServiceRow(
            name: "alerts disabled", payload: #"{"aps":{"alert":{"title":"Orig"},"mutable-content":1}}"#,
            settings: .denied, runs: false),
        ServiceRow(
            name: "over budget shows original",
            payload: #"{"aps":{"alert":{"title":"Orig","body":"b"},"mutable-content":1}}"#,
            duration: 31, runs: false, timesOut: true, shownTitle: "Orig"),
        ServiceRow(
            name: "app force-quit: extension still runs",
            payload: #"{"aps":{"alert":{"title":"Orig","body":"b"},"mutable-content":1}}"#, state: .forceQuit,
            runs: true,
            shownTitle: "Decrypted title"),
    ]

    @Test(arguments: serviceRows)
    func serviceExtension(row: ServiceRow) {
        var nse = Self.nse
        nse.duration = row.duration
        let (d, _) = Fixture.ready(Fixture.app(serviceExtension: nse), state: row.state, settings: row.settings)
        let e = d.deliver(Fixture.push(Fixture.json(row.payload))).events
        #expect(e.contains { if case .serviceExtensionRan = $0.kind { return true } else { return false } } == row.runs)
        #expect(
            e.contains { if case .serviceExtensionTimedOut = $0.kind { return true } else { return false } }
                == row.timesOut)
        #expect(d.snapshot.notificationCenter.first?.content.title == row.shownTitle)
        if row.runs { #expect(d.snapshot.notificationCenter.first?.content.userInfo["decrypted"] == .bool(true)) }
    }

    static let kanmoba = ContentExtensionDeclaration(
        name: "KanmobaContent", categories: ["Kanmoba"],
        actions: [
            "open": ContentExtensionActionHandling(openURLFromKey: "url", response: .dismiss),
            "keep": ContentExtensionActionHandling(response: .doNotDismiss),
        ])
    static let category = NotificationCategory(
        id: "Kanmoba",
        actions: [
            NotificationAction(id: "open", title: "Open"), NotificationAction(id: "keep", title: "Keep"),
            NotificationAction(id: "later", title: "Later"),
        ])
    /// Seed 004's payload.
    static let payload004 = Fixture.json(
        """
        {"aps":{"alert":{"title":"関モバ","subtitle":"sub","body":"NotificationContent Extensionを使ってみた"},
        "category":"Kanmoba","mutable-content":1},"imgurl":"https://example.com/i.png","url":"https://kanmoba.connpass.com/event/1/"}
        """)

    @Test func contentExtensionChosenByExactCategory() throws {
        let (d, _) = Fixture.ready(
            Fixture.app(categories: [Self.category], contentExtensions: [Self.kanmoba]), state: .suspended)
        d.deliver(Fixture.push(Self.payload004))
        let e = try d.perform { (s, now) throws(InteractionError) in try s.expand("n1", now: now) }.events
        #expect(e.map(\.kind) == [.contentExtensionShown(extensionName: "KanmobaContent", category: "Kanmoba")])
        let lower = Fixture.json(#"{"aps":{"alert":"x","category":"kanmoba"}}"#)
        d.deliver(Fixture.push(lower, id: "p2"))
        let e2 = try d.perform { (s, now) throws(InteractionError) in try s.expand("n2", now: now) }.events
        #expect(e2.isEmpty)
        #expect(d.snapshot.actions(forNotification: "n2").isEmpty)
    }

    @Test func serviceExtensionRunsFirstAndCanChangeCategory() throws {
        let nse = ServiceExtensionBehaviour(newCategoryID: "Kanmoba")
        let app = Fixture.app(categories: [Self.category], serviceExtension: nse, contentExtensions: [Self.kanmoba])
        let (d, _) = Fixture.ready(app, state: .suspended)
        let e = d.deliver(
            Fixture.push(
                Fixture.json(
                    #"{"aps":{"alert":"x","category":"Other","mutable-content":1},"url":"https://a.example/"}"#))
        ).events
        #expect(e.contains { $0.kind == .serviceExtensionRan(modified: true, duration: 1) })
        let shown = try d.perform { (s, now) throws(InteractionError) in try s.expand("n1", now: now) }.events
        #expect(shown.map(\.kind) == [.contentExtensionShown(extensionName: "KanmobaContent", category: "Kanmoba")])
    }

    @Test func extensionOpensURLAndDismissesWithoutTheApp() throws {
        let (d, _) = Fixture.ready(
            Fixture.app(categories: [Self.category], contentExtensions: [Self.kanmoba]), state: .notRunning)
        d.deliver(Fixture.push(Self.payload004))
        let e = try d.chooseAction("open", on: "n1")
        #expect(
            e.contains {
                $0.kind
                    == .urlOpened(url: "https://kanmoba.connpass.com/event/1/", by: "content extension KanmobaContent")
            })
        #expect(
            e.contains {
                $0.kind
                    == .contentExtensionHandledAction(
                        extensionName: "KanmobaContent", actionID: "open", response: .dismiss)
            })
        #expect(Fixture.callbacks(e).isEmpty)
        #expect(d.snapshot.notificationCenter.isEmpty)
        #expect(Fixture.state(d) == .notRunning)
    }

    @Test func doNotDismissKeepsTheNotification() throws {
        let (d, _) = Fixture.ready(
            Fixture.app(categories: [Self.category], contentExtensions: [Self.kanmoba]), state: .suspended)
        d.deliver(Fixture.push(Self.payload004))
        let e = try d.chooseAction("keep", on: "n1")
        #expect(Fixture.callbacks(e).isEmpty)
        #expect(d.snapshot.notificationCenter.map(\.id) == ["n1"])
    }

    @Test func unhandledActionIsForwardedToTheApp() throws {
        let (d, _) = Fixture.ready(
            Fixture.app(categories: [Self.category], contentExtensions: [Self.kanmoba]), state: .suspended)
        d.deliver(Fixture.push(Self.payload004))
        let e = try d.chooseAction("later", on: "n1")
        #expect(
            e.contains {
                $0.kind
                    == .contentExtensionHandledAction(
                        extensionName: "KanmobaContent", actionID: "later", response: .dismissAndForwardAction)
            })
        #expect(Fixture.callbacks(e) == ["didReceiveResponse"])
        #expect(d.snapshot.notificationCenter.isEmpty)
    }

    @Test func extensionWithoutDidReceiveResponseLeavesActionsToTheApp() throws {
        var ext = Self.kanmoba
        ext.implementsDidReceiveResponse = false
        let (d, _) = Fixture.ready(
            Fixture.app(categories: [Self.category], contentExtensions: [ext]), state: .suspended)
        d.deliver(Fixture.push(Self.payload004))
        let e = try d.chooseAction("open", on: "n1")
        #expect(!e.contains { if case .urlOpened = $0.kind { return true } else { return false } })
        #expect(Fixture.callbacks(e) == ["didReceiveResponse"])
    }

    @Test func collapseIDReplacesAndBadgeUpdates() throws {
        let (d, _) = Fixture.ready(state: .suspended)
        d.deliver(Fixture.push(Fixture.json(#"{"aps":{"alert":"score 1-0","badge":3}}"#), id: "a", collapseID: "match"))
        let e = d.deliver(
            Fixture.push(Fixture.json(#"{"aps":{"alert":"score 2-0","badge":0}}"#), id: "b", collapseID: "match")
        ).events
        #expect(e.contains { $0.kind == .notificationReplaced(id: "n1", collapseID: "match") })
        #expect(d.snapshot.notificationCenter.map(\.content.body) == ["score 2-0"])
        #expect(d.snapshot.apps[Fixture.bundleID]?.badge == nil)
        d.deliver(Fixture.push(Fixture.json(#"{"aps":{"alert":"other","badge":5,"thread-id":"t"}}"#), id: "c"))
        #expect(d.snapshot.notificationCenter.map(\.id) == ["n1", "n2"])
        #expect(d.snapshot.notificationCenter.last?.content.threadID == "t")
        #expect(d.snapshot.apps[Fixture.bundleID]?.badge == 5)
        try d.dismiss("n2")
        #expect(d.snapshot.notificationCenter.map(\.id) == ["n1"])
        #expect(throws: InteractionError.noSuchNotification(id: "n2")) { try d.tap("n2") }
    }
}
