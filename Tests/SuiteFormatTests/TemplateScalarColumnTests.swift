import Foundation
@testable import SuiteFormat
import Testing
@testable import YAMLSource

/// Template columns count Unicode scalars, also after multi-byte characters and `$${` escapes (the parser walks
/// UTF-8 bytes).
@Suite struct TemplateScalarColumnTests {
    static let range = SourceRange(file: "s.yaml", start: .init(line: 3, column: 10), end: .init(line: 3, column: 60))

    @Test func columnsAfterMultiByteCharacters() throws {
        let t = try Template("é${a}ü$${x}${ b }名前${c}", range: Self.range)
        #expect(t.references.map(\.name) == ["a", "b", "c"])
        #expect(t.references.map(\.range.column) == [11, 21, 29])
        #expect(t.description == "é${a}ü${x}${b}名前${c}")
        #expect(try t.render { "<\($0)>" } == "é<a>ü${x}<b>名前<c>")
    }

    @Test func unclosedAfterMultiByteCharacters() {
        #expect {
            _ = try Template("名前 ${x", range: Self.range)
        } throws: { error in
            (error as? SourceError)?.range.column == 13
        }
    }

    /// A YAML payload is rendered as one template of its JSON text, whose offsets are not the file's columns: an
    /// undefined variable in it was shown at the payload's first key (12:13 below), now where it is written.
    @Test(arguments: [
        ("payload:\n  aps: { alert: { title: \"é ${env.NOPE}\" } }\n  n: 1\n", 2, 29),
        ("payload: { aps: { alert: { title: \"${env.NOPE}\" } } }\n", 1, 36),
    ])
    func anUndefinedVariableOfAYAMLPayloadIsShownWhereItIsWritten(yaml: String, line: Int, column: Int) throws {
        let doc = try YAMLLoader.load(string: yaml, file: "s.yaml")
        let node = try #require(doc["payload"])
        let payload = try Template(try node.jsonText(), range: node.range)
        do {
            _ = try payload.render { _ in nil }
            Issue.record("rendered without ${env.NOPE}")
        } catch {
            #expect(error.name == "env.NOPE")
            #expect(error.range.start.line == line && error.range.start.column == column, "\(error.range)")
        }
    }
}
