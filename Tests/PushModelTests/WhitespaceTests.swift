import Foundation
@testable import PushModel
import Testing

/// `trimmingWhitespace` trims exactly what Foundation's `trimmingCharacters(in:)` trims, for both sets.
@Suite struct WhitespaceTests {
    static let samples = [
        "", " ", "\t", "\n", " \r\n", "a", " a ", "\ta b\t", "\n a \n", "\u{00A0}x\u{00A0}", "\u{2003}x\u{3000}",
        "\u{2028}x\u{2029}", "\u{85}x\u{85}", "\u{0B}x\u{0C}", "x\u{200B}", "é ", " 日本 ", "bearer abc.def.ghi ",
        "\u{1F600} ", " \u{7F}", "\u{1680}-\u{205F}",
    ]

    @Test(arguments: samples) func matchesFoundation(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespace(andNewlines: true) == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(Substring(text).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func everyBMPScalarIsClassifiedAsFoundationDoes() {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isFoundationWhitespace == CharacterSet.whitespaces.contains(scalar), "U+\(value)")
            #expect(
                scalar.isFoundationWhitespaceOrNewline == CharacterSet.whitespacesAndNewlines.contains(scalar),
                "U+\(value)")
        }
    }
}
