/// A 1-based position in a source file.
///
/// `column` counts Unicode scalars (code points), not bytes and not terminal cells:
/// `名前: x` puts `x` at column 5. This is what libyaml's marks count, and what
/// editors that show "Col" for UTF-8 text usually show. The renderer converts
/// columns to display cells so the caret lines up under wide (CJK) characters.
package struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line number (0 when the error concerns the whole file).
    package var line: Int
    /// 1-based column in Unicode scalars (0 when the error concerns the whole file).
    package var column: Int

    /// Creates a position from 1-based line and column.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    package var description: String { "\(line):\(column)" }
}

/// The text of one loaded file, kept so that errors can quote the offending line.
///
/// Immutable and shared by every `SourceRange` of the file.
package final class SourceText: Sendable {
    /// The file name as given to the loader (used in `-->` lines).
    package let file: String
    /// The lines of the file without their terminators. Breaks are those libyaml counts:
    /// `\n`, `\r\n`, `\r`, NEL (U+0085), LS (U+2028) and PS (U+2029). A leading BOM is
    /// dropped (libyaml does not count it as a column).
    package let lines: [String]

    /// Decodes `bytes` as UTF-8 (invalid sequences become U+FFFD) and splits them into lines.
    package convenience init(file: String, bytes: [UInt8]) {
        self.init(file: file, text: String(decoding: bytes, as: UTF8.self))
    }

    /// Splits `text` into lines.
    package init(file: String, text: String) {
        self.file = file
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        for scalar in scalars {
            if scalar == "\n" {
                if !previousWasCR { lines.append(String(current)); current = .init() }
                previousWasCR = false
            } else if scalar == "\r" || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                lines.append(String(current)); current = .init()
                previousWasCR = true
            } else {
                current.append(scalar)
                previousWasCR = false
            }
        }
        lines.append(String(current))
        self.lines = lines
    }

    /// The text of a 1-based line, or nil when out of range.
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= lines.count else { return nil }
        return lines[number - 1]
    }
}

/// Where a node or an error sits in a file: `file`, start and end (end is exclusive).
///
/// Equality compares file and positions only, not the attached source text.
package struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the loader.
    package var file: String
    /// First character of the range.
    package var start: SourcePosition
    /// Position just after the last character of the range.
    package var end: SourcePosition
    /// The file's text, when known, for rendering snippets.
    package var source: SourceText?

    /// Creates a range; pass `source` to let errors at this range quote the line.
    package init(file: String, start: SourcePosition, end: SourcePosition, source: SourceText? = nil) {
        self.file = file
        self.start = start
        self.end = end
        self.source = source
    }

    /// A range that designates a whole file (line and column 0), e.g. for I/O errors.
    static func wholeFile(_ file: String) -> SourceRange {
        SourceRange(file: file, start: .init(line: 0, column: 0), end: .init(line: 0, column: 0))
    }

    /// 1-based start line.
    package var line: Int { start.line }
    /// 1-based start column (Unicode scalars).
    package var column: Int { start.column }

    /// `file:line:column`, or just `file` for whole-file ranges.
    package var description: String {
        start.line == 0 ? file : "\(file):\(start.line):\(start.column)"
    }

    package static func == (lhs: SourceRange, rhs: SourceRange) -> Bool {
        lhs.file == rhs.file && lhs.start == rhs.start && lhs.end == rhs.end
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(start)
        hasher.combine(end)
    }
}
