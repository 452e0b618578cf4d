/// Hashing and pseudo-randomness that give the same numbers on every machine, run and release, for everything
/// that must be reproducible from a seed: simulated device tokens, the runner's seeded `apns-id`s, the
/// `--shard` split. Swift's `Hasher` is seeded per process and `SystemRandomNumberGenerator` cannot be seeded,
/// so neither can be used for these.
///
/// Changing any function here changes tokens, ids and shard assignments that users have seen: the known-answer
/// tests in `PushModelTests` and the pinned tokens, ids and shards in the other test targets say so.
package enum StableHash {
    /// FNV-1a 64-bit offset basis.
    package static let fnvOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// 64-bit FNV-1a of `bytes` (Fowler, Noll, Vo). `basis` other than the offset basis gives a keyed variant
    /// (the runner's seeded ids start from `fnvOffsetBasis ^ seed`).
    @inlinable
    package static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes, basis: UInt64 = fnvOffsetBasis) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3  // the FNV-1a 64-bit prime
        }
        return hash
    }

    /// SplitMix64's output function (Stafford's "Mix13"): a bijection on `UInt64` in which every input bit
    /// affects every output bit.
    @inlinable
    package static func splitMix64Mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// MurmurHash3's 64-bit finalizer `fmix64`: a bijection on `UInt64` in which every input bit affects every
    /// output bit. FNV-1a alone mixes the last bytes poorly (`fnv1a64 % 4` depends only on the low two bits of
    /// each byte), so hashes that are reduced modulo a small number go through this first.
    @inlinable
    package static func fmix64(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k = k &* 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k = k &* 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seedable generator, good enough for identifiers (not for keys).
/// The same seed gives the same sequence everywhere.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state: the seed, advanced by the golden-ratio increment on every draw.
    package var state: UInt64

    /// A generator whose first draw is `splitMix64Mix(seed &+ 0x9e3779b97f4a7c15)`.
    @inlinable
    package init(seed: UInt64) { state = seed }

    @inlinable
    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return StableHash.splitMix64Mix(state)
    }
}
