import Foundation
import PushModel

extension HTMLDocument {
    /// Whether the first 1024 bytes carry a `<meta charset=…>` or `http-equiv` content type (HTML's prescan window).
    static func declaresCharset(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<meta") && head.contains("charset")
    }

    /// The `charset` parameter of a `Content-Type` value.
    static func charset(ofContentType type: String?) -> String? {
        guard let type else { return nil }
        for part in type.split(separator: ";").dropFirst() {
            // Foundation's trims without its NSString bridging (it showed in the runner's profile, once per page).
            let kv = part.split(separator: "=", maxSplits: 1).map(Self.trimmed)
            if kv.count == 2, kv[0].lowercased() == "charset" {
                let isQuote = { (scalar: Unicode.Scalar) in scalar == "\"" || scalar == "'" }
                let scalars = kv[1].unicodeScalars
                guard let first = scalars.firstIndex(where: { !isQuote($0) }) else { return "" }
                let last = scalars.lastIndex(where: { !isQuote($0) })!
                return String(scalars[first...last])
            }
        }
        return nil
    }

    /// Foundation's `trimmingCharacters(in: .whitespaces)`; in ASCII text those are space and tab only, trimmed
    /// without looking up each scalar's general category (as `trimmingWhitespace` does for the rest).
    private static func trimmed(_ text: Substring) -> String {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.trimmingWhitespace() }
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isBlank($0) })!
        return String(Substring(bytes[first...last]))
    }
}
