/// Lowercase UUID text (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`) from two 64-bit words, for `apns-id` and
/// `apns-unique-id`: the gateway makes one per response and the runner one per seeded send.
///
/// This runs on the gateway's hot path (see `Tests/bench/gateway-bench.sh`): one allocation (the string's
/// storage, written in place), no `String(format:)`, no per-digit branches.
package enum UUIDText {
    /// `high` then `low` with the version 4 and RFC 4122 variant bits set, as `UUID()` does: the result passes
    /// APNs' canonical lowercase UUID check for any input.
    @inlinable
    package static func version4(high: UInt64, low: UInt64) -> String {
        lowercase(
            high: (high & ~0xF000) | 0x4000,  // version 4 in bits 12…15
            low: (low & ~(0xC << 60)) | (0x8 << 60))  // variant 10xx
    }

    /// `high` then `low` as 32 lowercase hex digits, dashed 8-4-4-4-12, bits as given.
    @inlinable
    package static func lowercase(high: UInt64, low: UInt64) -> String {
        // Eight digits per step, written as one 8-byte store (`hexDigits`), the dashes between: a table look-up
        // per byte with a branch per dash position was this function's whole cost in profiles.
        String(unsafeUninitializedCapacity: 36) { out in
            let p = UnsafeMutableRawPointer(out.baseAddress!)
            let a = hexDigits(UInt32(truncatingIfNeeded: high >> 32))
            let b = hexDigits(UInt32(truncatingIfNeeded: high))
            let c = hexDigits(UInt32(truncatingIfNeeded: low >> 32))
            let d = hexDigits(UInt32(truncatingIfNeeded: low))
            let dash = UInt8(ascii: "-")
            p.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
            p.storeBytes(of: UInt32(truncatingIfNeeded: b).littleEndian, toByteOffset: 9, as: UInt32.self)
            p.storeBytes(of: dash, toByteOffset: 13, as: UInt8.self)
            p.storeBytes(of: UInt32(truncatingIfNeeded: b >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)
            p.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
            p.storeBytes(of: UInt32(truncatingIfNeeded: c).littleEndian, toByteOffset: 19, as: UInt32.self)
            p.storeBytes(of: dash, toByteOffset: 23, as: UInt8.self)
            p.storeBytes(of: UInt32(truncatingIfNeeded: c >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)
            p.storeBytes(of: d.littleEndian, toByteOffset: 28, as: UInt64.self)
            return 36
        }
    }

    /// The 8 lowercase hex digits of `x`, most significant first in little-endian byte order (the first digit in
    /// the lowest byte), without a branch: each nibble spread to a byte, then `0`–`9` or `a`–`f` added to all
    /// eight at once.
    @inlinable
    static func hexDigits(_ x: UInt32) -> UInt64 {
        var v = UInt64(x)
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F  // first digit's nibble in the highest byte
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101  // 1 where the nibble is ≥ 10
        v = v &+ 0x3030_3030_3030_3030 &+ letters &* 39  // "0" + n, or "a" + n - 10 ("a" - "0" - 10 = 39)
        return v.byteSwapped
    }
}
