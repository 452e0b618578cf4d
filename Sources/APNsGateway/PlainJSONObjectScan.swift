/// A quick accept-only check of a payload's JSON grammar, for the gateway's per-push path.
///
/// It accepts a subset of what `JSONValue.isValidObject` accepts — one object, strings of printable ASCII without
/// escapes, numbers, literals, arrays and objects nested at most `maxDepth` deep — in one pass over the bytes
/// with no error values, enum results or throws. `false` means "not shown plain", not "invalid": the caller then
/// runs the full grammar (`JSONValue.isValidObject`), which decides every other document (escapes, non-ASCII
/// text, deep nesting, and every invalid one), so the verdict is always the full grammar's.
enum PlainJSONObjectScan {
    /// Deeper documents go to the full grammar (its own limit is 512).
    static let maxDepth = 32

    static func accepts(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var s = Scanner(p: base, end: buffer.count)
            s.skipWhitespace()
            guard s.peek == UInt8(ascii: "{"), s.value(depth: 0) else { return false }
            s.skipWhitespace()
            return s.i == s.end
        }
    }

    private struct Scanner {
        let p: UnsafePointer<UInt8>
        let end: Int
        var i = 0

        /// The byte at `i`, or 0 at the end (0 is never valid where a byte is looked at).
        var peek: UInt8 { i < end ? p[i] : 0 }

        mutating func skipWhitespace() {
            while i < end {
                switch p[i] {
                case 0x20, 0x09, 0x0A, 0x0D: i += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < PlainJSONObjectScan.maxDepth else { return false }
            switch peek {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        mutating func object(depth: Int) -> Bool {
            i += 1
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                i += 1
                return true
            }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                i += 1
                skipWhitespace()
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): i += 1
                case UInt8(ascii: "}"):
                    i += 1
                    return true
                default: return false
                }
            }
        }

        mutating func array(depth: Int) -> Bool {
            i += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                i += 1
                return true
            }
            while true {
                skipWhitespace()
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): i += 1
                case UInt8(ascii: "]"):
                    i += 1
                    return true
                default: return false
                }
            }
        }

        /// Printable ASCII up to the closing quote; an escape, a control or non-ASCII byte is left to the full
        /// grammar.
        ///
        /// Eight bytes at a time while none of them ends or leaves the plain run (a quote, a backslash, a control or a
        /// non-ASCII byte), then byte by byte; the index is a local until the string ends (as the struct's field it
        /// was stored back on every byte).
        mutating func string() -> Bool {
            var j = i + 1
            let raw = UnsafeRawPointer(p)
            while j + 8 <= end {
                let w = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
                guard !Self.hasSpecialByte(w) else { break }
                j += 8
            }
            while j < end {
                let c = p[j]
                j += 1
                if c == UInt8(ascii: "\"") {
                    i = j
                    return true
                }
                // `c < 0x20 || c >= 0x80` in one unsigned comparison.
                if c == UInt8(ascii: "\\") || c &- 0x20 >= 0x60 { return false }
            }
            return false
        }

        /// Whether any byte of `w` is `"`, `\`, below 0x20 or 0x80 and above (the classic "has a zero byte" test,
        /// `(x - 0x01…) & ~x & 0x80…`, on `w` xor each byte sought, and on `w` itself for "below 0x20").
        static func hasSpecialByte(_ w: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
            let quote = w ^ (ones &* 0x22)
            let backslash = w ^ (ones &* 0x5c)
            let belowSpace = (w &- ones &* 0x20) & ~w & highs
            return w & highs != 0 || belowSpace != 0 || hasZeroByte(quote) || hasZeroByte(backslash)
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard end - i >= n else { return false }
            for k in 0..<n where p[i + k] != word.utf8Start[k] { return false }
            i += n
            return true
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as the full grammar reads numbers.
        mutating func number() -> Bool {
            if peek == UInt8(ascii: "-") { i += 1 }
            let intStart = i
            guard digits() > 0 else { return false }
            if p[intStart] == UInt8(ascii: "0"), i - intStart > 1 { return false }
            if peek == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return false }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                i += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return false }
            }
            return true
        }

        mutating func digits() -> Int {
            let s = i
            while i < end, p[i] >= UInt8(ascii: "0"), p[i] <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }
    }
}
