@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing

@testable import ScenarioChecks
@testable import SuiteFormat

/// Which part of an observation each check reads: the state (the app now), the window (since the previous
/// `expect`), the last send or run; and what a failure says it read.
@Suite struct StateAndWindowCheckTests {
    static let order = #"{"aps":{"alert":{"title":"Order shipped"}},"order_id":"A1001"}"#

    /// Issue 23's example: a `run:` step's backend pushed to the app (not running: iOS shows the notification,
    /// no app code runs), the step's `expect: { exit: 0 }` closed the window, then a standalone block.
    @Test func aLaterBlockSeesTheNotificationAndItsUserInfo() throws {
        let device = Fixture.device(try Fixture.app())
        device.deliver(try Fixture.push(Self.order, id: "p1"))
        let send = Fixture.send(apnsID: "p1")
        let later = Fixture.observe(device, since: device.snapshot.events.count, lastSend: send)
        #expect(later.window.isEmpty)
        let (verdict, transcript) = try Fixture.evaluate(
            "{ delivered: true, user_info: { order_id: A1001 }, notification: { title: Order shipped, id: n1 } }", later
        )
        #expect(verdict.failures.isEmpty, "\(verdict.failures)")
        #expect(transcript.allSatisfy { $0.hasSuffix(": ok") })
        // Events stay in their window: nothing was presented or called since.
        #expect(later.value(.notification(.presented)) == .bool(false))
        #expect(later.value(.callbacks) == .array([]))
        // The same block on the window that saw the push says the same.
        let first = Fixture.observe(device, lastSend: send)
        #expect(first.value(.userInfo("order_id")) == later.value(.userInfo("order_id")))
        #expect(first.value(.notification(.title)) == later.value(.notification(.title)))
        #expect(first.value(.notification(.presented)) == .bool(true))
    }

    @Test func theUserInfoIsTheLatestPushesAndACallbackWinsWithinAPush() throws {
        let device = Fixture.device(try Fixture.app())
        device.launch(Fixture.bundleID)
        device.deliver(try Fixture.push(#"{"aps":{"alert":"one"},"n":1}"#, id: "p1"))  // willPresent, then shown
        device.moveToBackground(Fixture.bundleID)
        device.deliver(try Fixture.push(#"{"aps":{"alert":"two"},"n":2}"#, id: "p2"))  // shown only
        let o = Fixture.observe(device, since: device.snapshot.events.count)
        #expect(o.value(.userInfo("n")) == .number(2))
        #expect(o.userInfoDescription.hasPrefix("the userInfo of notification n2, presented at #"))
        #expect(o.value(.notification(.body)) == .string("two"))

        // With `request:` the window is one push's own events, and the state checks read that push.
        let events = device.snapshot.events
        let start = try #require(events.firstIndex { if case .pushReceived("p1", _) = $0.kind { true } else { false } })
        let end = try #require(events.firstIndex { if case .pushReceived("p2", _) = $0.kind { true } else { false } })
        let picked = Observation(
            snapshot: device.snapshot, bundleID: Fixture.bundleID, window: Array(events[start..<end]),
            pickedPush: true)
        #expect(picked.value(.userInfo("n")) == .number(1))
        #expect(picked.userInfoDescription.hasPrefix("the userInfo of callback willPresent at #"))
        #expect(picked.value(.notification(.body)) == .string("one"))
    }

    /// `notification: { actions }` in a block after the push's (after `expand`, or any later one): the buttons
    /// of the app's latest notification.
    @Test func actionsAreTheLatestNotificationsInALaterBlock() throws {
        // com.example.fidelity: category Kanmoba with the actions open (Open) and later (Later).
        let app = try Fixture.app("ios-fidelity.yaml")
        let device = Fixture.device(app)
        device.deliver(
            IncomingPush(
                bundleID: app.bundleID, payload: try JSONValue.parse(#"{"aps":{"alert":"x","category":"Kanmoba"}}"#),
                apnsID: "p1"))
        let since = device.snapshot.events.count
        try device.perform { (s: inout DeviceState, now: Date) throws(InteractionError) in try s.expand("n1", now: now)
        }
        let o = Fixture.observe(device, since: since, app: app.bundleID)
        #expect(o.value(.notification(.actions)) == .array(["open", "later"]))
        #expect(o.value(.notification(.actionTitles)) == .array(["Open", "Later"]))
        #expect(o.value(.notification(.category)) == .string("Kanmoba"))
    }

    @Test func aFailureSaysWhichStateOrWindowItRead() throws {
        let device = Fixture.device(try Fixture.app())
        let empty = Fixture.observe(device, since: device.snapshot.events.count)
        let none = try Fixture.evaluate(
            "{ notification: { title: X }, user_info: { a: b }, callbacks: [willPresent] }", empty)
        #expect(
            none.verdict.failures.map(\.actual) == [
                "absent [read: the current state: no notification of com.example.pushdemo was presented]",
                "absent [read: the current state: no callback or notification of com.example.pushdemo carried a userInfo]",
                "[] [read: the events since the previous expect: none]",
            ])

        let since = device.snapshot.events.count
        device.deliver(try Fixture.push(Self.order, id: "p1"))
        let o = Fixture.observe(device, since: since, lastSend: Fixture.send(apnsID: "p1"))
        let first = try #require(o.window.first?.sequence)
        let last = try #require(o.window.last?.sequence)
        let failed = try Fixture.evaluate(
            "{ notification: { title: X, count: 2 }, callbacks: [willPresent], status: 400, at_least: { user_info: { a: b } } }",
            o)
        let actual = failed.verdict.failures.map(\.actual)
        #expect(actual[0] == "\"Order shipped\" [read: the current state: notification n1, presented at #\(last)]")
        #expect(actual[1] == "1 [read: the current state: Notification Center]")
        #expect(actual[2] == "[] [read: the events since the previous expect: #\(first)–#\(last)]")
        // The last send is one: nothing to say.
        #expect(actual[3] == "200")
        #expect(
            actual[4].hasSuffix(
                "\n    [read: the current state: the userInfo of notification n1, presented at #\(last)]"))
    }
}
