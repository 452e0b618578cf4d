/// A device token as hex. Apple: "Don't make assumptions about device token size", so any
/// non-empty, even-length hex string is accepted; it is stored lowercased.
package struct DeviceToken: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Lowercase hex.
    package let hex: String

    /// `nil` unless `hex` is non-empty, of even length and only `[0-9a-fA-F]`.
    package init?(hex: String) {
        var copy = hex
        switch copy.withUTF8(DeviceToken.shape) {
        case .invalid: return nil
        case .lowercase: self.hex = hex  // the usual case: no copy
        case .mixedCase: self.hex = hex.lowercased()
        }
    }

    /// No token: a placeholder for a value filled in place (`DeliveredPush.init(unfilledAt:)`); an empty
    /// string holds no reference, so it costs no retain or release when it is overwritten.
    package static var placeholder: DeviceToken { DeviceToken(unchecked: "") }

    private init(unchecked hex: String) { self.hex = hex }

    private enum Shape { case invalid, lowercase, mixedCase }

    /// One pass over contiguous bytes (this runs on every push).
    private static func shape(_ u: UnsafeBufferPointer<UInt8>) -> Shape {
        guard !u.isEmpty, u.count % 2 == 0 else { return .invalid }
        var uppercase = false
        for c in u {
            guard nibble(c) != nil else { return .invalid }
            if c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F") { uppercase = true }
        }
        return uppercase ? .mixedCase : .lowercase
    }

    /// Builds a token from raw bytes (as an app receives it in `didRegisterForRemoteNotifications`).
    package init?(bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        self.hex = String(decoding: out, as: UTF8.self)
    }

    /// The token's bytes.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        let u = Array(hex.utf8)
        var i = 0
        while i + 1 < u.count {
            out.append(DeviceToken.nibble(u[i])! << 4 | DeviceToken.nibble(u[i + 1])!)
            i += 2
        }
        return out
    }

    package var description: String { hex }

    /// True for a non-empty, even-length hex string.
    static func isValidHex(_ s: String) -> Bool {
        let u = s.utf8
        guard !u.isEmpty, u.count % 2 == 0 else { return false }
        return u.allSatisfy { nibble($0) != nil }
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
