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
}
