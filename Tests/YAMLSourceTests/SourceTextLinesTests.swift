import Testing

@testable import YAMLSource

/// `SourceText` splits lines on bytes as the scalar walk it replaced did: every break libyaml counts, a CR LF pair
/// once, a leading BOM dropped, invalid UTF-8 replaced.
@Suite struct SourceTextLinesTests {
    /// The scalar walk, kept here as the reference.
    static func reference(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        for scalar in scalars {
            if scalar == "\n" {
                if !previousWasCR {
                    lines.append(String(current))
                    current = .init()
                }
                previousWasCR = false
            } else if scalar == "\r" || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                lines.append(String(current))
                current = .init()
                previousWasCR = true
            } else {
                current.append(scalar)
                previousWasCR = false
            }
        }
        lines.append(String(current))
        return lines
    }

    @Test(arguments: [
        "", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb", "\r\r\n\n", "x\u{85}\ny\u{2028}z\u{2029}\n", "\u{FEFF}bom\n",
        "\u{FEFF}", "名前: x\n  - 値\r\n", "\u{85}\u{85}", "a\u{2027}b\u{202A}c\u{C2}\u{84}", "tail\r",
    ])
    func sameLines(_ text: String) {
        #expect(SourceText(file: "f", text: text).lines == Self.reference(text))
    }

    @Test func invalidUTF8() {
        let bytes: [UInt8] = [0x61, 0xE2, 0x0A, 0xC2, 0x0D, 0x0A, 0xE2, 0x80, 0x0A, 0xFF, 0xE2, 0x80, 0xA8, 0xEF, 0xBB]
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(SourceText(file: "f", bytes: bytes).lines == Self.reference(text))
    }

    /// The line table keeps every 32nd start in full and the others as 16-bit distances: lines past 64 KiB, and
    /// more lines than a checkpoint covers, with every kind of break.
    @Test func longLinesAndManyLines() {
        var text = ""
        for i in 0..<200 {
            text += i % 17 == 3 ? String(repeating: "x", count: 65_530 + i) : "line \(i) é"
            text += i % 5 == 0 ? "\r\n" : i % 7 == 0 ? "\u{2028}" : i % 11 == 0 ? "\u{85}" : i % 13 == 0 ? "\r" : "\n"
        }
        let lines = SourceText(file: "f", text: text).lines
        #expect(lines.count == 201)
        #expect(lines == Self.reference(text))
    }
}
