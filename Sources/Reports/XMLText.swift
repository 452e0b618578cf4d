/// Text cleaning and escaping for XML 1.0 output.
///
/// Rules (see reference/runner.md §2b):
/// - ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ESC \`, two-byte `ESC x`, and the
///   8-bit CSI U+009B) are removed entirely: colour codes carry no information in a report.
/// - Any other character outside `#x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF`
///   (NUL and other C0 controls, U+FFFE, U+FFFF) is replaced with U+FFFD so the reader sees that
///   something was there. Lone surrogates cannot occur in a Swift `String`: decoding invalid UTF-8
///   already turns them into U+FFFD.
/// - Text is escaped (`&amp; &lt; &gt;`), never wrapped in CDATA, so `]]>` needs no special case.
///   In attributes `"` and tab/LF/CR are escaped too, so that attribute-value normalization keeps them.
package enum XMLText {
    /// Returns `text` without ANSI escape sequences and with XML-illegal characters replaced by U+FFFD.
    static func sanitize(_ text: String) -> String {
        if isClean(text) { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}" || scalar == "\u{9B}" {
                index = endOfEscapeSequence(scalars, from: index)
                continue
            }
            out.append(isLegal(scalar) ? scalar : "\u{FFFD}")
            index += 1
        }
        return String(out)
    }

    /// True when `text` has nothing `sanitize` would change: no C0 control besides tab, LF and CR (ESC among them),
    /// no U+009B, U+FFFE or U+FFFF. Checked on the UTF-8 bytes (a report's transcripts are megabytes; decoding
    /// them scalar by scalar dominated writing the JUnit file).
    static func isClean(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isClean) ?? isClean(text.utf8)
    }

    private static func isClean<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if byte < 0x20, byte != 0x9, byte != 0xA, byte != 0xD { return false }
            if byte == 0x9B, previous.1 == 0xC2 { return false }  // U+009B
            if byte >= 0xBE, byte <= 0xBF, previous == (0xEF, 0xBF) { return false }  // U+FFFE, U+FFFF
            previous = (previous.1, byte)
        }
        return true
    }

    /// True when `scalar` may appear in an XML 1.0 document.
    static func isLegal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Sanitized and escaped for element content.
    package static func escapeText(_ text: String) -> String {
        escape(sanitize(text), attribute: false)
    }

    /// Sanitized and escaped for a double-quoted attribute value.
    static func escapeAttribute(_ text: String) -> String {
        escape(sanitize(text), attribute: true)
    }

    /// Escapes byte by byte: every character it replaces is ASCII, and no byte of a multi-byte UTF-8 sequence is.
    private static func escape(_ text: String, attribute: Bool) -> String {
        func replacement(_ byte: UInt8) -> StaticString? {
            switch byte {
            case UInt8(ascii: "&"): return "&amp;"
            case UInt8(ascii: "<"): return "&lt;"
            case UInt8(ascii: ">"): return "&gt;"
            case UInt8(ascii: "\"") where attribute: return "&quot;"
            case UInt8(ascii: "\t") where attribute: return "&#9;"
            case UInt8(ascii: "\n") where attribute: return "&#10;"
            case UInt8(ascii: "\r"): return "&#13;"  // a literal CR is turned into LF by every parser
            default: return nil
            }
        }
        // Most text needs nothing replaced: scanned as contiguous bytes (the closure per byte of a UTF8View scan was
        // the larger part of rendering a scenario's <testcase>).
        let replaces = { (byte: UInt8) in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == 0x0D
                || (attribute && (byte == UInt8(ascii: "\"") || byte == 0x09 || byte == 0x0A))
        }
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains(where: replaces) }
        guard clean == false || (clean == nil && text.utf8.contains(where: replaces)) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 64)
        // The runs between replaced bytes are copied whole (a byte-by-byte append was most of rendering a case).
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var runStart = 0
            for (i, byte) in bytes.enumerated() {
                guard let r = replacement(byte) else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                out.append(contentsOf: UnsafeBufferPointer(start: r.utf8Start, count: r.utf8CodeUnitCount))
                runStart = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        if copied == nil {
            for byte in text.utf8 {
                if let r = replacement(byte) {
                    out.append(contentsOf: UnsafeBufferPointer(start: r.utf8Start, count: r.utf8CodeUnitCount))
                } else {
                    out.append(byte)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Index just past the escape sequence starting at `start` (which holds ESC or U+009B).
    private static func endOfEscapeSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start + 1
        let isCSI: Bool
        if scalars[start] == "\u{9B}" {
            isCSI = true
        } else {
            guard index < scalars.count else { return index }
            let next = scalars[index]
            if next == "[" {
                isCSI = true
                index += 1
            } else if next == "]" || next == "P" || next == "X" || next == "^" || next == "_" {
                // OSC / DCS / SOS / PM / APC: a string ended by BEL or ST (ESC \).
                index += 1
                while index < scalars.count {
                    if scalars[index] == "\u{07}" { return index + 1 }
                    if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "\\" {
                        return index + 2
                    }
                    index += 1
                }
                return index
            } else {
                isCSI = false
            }
        }
        if isCSI {
            // Parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
            while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        }
        // Two-character escapes (ESC 7, ESC c, ESC ( B …): intermediates then one final byte.
        while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
        if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
        return index
    }
}
