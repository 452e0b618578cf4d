import Foundation
@testable import SuiteFormat
import Testing
@testable import YAMLSource

/// `${…}` templates: parsing, positions, escaping.
@Suite struct TemplateTests {
    static let range = SourceRange(file: "s.yaml", start: .init(line: 3, column: 10), end: .init(line: 3, column: 40))

    @Test func referencesKeepTheirColumns() throws {
        let t = try Template("a ${x} b ${ device.iphone.token }", range: Self.range)
        #expect(t.references.map(\.name) == ["x", "device.iphone.token"])
        #expect(t.references.map(\.range.column) == [12, 19])
        let quoted = try Template("${x}", range: Self.range, quoted: true)
        #expect(quoted.references.first?.range.column == 11)
        #expect(t.description == "a ${x} b ${device.iphone.token}")
    }

    /// A template without references is kept as its text alone, however it was written: the same value, the same
    /// text, the same rendering as one made from the literal.
    @Test func aTemplateWithoutReferencesIsItsLiteral() throws {
        for (written, text) in [("plain", "plain"), ("costs $5", "costs $5"), ("cost: $${price}", "cost: ${price}")] {
            let t = try Template(written, range: Self.range)
            #expect(t == Template(literal: text, range: Self.range))
            #expect(t.isLiteral && t.references.isEmpty)
            #expect(t.parts == [.literal(text)])
            #expect(try t.render({ _ in "unused" }) == text)
        }
        let t = try Template("${a}${b}", range: Self.range)
        #expect(t.parts == [.variable("a", offset: 0), .variable("b", offset: 4)])
        #expect(try t.render({ $0.uppercased() }) == "AB")
    }

    @Test func renderingSubstitutesAndEscapes() throws {
        let t = try Template(#"{"title":"${t}","n":${n}}"#, range: Self.range)
        let out = try t.render(
            { ["t": "say \"hi\"\n", "n": "3"][$0] },
            escape: { s in
                s.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
            })
        #expect(out == #"{"title":"say \"hi\"\n","n":3}"#)
        #expect(try Template("cost: $${price}", range: Self.range).render({ _ in nil }) == "cost: ${price}")
        #expect(try Template("plain", range: Self.range).isLiteral)
    }

    @Test func undefinedAndUnclosed() throws {
        let t = try Template("x ${nope}", range: Self.range)
        #expect(throws: VariableError.self) { try t.render({ _ in nil }) }
        do {
            _ = try t.render({ _ in nil })
        } catch {
            #expect(error.range.column == 12)
            #expect(error.sourceError.message == "undefined variable '${nope}'")
        }
        #expect(throws: SourceError.self) { try Template("x ${open", range: Self.range) }
    }
}
