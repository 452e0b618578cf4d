import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Tests/reference/live-activities.md §3–§6: what ActivityKit does with one Live Activity push, as a table of
/// payloads and their outcome on a fresh active activity.
@Suite struct LiveActivityEngineTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_272_000)
    static let ride = LiveActivityDeclaration(
        attributesType: "RideAttributes",
        contentState: [
            ActivityField("eta", .init(.int)), ActivityField("driver", .init(.string)),
            ActivityField("note", .init(.string, optional: true)),
        ],
        attributesFields: [ActivityField("ride_id", .init(.string))])

    static func activity() -> LiveActivity {
        LiveActivity(
            id: "a1", bundleID: "com.example.rides", attributesType: "RideAttributes",
            attributes: .object(["ride_id": "R1"]), contentState: .object(["eta": 7, "driver": "Ann"]),
            origin: .app, startedAt: t0, lastTimestamp: 1_780_272_000)
    }

    static func aps(_ text: String) -> JSONValue { try! JSONValue.parse(text) }

    /// (aps, expected drop reason or nil = applied, the §).
    static let table: [(String, DropReason?, String)] = [
        (#"{"event":"update","timestamp":1780272060,"content-state":{"eta":3,"driver":"Ann"}}"#, nil, "§4.1"),
        (#"{"event":"update","timestamp":1780272000,"content-state":{"eta":3,"driver":"Ann"}}"#, nil, "§4.2 equal"),
        (
            #"{"event":"update","timestamp":1780271999,"content-state":{"eta":3,"driver":"Ann"}}"#,
            .activityTimestampOutdated, "§4.2"
        ),
        (#"{"event":"update","content-state":{"eta":3,"driver":"Ann"}}"#, .activityTimestampMissing, "§4.1"),
        (
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":"3","driver":"Ann"}}"#,
            .activityContentStateInvalid, "§4.3 mistyped"
        ),
        (
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":3.5,"driver":"Ann"}}"#,
            .activityContentStateInvalid, "§4.3 Int from a fraction"
        ),
        (
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":3}}"#,
            .activityContentStateInvalid, "§4.3 missing"
        ),
        (
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":3,"driver":null}}"#,
            .activityContentStateInvalid, "§4.3 null"
        ),
        (
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":3,"driver":"A","extra":1}}"#, nil,
            "§4.3 unknown keys ignored"
        ),
        (
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":3,"driver":"A","note":null}}"#, nil,
            "§4.3 optional"
        ),
        (#"{"event":"update","timestamp":1780272060}"#, .activityContentStateInvalid, "§4.3 update without state"),
        (#"{"event":"end","timestamp":1780272060}"#, nil, "§4.3 end keeps the content"),
        (
            #"{"event":"start","timestamp":1780272060,"content-state":{"eta":3,"driver":"A"}}"#,
            .activityEventInvalid, "§2.2 start is for push-to-start tokens"
        ),
        (#"{"timestamp":1780272060,"content-state":{"eta":3,"driver":"A"}}"#, .activityEventInvalid, "§4.1"),
    ]

    @Test(arguments: table.indices) func onePush(_ i: Int) {
        let (text, expected, section) = Self.table[i]
        let r = LiveActivityEngine.apply(
            Self.aps(text), priority: .conserve, to: Self.activity(), declaration: Self.ride, now: Self.t0)
        switch r {
        case .success: #expect(expected == nil, "\(section): applied, expected \(String(describing: expected))")
        case .failure(let d): #expect(d.reason == expected, "\(section): \(d.detail)")
        }
    }

    @Test func mistypedFieldSaysWhichAndWhy() throws {
        let r = LiveActivityEngine.apply(
            Self.aps(#"{"event":"update","timestamp":1780272060,"content-state":{"eta":"soon","driver":"A"}}"#),
            priority: .immediate, to: Self.activity(), declaration: Self.ride, now: Self.t0)
        guard case .failure(let d) = r else { Issue.record("applied"); return }
        #expect(d.detail == #"content-state.eta: expected int, got string "soon""#)
    }

    /// A null required field is named null, not missing (JSONDecoder's valueNotFound; it said "missing").
    @Test func aNullFieldIsCalledNull() throws {
        let r = LiveActivityEngine.apply(
            Self.aps(#"{"event":"update","timestamp":1780272060,"content-state":{"eta":5,"driver":null}}"#),
            priority: .immediate, to: Self.activity(), declaration: Self.ride, now: Self.t0)
        guard case .failure(let d) = r else { Issue.record("applied"); return }
        #expect(d.detail == "content-state.driver is null (string required)")
    }

    /// §3.4: the default dismissal is four hours after the end; a dismissal-date is kept within that window.
    @Test func endAndDismissal() throws {
        let end = #"{"event":"end","timestamp":1780272060}"#
        guard
            case .success((let a, .ended)) = LiveActivityEngine.apply(
                Self.aps(end), priority: .immediate, to: Self.activity(), declaration: Self.ride, now: Self.t0)
        else { Issue.record("not ended"); return }
        #expect(a.state(at: Self.t0) == .ended)
        #expect(a.state(at: Self.t0.addingTimeInterval(4 * 3600 - 1)) == .ended)
        #expect(a.state(at: Self.t0.addingTimeInterval(4 * 3600)) == .dismissed)
        let far = #"{"event":"end","timestamp":1780272060,"dismissal-date":1790000000}"#
        guard
            case .success((let b, _)) = LiveActivityEngine.apply(
                Self.aps(far), priority: .immediate, to: Self.activity(), declaration: Self.ride, now: Self.t0)
        else { Issue.record("not ended"); return }
        #expect(b.dismissalDate == Self.t0.addingTimeInterval(4 * 3600))
        let past = #"{"event":"end","timestamp":1780272060,"dismissal-date":1780000000}"#
        guard
            case .success((let c, _)) = LiveActivityEngine.apply(
                Self.aps(past), priority: .immediate, to: Self.activity(), declaration: Self.ride, now: Self.t0)
        else { Issue.record("not ended"); return }
        #expect(c.state(at: Self.t0) == .dismissed)
        // §3.5: an ended activity takes no update.
        let again = LiveActivityEngine.apply(
            Self.aps(#"{"event":"update","timestamp":1780272070,"content-state":{"eta":1,"driver":"A"}}"#),
            priority: .immediate, to: a, declaration: Self.ride, now: Self.t0)
        #expect((try? again.get()) == nil)
    }

    /// §3.3: eight hours active, then ended by the system; off the Lock Screen at twelve.
    @Test func systemLimits() {
        let a = Self.activity()
        #expect(a.state(at: Self.t0.addingTimeInterval(8 * 3600 - 1)) == .active)
        #expect(a.state(at: Self.t0.addingTimeInterval(8 * 3600)) == .ended)
        #expect(a.state(at: Self.t0.addingTimeInterval(12 * 3600)) == .dismissed)
    }

    /// §4.4: stale-date and relevance-score come with each update and replace the previous ones.
    @Test func staleDateAndRelevance() throws {
        let p =
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":3,"driver":"A"},"stale-date":1780272600,"relevance-score":75}"#
        let (a, _) = try LiveActivityEngine.apply(
            Self.aps(p), priority: .conserve, to: Self.activity(), declaration: Self.ride, now: Self.t0
        ).get()
        #expect(a.relevanceScore == 75)
        #expect(a.state(at: Self.t0.addingTimeInterval(599)) == .active)
        #expect(a.state(at: Self.t0.addingTimeInterval(600)) == .stale)
        let next = #"{"event":"update","timestamp":1780272070,"content-state":{"eta":2,"driver":"A"}}"#
        let (b, _) = try LiveActivityEngine.apply(
            Self.aps(next), priority: .conserve, to: a, declaration: Self.ride, now: Self.t0.addingTimeInterval(700)
        ).get()
        #expect(b.staleDate == nil && b.relevanceScore == 0)
        #expect(b.state(at: Self.t0.addingTimeInterval(700)) == .active)
    }

    /// §4.5: an alert on an update marks it alerted; the next update without one does not.
    @Test func alertLightsTheScreen() throws {
        let p =
            #"{"event":"update","timestamp":1780272060,"content-state":{"eta":0,"driver":"A"},"alert":{"title":"Here"}}"#
        let (a, _) = try LiveActivityEngine.apply(
            Self.aps(p), priority: .immediate, to: Self.activity(), declaration: Self.ride, now: Self.t0
        ).get()
        #expect(a.alerted && a.alertCount == 1)
        let q = #"{"event":"update","timestamp":1780272061,"content-state":{"eta":0,"driver":"A"}}"#
        let (b, _) = try LiveActivityEngine.apply(
            Self.aps(q), priority: .immediate, to: a, declaration: Self.ride, now: Self.t0
        ).get()
        #expect(!b.alerted && b.alertCount == 1)
    }

    /// §6.2: 10 priority-10 updates an hour (60 with frequent updates); priority 5 is not counted.
    @Test(arguments: [false, true]) func priority10Budget(_ frequent: Bool) throws {
        var declaration = Self.ride
        declaration.frequentUpdates = frequent
        let budget = LiveActivityRules.priority10Budget(frequentUpdates: frequent)
        var a = Self.activity()
        func push(_ n: Int, _ p: APNsPriority, at t: TimeInterval) -> Result<
            (LiveActivity, ActivityChange), ActivityDrop
        > {
            LiveActivityEngine.apply(
                Self.aps(
                    #"{"event":"update","timestamp":\#(1_780_272_000 + n),"content-state":{"eta":\#(n),"driver":"A"}}"#),
                priority: p, to: a, declaration: declaration, now: Self.t0.addingTimeInterval(t))
        }
        for n in 1...budget { a = try push(n, .immediate, at: Double(n)).get().0 }
        guard case .failure(let d) = push(budget + 1, .immediate, at: Double(budget + 1)) else {
            Issue.record("over budget applied")
            return
        }
        #expect(d.reason == .activityBudgetExhausted)
        a = try push(budget + 2, .conserve, at: Double(budget + 2)).get().0
        // An hour after the first, its slot is free again.
        a = try push(budget + 3, .immediate, at: 3601).get().0
        #expect(a.updates == budget + 2)
    }

    /// §2.2: push-to-start checks the event, the attributes type and both structs.
    @Test func pushToStart() throws {
        let ok =
            #"{"event":"start","timestamp":1780272000,"attributes-type":"RideAttributes","attributes":{"ride_id":"R1"},"content-state":{"eta":7,"driver":"Ann"},"alert":{"title":"On its way"}}"#
        let a = try LiveActivityEngine.start(
            Self.aps(ok), declaration: Self.ride, id: "a1", bundleID: "com.example.rides", now: Self.t0
        ).get()
        #expect(a.origin == .pushToStart && a.alerted && a.state(at: Self.t0) == .active)
        let cases: [(String, DropReason)] = [
            (
                #"{"event":"update","timestamp":1,"attributes-type":"RideAttributes","attributes":{"ride_id":"R1"},"content-state":{"eta":7,"driver":"A"}}"#,
                .activityEventInvalid
            ),
            (
                #"{"event":"start","timestamp":1,"attributes-type":"OtherAttributes","attributes":{"ride_id":"R1"},"content-state":{"eta":7,"driver":"A"}}"#,
                .activityAttributesInvalid
            ),
            (
                #"{"event":"start","timestamp":1,"attributes-type":"RideAttributes","attributes":{},"content-state":{"eta":7,"driver":"A"}}"#,
                .activityAttributesInvalid
            ),
            (
                #"{"event":"start","timestamp":1,"attributes-type":"RideAttributes","attributes":{"ride_id":"R1"},"content-state":{"eta":"7","driver":"A"}}"#,
                .activityContentStateInvalid
            ),
            (
                #"{"event":"start","attributes-type":"RideAttributes","attributes":{"ride_id":"R1"},"content-state":{"eta":7,"driver":"A"}}"#,
                .activityTimestampMissing
            ),
        ]
        for (text, reason) in cases {
            let r = LiveActivityEngine.start(
                Self.aps(text), declaration: Self.ride, id: "a1", bundleID: "com.example.rides", now: Self.t0)
            guard case .failure(let d) = r else { Issue.record("started: \(text)"); continue }
            #expect(d.reason == reason, "\(d.detail)")
        }
    }
}
