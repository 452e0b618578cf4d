import Synchronization

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
/// Shared by every `SourceRange` of the file. A run keeps its suites' texts for the whole run, so the text is kept as
/// the file's bytes, with where each line starts and ends, and a line becomes a `String` only when it is quoted (a
/// `String` per line took 3.5 times the file's size). The bytes are the very buffer the loader hands libyaml
/// (`YAMLLoader`): a large file is in memory once while it is parsed, not three times (read, text, parser). Once a
/// file's scenarios are deferred, `compact()` keeps its bytes deflated.
package final class SourceText: Sendable {
    /// The file name as given to the loader (used in `-->` lines).
    package let file: String
    /// The file's bytes as read (invalid UTF-8 stays as it is: a quoted line is decoded on its own, repairing it).
    private let storage: Mutex<Storage>
    /// Each line's offsets in `bytes`, without its terminator. Breaks are those libyaml counts:
    /// `\n`, `\r\n`, `\r`, NEL (U+0085), LS (U+2028) and PS (U+2029). A leading BOM is
    /// not part of the first line (libyaml does not count it as a column).
    private let bounds: LineTable

    /// The bytes, as read or deflated.
    private enum Storage: Sendable {
        case plain([UInt8])
        case deflated(DeflatedText)
    }

    /// A file known by its name alone (no text to quote): what a range without a source points at.
    init(nameOnly file: String) {
        self.file = file
        self.storage = Mutex(.plain([]))
        self.bounds = LineTable()
    }

    /// False for a file known by its name alone.
    var hasText: Bool { bounds.count > 0 }

    /// `text`'s lines (shared, not split again) under the file name `file`.
    init(renaming text: SourceText, to file: String) {
        self.file = file
        self.storage = Mutex(text.storage.withLock { $0 })
        self.bounds = text.bounds
    }

    /// The UTF-8 of `text`, split into lines.
    package convenience init(file: String, text: String) {
        self.init(file: file, bytes: Array(text.utf8))
    }

    /// Splits `bytes` into lines (the breaks are ASCII bytes or whole UTF-8 sequences, which no other sequence
    /// contains, so a line's bytes are its scalars whether or not the rest of the file is valid UTF-8).
    package init(file: String, bytes: [UInt8]) {
        self.file = file
        self.storage = Mutex(.plain(bytes))
        var lines = LineTable()
        bytes.withUnsafeBufferPointer { bytes in
            let count = bytes.count
            var index = 0
            // A leading BOM (EF BB BF) is not part of the first line.
            if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            var lineStart = index
            var previousWasCR = false
            while index < count {
                let byte = bytes[index]
                var breakLength = 0  // bytes of a break starting here (0: none)
                switch byte {
                case 0x0A, 0x0D:
                    breakLength = 1
                case 0xC2:  // NEL, U+0085: C2 85
                    if index + 1 < count, bytes[index + 1] == 0x85 { breakLength = 2 }
                case 0xE2:  // LS, PS, U+2028 / U+2029: E2 80 A8 / E2 80 A9
                    if index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                    {
                        breakLength = 3
                    }
                default:
                    break
                }
                if breakLength == 0 {
                    previousWasCR = false
                    index += 1
                    continue
                }
                if byte == 0x0A {
                    // After CR (or NEL, LS, PS) a LF ends no line of its own, as libyaml counts.
                    if !previousWasCR { lines.append(lineStart..<index) }
                    previousWasCR = false
                } else {
                    lines.append(lineStart..<index)
                    previousWasCR = true
                }
                index += breakLength
                lineStart = index
            }
            lines.append(lineStart..<count)
        }
        lines.trim()
        self.bounds = lines
    }

    /// The text of a 1-based line, or nil when out of range (invalid UTF-8 in it reads as U+FFFD).
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= bounds.count else { return nil }
        let range = bounds[number - 1]
        return bytes(range.lowerBound..<range.upperBound).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Keeps the bytes deflated from now on (unless that saves too little: `DeflatedText`), for a file whose text is
    /// read again an item at a time for the rest of a run: a twentieth of the memory for the runner bench's suite.
    package func compact() {
        storage.withLock { storage in
            if case .plain(let bytes) = storage, let deflated = DeflatedText(bytes) { storage = .deflated(deflated) }
        }
    }

    /// The bytes of `range` (within the file's); nil when they cannot be had.
    private func bytes(_ range: Range<Int>) -> [UInt8]? {
        switch storage.withLock({ $0 }) {
        case .plain(let bytes):
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
            return Array(bytes[range])
        case .deflated(let text):
            return text.bytes(range)
        }
    }

    /// Every line, in order (each made on the spot).
    package var lines: [String] { (0..<bounds.count).map { line($0 + 1)! } }

    /// The text from `start` to `end` as bytes to parse on their own: from the start of `start`'s line, with what
    /// precedes `start` on it turned into as many spaces, so a node read from them keeps its columns (and so its
    /// indentation) and its lines are `start.line`'s onwards. Nil when the positions are not in the text.
    func detachedText(from start: SourcePosition, to end: SourcePosition) -> [UInt8]? {
        guard start.line >= 1, start.line <= bounds.count, start.column >= 1, start <= end else { return nil }
        // The lines from `start`'s to `end`'s, read at once; offsets below are into them.
        let first = bounds[start.line - 1].lowerBound
        let last: Int
        if end.line == bounds.count + 1 {
            last = bounds.end
        } else if end.line <= bounds.count {
            last = bounds[end.line - 1].upperBound
        } else {
            return nil
        }
        guard first <= last, let bytes = bytes(first..<last) else { return nil }
        /// The offset in `bytes` of a position: its line's start, then a column of scalars (clamped to the line).
        func offset(_ position: SourcePosition) -> Int {
            if position.line == bounds.count + 1 { return bytes.count }
            let line = bounds[position.line - 1]
            var at = line.lowerBound - first
            let lineEnd = line.upperBound - first
            for _ in 0..<max(0, position.column - 1) where at < lineEnd {
                at += 1
                while at < lineEnd, bytes[at] & 0xC0 == 0x80 { at += 1 }
            }
            return at
        }
        let from = offset(start)
        let to = offset(end)
        guard from <= to else { return nil }
        var out = [UInt8](repeating: UInt8(ascii: " "), count: start.column - 1)
        out.append(contentsOf: bytes[from..<to])
        return out
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
