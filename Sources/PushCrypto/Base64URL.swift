import Foundation

/// Base64url without padding (RFC 7515 §2), as used by every JWT segment.
package enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Encodes the UTF-8 bytes of a string as unpadded base64url.
    package static func encode(_ text: String) -> String { encode(Array(text.utf8)) }

    /// Decodes strict unpadded base64url: only `A–Z a–z 0–9 - _`, no `=` padding, no whitespace,
    /// and a length that is not 1 more than a multiple of 4. Returns nil for anything else.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 4 != 1 else { return nil }
        var standard = [UInt8]()
        standard.reserveCapacity(utf8.count + 3)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        return Array(data)
    }
}
