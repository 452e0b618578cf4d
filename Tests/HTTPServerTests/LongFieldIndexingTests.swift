import Testing

@testable import HTTPServer

/// Which long-valued response fields go into the HPACK table (`LongFieldIndexing`); the bytes on the wire are
/// checked by a third-party decoder in Tests/python/test_hpack_answers.py.
@Suite struct LongFieldIndexingTests {
    /// What `index` answers for each field in turn, on one connection.
    static func answers(_ fields: [(String, String)]) -> [Bool] {
        var rule = LongFieldIndexing()
        return fields.map { rule.index(name: $0.0, value: $0.1) }
    }

    @Test func aNameIsIndexedOnceThenOnlyWithItsFirstValueUntilItVaries() {
        let id = "7f0a2b7c-4c3d-4e2f-9a1b-0c6d5e4f3a2b"
        let json = "application/json; charset=UTF-8"
        let answers = Self.answers([
            ("content-type", json),  // the name enters the table
            ("content-type", json),  // the first value again: a reference to the whole entry
            ("apns-id", id),  // another name
            ("apns-id", "0b6d9e2f-1c3d-4e2f-9a1b-0c6d5e4f3a2b"),  // a new value: never indexed, the name by index
            ("apns-id", id),  // the first value, after another one: its values vary, so no longer compared
            ("content-type", json),
        ])
        #expect(answers == [true, true, true, false, false, true])
    }

    @Test func namesPastTheCapacityAreNeverIndexed() {
        let value = String(repeating: "v", count: 30)
        let names = (0..<LongFieldIndexing.capacity).map { "x-field-\($0)" }
        let answers = Self.answers(
            names.map { ($0, value) } + [("x-late", value), ("x-late", value), (names[0], value)])
        #expect(answers == Array(repeating: true, count: names.count) + [false, false, true])
    }
}
