import Foundation
import PushcheckTestSupport
import Testing
@testable import YAMLSource

/// libyaml's problem/context marks (0-based) become 1-based SourceErrors.
@Suite struct SyntaxErrorTests {
    @Test func badIndentation() {
        let error = expectError { try load("apns:\n  team_id: T\n key_id: K\n", file: "Suites/ind.yaml") }
        #expect(error?.kind == .syntax)
        #expect(
            error?.rendered() == """
                error: syntax error: did not find expected key
                  --> Suites/ind.yaml:3:2
                   |
                 3 |  key_id: K
                   |  ^ while parsing a block mapping (started at 1:1)
                   |
                   = help: check this line's indentation against the keys above it
                """)
    }

    @Test func unclosedQuotePointsWhereTheQuoteOpens() {
        let error = expectError { try load("name: x\nalert: \"hello\nbody: y\n") }
        #expect(error?.kind == .syntax)
        #expect(
            error?.rendered() == """
                error: syntax error: found unexpected end of stream
                  --> t.yaml:2:8
                   |
                 2 | alert: "hello
                   |        ^ while scanning a quoted scalar
                   |
                   = help: close what starts here before the end of the file
                """)
    }

    @Test func tabIndentation() {
        let error = expectError { try load("steps:\n\t- send: x\n") }
        #expect(error?.kind == .syntax)
        #expect(
            error?.rendered() == """
                error: syntax error: found character that cannot start any token
                  --> t.yaml:2:1
                   |
                 2 | \t- send: x
                   | ^ while scanning for the next token
                   |
                   = help: indent with spaces: YAML does not allow tabs for indentation
                """)
    }

    @Test func unclosedFlowSequence() {
        let error = expectError { try load("a: [1, 2\nb: 3\n") }
        #expect(error?.line == 2)
        #expect(error?.column == 2)
        #expect(error?.expected == "while parsing a flow sequence (started at 1:4)")
        #expect(error?.suggestion == "add the missing ',' or close the '[' opened at 1:4")
    }

    /// `{ title: ${later} }`: the reference ends the plain value; the help said "add the missing ','".
    @Test func anUnquotedReferenceInAFlowMappingIsToldToBeQuoted() {
        let error = expectError { try load("aps: { alert: { title: ${later} } }\n") }
        #expect(error?.line == 1 && error?.column == 24, "\(String(describing: error))")
        #expect(error?.suggestion?.hasPrefix("quote a value that holds '${…}' inside '{ }' or '[ ]'") == true)
        // A quoted one, or a missing comma elsewhere, keeps the comma help.
        #expect(
            expectError { try load("a: { b: \"${x}\" c: 1 }\n") }?.suggestion?.hasPrefix("add the missing ','") == true)
    }

    /// A JSON suite with a `//` comment: libyaml stops on the next line; the error is at the comment.
    @Test func aCommentInAJSONFileIsPointedAt() {
        let json = "{\n  \"name\": \"x\",\n  // why\n  \"scenarios\": []\n}\n"
        let error = expectError { try YAMLLoader.load(string: json, file: "s.json") }
        #expect(error?.line == 3 && error?.column == 3, "\(String(describing: error))")
        #expect(error?.suggestion?.hasPrefix("JSON has no comments") == true)
        // The same text named .yaml is no JSON: no such help.
        #expect(
            expectError { try YAMLLoader.load(string: json, file: "s.yaml") }?.suggestion?.hasPrefix("JSON") != true)
    }

    @Test func syntaxErrorAfterJapaneseCountsCharacters() {
        let error = expectError { try load("名前: 通知\n説明: \"閉じていない\n") }
        #expect(error?.line == 2)
        #expect(error?.column == 5)
        #expect(error?.rendered().contains("\n   |       ^ while scanning a quoted scalar\n") == true)
    }

    @Test func invalidUTF8IsReportedWithItsPosition() throws {
        let dir = try TempDirectory("yamlsource")
        defer { dir.remove() }
        let path = try dir.write(
            "bad.yaml", [0x61, 0x3A, 0x20, 0x31, 0x0A, 0x62, 0x3A, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A])
        let error = expectError { try YAMLLoader.load(path: path) }
        #expect(error?.kind == .syntax)
        #expect(error?.message == "syntax error: incomplete UTF-8 octet sequence")
        #expect(error?.line == 2)
        #expect(error?.column == 7)
    }

    @Test func mappingValueInPlainScalar() {
        let error = expectError { try load("alert: title: x\n") }
        #expect(error?.message == "syntax error: mapping values are not allowed in this context")
        #expect(error?.line == 1)
        #expect(error?.column == 13)
    }
}
