import Synchronization

/// Lowercase UUID strings for `apns-id` and `apns-unique-id`, made without a system call per id.
///
/// Each id is a process-wide counter run through a bijective 64-bit mixer (splitmix64's finalizer) twice with
/// two random seeds, so ids never repeat within a process (for 2^64 ids) and look random. Version 4 and
/// variant bits are set as in `UUID()`. `Foundation.UUID()` opened `/dev/urandom` per call, which cost more
/// than the rest of a request's validation.
enum APNsIDGenerator {
    private static let seeds: (UInt64, UInt64) = {
        var g = SystemRandomNumberGenerator()
        return (g.next(), g.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A fresh `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx` string (lowercase hex).
    static func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        let high = (mix(n ^ seeds.0) & ~0xF000) | 0x4000  // version 4 in bits 12…15
        let low = (mix(n &+ seeds.1) & ~(0xC << 60)) | (0x8 << 60)  // variant 10xx
        return format(high: high, low: low)
    }

    /// splitmix64's output function: a bijection on UInt64.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// `high` then `low` as 32 lowercase hex digits, dashed 8-4-4-4-12.
    static func format(high: UInt64, low: UInt64) -> String {
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
