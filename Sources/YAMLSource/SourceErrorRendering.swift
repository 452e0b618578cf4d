extension SourceError {
    /// Renders the error the way Hurl does, with the offending line and a caret:
    ///
    /// ```
    /// error: unknown key 'expcet'
    ///   --> Suites/x.yaml:14:7
    ///    |
    /// 14 |       expcet: 200
    ///    |       ^^^^^^ expected one of: expect, send, run
    ///    |
    ///    = help: did you mean 'expect'?
    /// ```
    ///
    /// The caret is placed by display width: tabs before the spot are copied, wide
    /// (CJK, emoji) characters count two cells, combining marks none. A range that
    /// spans several lines gets a single caret at its start. Line numbers take at least
    /// two columns. No trailing newline.
    /// - Parameter color: wrap parts in ANSI colours (for terminals only; never for XML).
    package func rendered(color: Bool = false) -> String {
        let style = ANSIStyle(enabled: color)
        var out = [style.red("error") + style.bold(": \(message)")]
        let source = range.source
        guard range.start.line > 0, let lineText = source?.line(range.start.line) else {
            out.append("  " + style.blue("-->") + " \(range)")
            if let expected { out.append("   " + style.blue("=") + " \(expected)") }
            if let suggestion { out.append("   " + style.blue("= help:") + " \(suggestion)") }
            return out.joined(separator: "\n")
        }
        let number = String(range.start.line)
        // Like Hurl: line numbers get at least two columns (" 3 |"), so "-->" starts at column 3.
        let pad = String(repeating: " ", count: max(2, number.count))
        let gutter = pad + " " + style.blue("|")
        out.append(pad + style.blue("-->") + " \(range)")
        out.append(gutter)
        let paddedNumber = String(repeating: " ", count: pad.count - number.count) + number
        out.append(style.blue(paddedNumber + " |") + (lineText.isEmpty ? "" : " " + lineText))
        let (indent, width) = caretPlacement(in: lineText)
        var caretLine = gutter + " " + indent + style.red(String(repeating: "^", count: width))
        if let expected { caretLine += " " + style.red(expected) }
        out.append(caretLine)
        out.append(gutter)
        if let suggestion {
            out.append(pad + " " + style.blue("= help:") + " \(suggestion)")
        }
        return out.joined(separator: "\n")
    }

    /// The whitespace that reaches the start column, and the number of carets.
    private func caretPlacement(in lineText: String) -> (String, Int) {
        let scalars = Array(lineText.unicodeScalars)
        let startIndex = max(0, range.start.column - 1)
        var indent = ""
        for scalar in scalars.prefix(startIndex) {
            if scalar == "\t" {
                indent += "\t"
            } else {
                indent += String(repeating: " ", count: DisplayWidth.of(scalar))
            }
        }
        if startIndex > scalars.count {  // past the end of the line (e.g. end of file)
            indent += String(repeating: " ", count: startIndex - scalars.count)
        }
        guard range.end.line == range.start.line, range.end.column > range.start.column else {
            return (indent, 1)
        }
        let endIndex = min(scalars.count, range.end.column - 1)
        guard endIndex > startIndex else { return (indent, 1) }
        let width = scalars[startIndex..<endIndex].reduce(0) { $0 + max(1, DisplayWidth.of($1)) }
        return (indent, max(1, width))
    }
}

/// Terminal cell widths, enough to line carets up under Japanese and emoji text.
enum DisplayWidth {
    /// 0 for combining marks and zero-width characters, 2 for East Asian wide
    /// and fullwidth characters, 1 otherwise.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(v) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }
}

/// ANSI SGR helpers; identity when disabled.
struct ANSIStyle {
    let enabled: Bool
    func red(_ s: String) -> String { wrap(s, "1;31") }
    func blue(_ s: String) -> String { wrap(s, "1;34") }
    func bold(_ s: String) -> String { wrap(s, "1") }
    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}
