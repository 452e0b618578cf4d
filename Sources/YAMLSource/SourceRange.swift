/// A 1-based position in a source file.
///
/// `column` counts Unicode scalars (code points), not bytes and not terminal cells:
/// `名前: x` puts `x` at column 5. This is what libyaml's marks count, and what
/// editors that show "Col" for UTF-8 text usually show. The renderer converts
/// columns to display cells so the caret lines up under wide (CJK) characters.
package struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Stored in 32 bits each (a loaded suite keeps two positions in every range of every template and check for the
    /// whole run); a line or column past 2³¹ − 1 reads as 2³¹ − 1.
    private var storedLine: Int32
    private var storedColumn: Int32

    /// 1-based line number (0 when the error concerns the whole file).
    package var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }
    /// 1-based column in Unicode scalars (0 when the error concerns the whole file).
    package var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// Creates a position from 1-based line and column.
    package init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    package var description: String { "\(line):\(column)" }
}

/// The text of one loaded file, kept so that errors can quote the offending line.
///
/// Immutable and shared by every `SourceRange` of the file. A run keeps its suites' texts for the whole run, so the
/// text is kept whole with where each line starts and ends, and a line becomes a `String` only when it is quoted (a
/// `String` per line took 3.5 times the file's size).
package final class SourceText: Sendable {
    /// The file name as given to the loader (used in `-->` lines).
    package let file: String
    /// The decoded text.
    private let text: String
    /// Each line's UTF-8 offsets in `text`, without its terminator. Breaks are those libyaml counts:
    /// `\n`, `\r\n`, `\r`, NEL (U+0085), LS (U+2028) and PS (U+2029). A leading BOM is
    /// dropped (libyaml does not count it as a column).
    private let bounds: [LineBounds]

    /// A line's offsets in 32 bits each (a file is at most `YAMLLimits.maxDocumentBytes`, 64 MiB by default, and a
    /// run keeps its suites' texts to the end: 8 bytes a line, where a `Range<Int>` took 16).
    private struct LineBounds {
        private let start: UInt32
        private let end: UInt32

        init(_ range: Range<Int>) {
            start = UInt32(clamping: range.lowerBound)
            end = UInt32(clamping: range.upperBound)
        }

        var lowerBound: Int { Int(start) }
        var upperBound: Int { Int(end) }
        var count: Int { Int(end - start) }
    }

    /// A file known by its name alone (no text to quote): what a range without a source points at.
    init(nameOnly file: String) {
        self.file = file
        self.text = ""
        self.bounds = []
    }

    /// False for a file known by its name alone.
    var hasText: Bool { !bounds.isEmpty }

    /// `text`'s lines (shared, not split again) under the file name `file`.
    init(renaming text: SourceText, to file: String) {
        self.file = file
        self.text = text.text
        self.bounds = text.bounds
    }

    /// Decodes `bytes` as UTF-8 (invalid sequences become U+FFFD) and splits them into lines.
    package convenience init(file: String, bytes: [UInt8]) {
        self.init(file: file, text: String(decoding: bytes, as: UTF8.self))
    }

    /// Splits `text` into lines, on its UTF-8 bytes (each line a slice of them: the breaks are whole scalars, so a
    /// slice between two of them is whole scalars too, and one `String` per line is made without a scalar walk).
    package init(file: String, text: String) {
        var text = text
        text.makeContiguousUTF8()  // offsets into it are then O(1) to turn into indices
        self.file = file
        self.text = text
        var lines: [LineBounds] = []
        let bytes = text.utf8
        func offsets(_ range: Range<String.Index>) -> LineBounds {
            let start = bytes.distance(from: bytes.startIndex, to: range.lowerBound)
            return LineBounds(start..<(start + bytes.distance(from: range.lowerBound, to: range.upperBound)))
        }
        var index = bytes.startIndex
        // A leading BOM (EF BB BF) is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = bytes.index(index, offsetBy: 3) }
        var lineStart = index
        var previousWasCR = false
        while index != bytes.endIndex {
            let byte = bytes[index]
            var breakLength = 0  // bytes of a break starting here (0: none)
            switch byte {
            case 0x0A, 0x0D:
                breakLength = 1
            case 0xC2:  // NEL, U+0085: C2 85
                let next = bytes.index(after: index)
                if next != bytes.endIndex, bytes[next] == 0x85 { breakLength = 2 }
            case 0xE2:  // LS, PS, U+2028 / U+2029: E2 80 A8 / E2 80 A9
                let second = bytes.index(after: index)
                if second != bytes.endIndex, bytes[second] == 0x80 {
                    let third = bytes.index(after: second)
                    if third != bytes.endIndex, bytes[third] == 0xA8 || bytes[third] == 0xA9 { breakLength = 3 }
                }
            default:
                break
            }
            if breakLength == 0 {
                previousWasCR = false
                index = bytes.index(after: index)
                continue
            }
            let end = bytes.index(index, offsetBy: breakLength)
            if byte == 0x0A {
                // After CR (or NEL, LS, PS) a LF ends no line of its own, as libyaml counts.
                if !previousWasCR { lines.append(offsets(lineStart..<index)) }
                previousWasCR = false
            } else {
                lines.append(offsets(lineStart..<index))
                previousWasCR = true
            }
            index = end
            lineStart = end
        }
        lines.append(offsets(lineStart..<bytes.endIndex))
        self.bounds = lines
    }

    /// The text of a 1-based line, or nil when out of range.
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= bounds.count else { return nil }
        let range = bounds[number - 1]
        let bytes = text.utf8
        let start = bytes.index(bytes.startIndex, offsetBy: range.lowerBound)
        return String(Substring(bytes[start..<bytes.index(start, offsetBy: range.count)]))
    }

    /// Every line, in order (each made on the spot).
    package var lines: [String] { bounds.indices.map { line($0 + 1)! } }

    /// The text from `start` to `end` as bytes to parse on their own: from the start of `start`'s line, with what
    /// precedes `start` on it turned into as many spaces, so a node read from them keeps its columns (and so its
    /// indentation) and its lines are `start.line`'s onwards. Nil when the positions are not in the text.
    func detachedText(from start: SourcePosition, to end: SourcePosition) -> [UInt8]? {
        guard start.line >= 1, start.line <= bounds.count, start.column >= 1, start <= end else { return nil }
        var text = text
        return text.withUTF8 { bytes -> [UInt8]? in
            /// The byte offset of a position: its line's start, then a column of scalars (clamped to the line).
            func offset(_ position: SourcePosition) -> Int? {
                if position.line == bounds.count + 1 { return bytes.count }
                guard position.line >= 1, position.line <= bounds.count else { return nil }
                let line = bounds[position.line - 1]
                var at = line.lowerBound
                for _ in 0..<max(0, position.column - 1) where at < line.upperBound {
                    at += 1
                    while at < line.upperBound, bytes[at] & 0xC0 == 0x80 { at += 1 }
                }
                return at
            }
            guard let from = offset(start), let to = offset(end), from <= to else { return nil }
            var out = [UInt8](repeating: UInt8(ascii: " "), count: start.column - 1)
            out.append(contentsOf: bytes[from..<to])
            return out
        }
    }
}

