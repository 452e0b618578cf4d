import Testing

@testable import PushModel

/// Known-answer vectors: published ones where they exist, otherwise computed with an independent implementation
/// (Python, from the published constants). Tokens, seeded ids and shard assignments depend on every digit.
@Suite struct StableRandomTests {
    @Test func fnv1a64MatchesPublishedVectors() {
        #expect(StableHash.fnv1a64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64("a".utf8) == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a64("foobar".utf8) == 0x8594_4171_f739_67e8)
        #expect(StableHash.fnv1a64(Array("foobar".utf8)) == StableHash.fnv1a64("foobar".utf8))
    }

    @Test func fnv1a64WithAnotherBasis() {
        #expect(StableHash.fnv1a64([UInt8](), basis: 7) == 7)
        #expect(StableHash.fnv1a64("a".utf8, basis: StableHash.fnvOffsetBasis ^ 42) == 0xaf64_064c_8602_33ea)
    }

    /// Vigna's reference `splitmix64.c` seeded with 1234567, and the well-known first outputs from seed 0.
    @Test func splitMix64MatchesReferenceSequence() {
        var rng = SplitMix64(seed: 1_234_567)
        #expect(
            (0..<5).map { _ in rng.next() } == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ])
        var zero = SplitMix64(seed: 0)
        #expect(
            [zero.next(), zero.next(), zero.next()]
                == [0xe220_a839_7b1d_cdaf, 0x6e78_9e6a_a1b9_65f4, 0x06c4_5d18_8009_454f])
    }

    @Test func splitMix64MixVectors() {
        #expect(StableHash.splitMix64Mix(0) == 0)
        #expect(StableHash.splitMix64Mix(1) == 0x5692_161d_100b_05e5)
        #expect(StableHash.splitMix64Mix(0xdead_beef) == 0x4e06_2702_ec92_9eea)
    }

    @Test func fmix64Vectors() {
        #expect(StableHash.fmix64(0) == 0)
        #expect(StableHash.fmix64(1) == 0xb456_bcfc_34c2_cb2c)
        #expect(StableHash.fmix64(0xdead_beef) == 0xd24b_d59f_862a_1dac)
        #expect(StableHash.fmix64(0xcbf2_9ce4_8422_2325) == 0xefd0_1f60_ba99_2926)
    }

    @Test func uuidTextWritesEveryDigitInPlace() {
        #expect(
            UUIDText.lowercase(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
                == "01234567-89ab-cdef-fedc-ba9876543210")
        #expect(UUIDText.lowercase(high: 0, low: .max) == "00000000-0000-0000-ffff-ffffffffffff")
        #expect(UUIDText.lowercase(high: .max, low: 0) == "ffffffff-ffff-ffff-0000-000000000000")
    }

    @Test func uuidTextVersion4SetsVersionAndVariantOnly() {
        #expect(
            UUIDText.version4(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
                == "01234567-89ab-4def-bedc-ba9876543210")
        #expect(UUIDText.version4(high: 0, low: 0) == "00000000-0000-4000-8000-000000000000")
        #expect(UUIDText.version4(high: .max, low: .max) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }
}
