import Foundation

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
            let kv = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0].lowercased() == "charset" {
                return kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        return nil
    }
}
