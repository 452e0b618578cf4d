import Testing

@testable import PushModel

@testable import ScenarioChecks

@Suite struct JSONDiffTests {
    func lines(_ e: JSONValue, _ a: JSONValue, root: String = "user_info", mode: JSONDiff.Mode = .exact) -> [String] {
        JSONDiff.diff(e, a, root: root, mode: mode).map(JSONDiff.line)
    }

    @Test func equalValuesHaveNoDiff() {
        let v: JSONValue = ["a": [1, ["b": nil]], "c": "x"]
        #expect(JSONDiff.diff(v, v).isEmpty)
    }

    @Test func renamedKeyIsARemovedLineFollowedByItsNewName() {
        let before: JSONValue = ["order_id": "A1001", "aps": ["alert": "Hi"]]
        let after: JSONValue = ["orderId": "A1001", "aps": ["alert": "Hi"]]
        #expect(
            lines(before, after) == [
                #"- user_info.order_id: "A1001""#,
                #"+ user_info.orderId: "A1001"    (renamed from user_info.order_id?)"#,
            ])
    }

    @Test func changedTypeIsNamed() {
        #expect(
            lines(["count": "3"], ["count": 3])
                == [#"~ user_info.count: "3" → 3    (type changed: string → number)"#])
        #expect(
            lines(["x": ["a": 1]], ["x": [1]])
                == [#"~ user_info.x: {"a":1} → [1]    (type changed: object → array)"#])
        #expect(lines(["x": 1], ["x": nil]) == [#"~ user_info.x: 1 → null    (type changed: number → null)"#])
    }

    @Test func changedValueOfTheSameType() {
        #expect(
            lines(["title": "Order shipped"], ["title": "Order sent"]) == [
                #"~ user_info.title: "Order shipped" → "Order sent""#
            ])
    }

    @Test func removedAndExtraKeys() {
        let e: JSONValue = ["a": 1, "b": 2]
        let a: JSONValue = ["a": 1, "c": 3]
        #expect(lines(e, a) == ["- user_info.b: 2", "+ user_info.c: 3"])
    }

    @Test func nestedPathsAndQuotedKeys() {
        let e: JSONValue = ["aps": ["alert": ["title": "A"]], "gcm.message_id": "1"]
        let a: JSONValue = ["aps": ["alert": ["title": "B"]], "gcm.message_id": "2"]
        #expect(
            lines(e, a, root: "") == [
                #"~ aps.alert.title: "A" → "B""#,
                #"~ ["gcm.message_id"]: "1" → "2""#,
            ])
    }

    @Test func nestedArraysAlignInsertedAndRemovedElements() {
        // One element inserted at the front: one + line, not a change at every index.
        #expect(lines(["s": ["a", "b"]], ["s": ["z", "a", "b"]]) == [#"+ user_info.s[0]: "z""#])
        #expect(lines(["s": ["a", "b", "c"]], ["s": ["a", "c"]]) == [#"- user_info.s[1]: "b""#])
        // A changed key inside an element of a nested array is reported at its full path.
        let e: JSONValue = ["items": [["id": 1, "tags": ["x"]], ["id": 2, "tags": ["y"]]]]
        let a: JSONValue = ["items": [["id": 1, "tags": ["x"]], ["id": 2, "tags": ["y", "w"]]]]
        #expect(lines(e, a) == [#"+ user_info.items[1].tags[1]: "w""#])
        let renamedInside: JSONValue = ["items": [["id": 1, "tags": ["x"]], ["ident": 2, "tags": ["y"]]]]
        #expect(
            lines(e, renamedInside) == [
                "- user_info.items[1].id: 2", "+ user_info.items[1].ident: 2    (renamed from user_info.items[1].id?)",
            ])
    }

    @Test func subsetModeIgnoresExtraKeysButNotMissingOnes() {
        let e: JSONValue = ["order_id": "A1001", "nested": ["k": 1]]
        let a: JSONValue = ["order_id": "A1001", "extra": true, "nested": ["k": 1, "more": 2]]
        #expect(JSONDiff.diff(e, a, mode: .subset).isEmpty)
        #expect(
            lines(e, ["orderId": "A1001", "nested": ["k": 2]], mode: .subset) == [
                "~ user_info.nested.k: 1 → 2", #"- user_info.order_id: "A1001""#,
            ])
    }

    @Test func rootDifference() {
        #expect(lines("a", 1, root: "") == [#"~ (root): "a" → 1    (type changed: string → number)"#])
    }
}