/// Where a node or an error sits in a file: `file`, start and end (end is exclusive).
///
/// Equality compares file and positions only, not the attached source text.
package struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// The file's name and, when known, its text: one reference to copy where a name and a text were two (every copy
    /// of a YAML node copies its range, and loading a suite copies thousands of nodes per scenario). A range without
    /// a text points at a `SourceText` that has the name alone: one word where an enum of a name or a text took three
    /// (a range was 40 bytes, now 24; a document keeps one per node).
    private var origin: SourceText
    /// First character of the range.
    package var start: SourcePosition
    /// Position just after the last character of the range.
    package var end: SourcePosition

    /// The file name as given to the loader.
    package var file: String { origin.file }

    /// The file's text, when known, for rendering snippets.
    package var source: SourceText? { origin.hasText ? origin : nil }

    /// Creates a range; pass `source` to let errors at this range quote the line.
    package init(file: String, start: SourcePosition, end: SourcePosition, source: SourceText? = nil) {
        if let source {
            // The loader's ranges name their text's own file; a range under another name gets a text of that name.
            origin = source.file == file ? source : SourceText(renaming: source, to: file)
        } else {
            origin = SourceText(nameOnly: file)
        }
        self.start = start
        self.end = end
    }

    /// The same file (and text) between other positions.
    package func moved(start: SourcePosition, end: SourcePosition) -> SourceRange {
        var range = self
        range.start = start
        range.end = end
        return range
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
