import PushModel

/// Deterministic token generation: the same seed, device, app and environment give the same tokens.
public struct TokenGenerator: Sendable, Equatable {
    public var seed: UInt64
    public init(seed: UInt64) { self.seed = seed }

    /// A 32-byte APNs device token.
    public func apnsToken(udid: String, bundleID: String, environment: String, generation: Int) -> DeviceToken {
        var rng = SplitMix64(state: seed ^ Self.fnv1a("apns|\(udid)|\(bundleID)|\(environment)|\(generation)"))
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: rng.next().bigEndian) { bytes.append(contentsOf: $0) } }
        return DeviceToken(bytes: bytes)!
    }

    /// An FCM registration token in the usual `<instance id>:APA91b<…>` shape.
    public func fcmToken(udid: String, bundleID: String, senderID: String, generation: Int) -> String {
        var rng = SplitMix64(state: seed ^ Self.fnv1a("fcm|\(udid)|\(bundleID)|\(senderID)|\(generation)"))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        func chars(_ n: Int) -> String { String((0..<n).map { _ in alphabet[Int(rng.next() % 64)] }) }
        let instance = chars(22)
        return instance + ":APA91b" + chars(134)
    }

    /// FNV-1a: a stable hash (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, seedable, good enough for identifiers.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
