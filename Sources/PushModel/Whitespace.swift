/// Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)` without bridging to
/// `NSString` (on Linux every call copied the string into an NSString and back: it showed in the runner's profile,
/// once per response header, JUnit test case and traced provider token). The sets are Foundation's:
/// `whitespaces` is General Category Zs and U+0009; `whitespacesAndNewlines` is General Category Z* and
/// U+000A–U+000D and U+0085; both also hold U+200B (ZERO WIDTH SPACE, Zs in old Unicode versions), as
/// swift-corelibs-foundation's tables do (`WhitespaceTests` compares every BMP scalar).
extension Unicode.Scalar {
    var isFoundationWhitespace: Bool {
        value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    package var isFoundationWhitespaceOrNewline: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0x200B: return true
        case 0..<0x80: return false
        default:
            switch properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing `whitespaces` (or `whitespacesAndNewlines`), as Foundation trims.
    package func trimmingWhitespace(andNewlines: Bool = false) -> String {
        let scalars = unicodeScalars
        let drop: (Unicode.Scalar) -> Bool = {
            andNewlines ? $0.isFoundationWhitespaceOrNewline : $0.isFoundationWhitespace
        }
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }
}
