/// Smooths the one place where JSON is not valid YAML for libyaml.
///
/// JSON writes characters outside the Basic Multilingual Plane as UTF-16 surrogate
/// pairs (`"\ud83d\ude00"`); YAML escapes forbid surrogates. For input that looks like
/// JSON (first non-blank byte `{` or `[`), each escaped pair inside a string is
/// rewritten to the equivalent YAML escape `\U0001F600`. Side effect: columns after such
/// a pair on the same line shift left by 2. Everything else (tabs, `\/`, `\u00e9`,
/// `"a":1` without spaces) libyaml already accepts.
enum JSONCompatibility {
    static func prepare(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            containsEscapedSurrogate(bytes)
        else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if !inString {
                if b == UInt8(ascii: "\"") { inString = true }
                out.append(b)
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") {
                inString = false
                out.append(b)
                i += 1
            } else if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                if bytes[i + 1] == UInt8(ascii: "u"), let high = hex4(bytes, i + 2), (0xD800...0xDBFF).contains(high),
                    i + 11 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
                    let low = hex4(bytes, i + 8), (0xDC00...0xDFFF).contains(low)
                {
                    let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    let hex = String(scalar, radix: 16, uppercase: true)
                    out +=
                        Array("\\U".utf8) + Array(repeating: UInt8(ascii: "0"), count: 8 - hex.count) + Array(hex.utf8)
                    i += 12
                } else {
                    out.append(b)
                    out.append(bytes[i + 1])
                    i += 2
                }
            } else {
                out.append(b)
                i += 1
            }
        }
        return out
    }

    private static func containsEscapedSurrogate(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i + 5 < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] | 0x20 == UInt8(ascii: "u"),
                bytes[i + 2] | 0x20 == UInt8(ascii: "d"), let h = hex4(bytes, i + 2), (0xD800...0xDFFF).contains(h)
            {
                return true
            }
            i += 1
        }
        return false
    }

    private static func hex4(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard at + 4 <= bytes.count else { return nil }
        return Int(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
    }
}
