import HTTPTypes
import Testing

@testable import HTTPServer

/// Which long-valued response fields go into the HPACK table (`LongFieldIndexing`); the bytes on the wire are
/// checked by a third-party decoder in Tests/python/test_hpack_answers.py.
@Suite struct LongFieldIndexingTests {
    /// What `index` answers for each field in turn, on one connection.
    static func answers(_ fields: [(String, String)]) -> [Bool] {
        var rule = LongFieldIndexing()
        return fields.map { rule.index(HTTPField(lowercased: $0.0, $0.1)) }
    }

    @Test func aNameIsIndexedOnceThenOnlyWithItsFirstValue() {
        let id = "7f0a2b7c-4c3d-4e2f-9a1b-0c6d5e4f3a2b"
        let json = "application/json; charset=UTF-8"
        let answers = Self.answers([
            ("apns-id", id),  // the name enters the table
            ("apns-id", "0b6d9e2f-1c3d-4e2f-9a1b-0c6d5e4f3a2b"),  // a new value: never indexed, the name by index
            ("apns-id", id),  // the first value again: a reference to the whole entry
            ("apns-unique-id", id),  // another name
            ("content-type", json),
            ("content-type", json),
        ])
        #expect(answers == [true, false, true, true, true, true])
    }

    @Test func namesPastTheCapacityAreNeverIndexed() {
        let value = String(repeating: "v", count: 30)
        let names = (0..<LongFieldIndexing.capacity).map { "x-field-\($0)" }
        let answers = Self.answers(
            names.map { ($0, value) } + [("x-late", value), ("x-late", value), (names[0], value)])
        #expect(answers == Array(repeating: true, count: names.count) + [false, false, true])
    }
}
