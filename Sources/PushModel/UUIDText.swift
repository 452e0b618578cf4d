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
        // A byte (two digits from a table) per step: the nibble-per-step loop with a branch per digit was this
        // function's whole cost in profiles.
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            let d = digits.utf8Start
            var i = 0
            for k in 0..<16 {
                if k == 4 || k == 6 || k == 8 || k == 10 {
                    out[i] = UInt8(ascii: "-")
                    i += 1
                }
                let word = k < 8 ? high : low
                let byte = Int(truncatingIfNeeded: word >> UInt64(56 - (k & 7) * 8)) & 0xFF
                out[i] = d[byte >> 4]
                out[i + 1] = d[byte & 0xF]
                i += 2
            }
            return i
        }
    }
}
