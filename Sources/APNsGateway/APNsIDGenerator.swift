import PushModel
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
        return UUIDText.version4(
            high: StableHash.splitMix64Mix(n ^ seeds.0), low: StableHash.splitMix64Mix(n &+ seeds.1))
    }

    /// `high` then `low` as 32 lowercase hex digits, dashed 8-4-4-4-12 (`UUIDText.lowercase`).
    static func format(high: UInt64, low: UInt64) -> String { UUIDText.lowercase(high: high, low: low) }
}
