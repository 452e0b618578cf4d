import CYAML

/// One libyaml parse event, copied out of C memory.
enum ParseEvent {
    case streamStart
    case streamEnd
    case documentStart(SourcePosition)
    case documentEnd
    case scalar(YAMLScalar, anchor: String?, tag: String?, start: SourcePosition, end: SourcePosition)
    case sequenceStart(anchor: String?, tag: String?, start: SourcePosition)
    case sequenceEnd(end: SourcePosition)
    case mappingStart(anchor: String?, tag: String?, start: SourcePosition)
    case mappingEnd(end: SourcePosition)
    case alias(String, start: SourcePosition, end: SourcePosition)
}

/// Owns one `yaml_parser_t` and the input bytes it reads. libyaml pulls the input through a read handler, a chunk at
/// a time into its own buffer, so the bytes are not copied whole (a string input must sit at one address until the
/// end: a copy of the file, where the array is shared with the file's `SourceText`).
///
/// Not thread-safe and not `Sendable`: created, used and dropped within one load call.
final class LibYAMLParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: [UInt8]
    /// How much of `input` libyaml has taken.
    private var consumed = 0
    private let source: SourceText
    /// Lines of `source` before the first line of `bytes` (a deferred item is parsed out of its file's text).
    private let lineOffset: Int

    init(bytes: [UInt8], source: SourceText, lineOffset: Int = 0) {
        self.source = source
        self.lineOffset = lineOffset
        input = bytes
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        // yaml_parser_initialize only fails on malloc failure.
        _ = yaml_parser_initialize(parser)
        // The handler's `data` is this object, which outlives the parser (deleted in `deinit`).
        yaml_parser_set_input(parser, Self.readHandler, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// libyaml's read handler: copies the next bytes of `input` into its buffer; 0 bytes read is the end.
    private static let readHandler:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?
        ) -> Int32 = { data, buffer, size, read in
            guard let data, let buffer, let read else { return 0 }
            let parser = Unmanaged<LibYAMLParser>.fromOpaque(data).takeUnretainedValue()
            let count = min(size, parser.input.count - parser.consumed)
            parser.input.withUnsafeBufferPointer { input in
                if count > 0 { buffer.update(from: input.baseAddress! + parser.consumed, count: count) }
            }
            parser.consumed += count
            read.pointee = count
            return 1
        }

    /// The next event, or a `.syntax` error translated from libyaml's problem/context marks.
    func next() throws(SourceError) -> ParseEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
        defer { yaml_event_delete(&event) }
        let start = position(event.start_mark)
        let end = position(event.end_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart(start)
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(Self.string(event.data.alias.anchor) ?? "", start: start, end: end)
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let value =
                s.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: s.length), as: UTF8.self)
                } ?? ""
            return .scalar(
                YAMLScalar(value, style: Self.style(s.style)), anchor: Self.string(s.anchor),
                tag: Self.string(s.tag), start: start, end: end)
        case YAML_SEQUENCE_START_EVENT:
            let s = event.data.sequence_start
            return .sequenceStart(anchor: Self.string(s.anchor), tag: Self.string(s.tag), start: start)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd(end: end)
        case YAML_MAPPING_START_EVENT:
            let m = event.data.mapping_start
            return .mappingStart(anchor: Self.string(m.anchor), tag: Self.string(m.tag), start: start)
        case YAML_MAPPING_END_EVENT: return .mappingEnd(end: end)
        default:
            throw SourceError(.syntax, "syntax error: unexpected libyaml event", at: range(start, end))
        }
    }

    func range(_ start: SourcePosition, _ end: SourcePosition) -> SourceRange {
        SourceRange(file: source.file, start: start, end: end, source: source)
    }

    // MARK: - Conversions

    private func position(_ mark: yaml_mark_t) -> SourcePosition {
        SourcePosition(line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }

    // MARK: - Errors

    /// The word of a `- word` list item on the nearest non-blank line above `line`, if that is what it is.
    private func bareListItem(before line: Int) -> String? {
        var n = line - 1
        func trim(_ s: Substring) -> String {
            var t = s
            while t.first == " " { t.removeFirst() }
            while let last = t.last, last == " " || last == "\r" { t.removeLast() }
            return String(t)
        }
        while n >= 1, let text = source.line(n), trim(Substring(text)).isEmpty { n -= 1 }
        guard n >= 1, let text = source.line(n) else { return nil }
        let trimmed = trim(Substring(text))
        guard trimmed.hasPrefix("- ") else { return nil }
        let word = trim(trimmed.dropFirst(2))
        guard !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return word
    }

    /// The start of a `${` written as a plain (unquoted) value on `at`'s line before `at`, if there is one.
    private func unquotedReference(before at: SourcePosition) -> SourcePosition? {
        guard let line = source.line(at.line) else { return nil }
        let scalars = Array(line.unicodeScalars.prefix(max(0, at.column)))
        var i = scalars.count - 2
        while i >= 0 {
            if scalars[i] == "$", scalars[i + 1] == "{" {
                var j = i - 1
                while j >= 0, scalars[j] == " " { j -= 1 }
                // A plain value starts after ':', ',', '[' or '{' (a quoted one after a quote).
                if j >= 0, [":", ",", "[", "{"].contains(scalars[j]), j < i - 1 || scalars[j] != ":" {
                    return SourcePosition(line: at.line, column: i + 1)
                }
            }
            i -= 1
        }
        return nil
    }

    /// The position of a `//` comment line of a JSON file on `at`'s line or on the line before it that is not blank:
    /// JSON has no comments, and libyaml reports the next line.
    private func commentLine(before at: SourcePosition) -> SourcePosition? {
        guard source.file.hasSuffix(".json") else { return nil }
        var n = at.line
        var lookedAtErrorLine = false
        while n >= 1, let text = source.line(n) {
            let scalars = Array(text.unicodeScalars)
            if let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) {
                if first + 1 < scalars.count, scalars[first] == "/", scalars[first + 1] == "/" {
                    return SourcePosition(line: n, column: first + 1)
                }
                if lookedAtErrorLine { return nil }
            }
            lookedAtErrorLine = true
            n -= 1
        }
        return nil
    }

    private func syntaxError() -> SourceError {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unknown problem"
        if p.error == YAML_READER_ERROR {
            let at = positionOfByte(p.problem_offset)
            return SourceError(
                .syntax, "syntax error: \(problem)", at: range(at, at),
                suggestion: "save the file as UTF-8 (without control characters)")
        }
        var at = position(p.problem_mark)
        let context = p.context.map { String(cString: $0) }
        let contextAt = position(p.context_mark)
        var suggestion: String?
        let offending = source.line(at.line).flatMap { line -> Unicode.Scalar? in
            let scalars = Array(line.unicodeScalars)
            return at.column - 1 < scalars.count ? scalars[at.column - 1] : nil
        }
        if problem.hasPrefix("found unexpected end of stream"), context != nil, contextAt < at {
            // An unclosed quote or bracket: the useful spot is where it opened.
            at = contextAt
            suggestion = "close what starts here before the end of the file"
        } else if offending == "\t" || problem.contains("tab") {
            suggestion = "indent with spaces: YAML does not allow tabs for indentation"
        } else if let comment = commentLine(before: at) {
            // A JSON suite with `// …`: libyaml stops on the next line, far from the cause.
            at = comment
            suggestion = "JSON has no comments: remove the '//' line (or write the suite in YAML, where '#' starts one)"
        } else if problem.hasPrefix("did not find expected ',' or"), context != nil {
            let bracket = problem.hasSuffix("]'") ? "[" : "{"
            if let reference = unquotedReference(before: at) {
                // `{ title: ${later} }`: the reference's `}` closed the mapping early.
                at = reference
                suggestion =
                    "quote a value that holds '${…}' inside '{ }' or '[ ]' (title: \"${later}\"): there '{', '}' and ',' cannot "
                    + "be part of a plain value"
            } else {
                suggestion = "add the missing ',' or close the '\(bracket)' opened at \(contextAt)"
            }
        } else if problem == "mapping values are not allowed in this context",
            let word = bareListItem(before: at.line)
        {
            // `- back` then `expect:` under it: a bare word cannot take keys; with a colon it can.
            suggestion =
                "'- \(word)' is a whole list item; to give it keys such as expect:, write '- \(word):' (with a colon) "
                + "and indent the keys under it"
        } else if problem == "did not find expected key" || problem == "mapping values are not allowed in this context"
        {
            suggestion = "check this line's indentation against the keys above it"
        }
        var expected: String?
        if let context {
            expected = contextAt == at ? context : "\(context) (started at \(contextAt))"
        }
        return SourceError(
            .syntax, "syntax error: \(problem)", at: range(at, at), expected: expected, suggestion: suggestion)
    }

    /// Converts a byte offset (libyaml reader errors) to line:column in Unicode scalars.
    private func positionOfByte(_ offset: Int) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, input.count)
        while index < end {
            let byte = input[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line + lineOffset, column: column)
    }
}
