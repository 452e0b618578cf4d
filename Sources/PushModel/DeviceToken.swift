/// A device token as hex. Apple: "Don't make assumptions about device token size", so any
/// non-empty, even-length hex string is accepted; it is stored lowercased.
///
/// Hashed by a 64-bit digest of `hex` made once, when the token is made: a push's token is looked up by hash in
/// the gateway's registry (and, with devices, its presence table) on every push, and Swift's `Hasher` over the
/// 64 or more hex digits was the largest part of that look-up. Equal tokens have equal digests; the digest is fed
/// to `Hasher`, which is seeded per process, so a table's layout still differs from run to run.
package struct DeviceToken: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Lowercase hex.
    package let hex: String
    /// `DeviceToken.digest(hex)`.
    private let digest: UInt64

    /// `nil` unless `hex` is non-empty, of even length and only `[0-9a-fA-F]`.
    package init?(hex: String) {
        var copy = hex
        switch copy.withUTF8(DeviceToken.shape) {
        case .invalid: return nil
        case .lowercase: self.init(unchecked: hex)  // the usual case: no copy
        case .mixedCase: self.init(unchecked: hex.lowercased())
        }
    }

    /// No token: a placeholder for a value filled in place (`DeliveredPush.init(unfilledAt:)`); an empty
    /// string holds no reference, so it costs no retain or release when it is overwritten.
    package static var placeholder: DeviceToken { DeviceToken(hex: "", digest: 0) }

    private init(unchecked hex: String) {
        var copy = hex
        self.init(hex: hex, digest: copy.withUTF8(DeviceToken.digest))
    }

    private init(hex: String, digest: UInt64) {
        self.hex = hex
        self.digest = digest
    }

    package static func == (a: DeviceToken, b: DeviceToken) -> Bool { a.digest == b.digest && a.hex == b.hex }

    package func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// Coded as before the digest existed: `{"hex": …}`, the hex taken as written.
    private enum CodingKeys: String, CodingKey { case hex }

    package init(from decoder: any Decoder) throws {
        self.init(unchecked: try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .hex))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hex, forKey: .hex)
    }

    /// Eight bytes at a time, multiplied and folded, then `fmix64` with the length: every byte reaches every bit.
    /// Not a keyed hash: the tables it feeds hash it again with `Hasher`'s per-process seed. 0 for no bytes (the
    /// placeholder's, made without a pass).
    private static func digest(_ u: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = u.baseAddress, !u.isEmpty else { return 0 }
        let raw = UnsafeRawPointer(base)
        var h: UInt64 = 0x9e37_79b9_7f4a_7c15
        var i = 0
        while i + 8 <= u.count {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ w) &* 0xff51_afd7_ed55_8ccd
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < u.count {
            tail |= UInt64(u[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xc4ce_b9fe_1a85_ec53
        return StableHash.fmix64(h ^ UInt64(u.count))
    }

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
        self.init(unchecked: String(decoding: out, as: UTF8.self))
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
