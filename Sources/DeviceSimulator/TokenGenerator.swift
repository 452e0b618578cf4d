import PushModel

/// Deterministic token generation: the same seed, device, app and environment give the same tokens
/// (`StableHash.fnv1a64` of the inputs, xored into the seed of a `SplitMix64`).
package struct TokenGenerator: Sendable, Equatable {
    package var seed: UInt64
    package init(seed: UInt64) { self.seed = seed }

    /// A 32-byte APNs device token.
    package func apnsToken(udid: String, bundleID: String, environment: String, generation: Int) -> DeviceToken {
        let key = "apns|\(udid)|\(bundleID)|\(environment)|\(generation)"
        var rng = SplitMix64(seed: seed ^ StableHash.fnv1a64(key.utf8))
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: rng.next().bigEndian) { bytes.append(contentsOf: $0) } }
        return DeviceToken(bytes: bytes)!
    }

    /// A 32-byte token of another kind (PushKit VoIP, Push to Talk, …), distinct from the app's APNs token.
    package func pushToken(
        kind: PushTokenKind, udid: String, bundleID: String, environment: String, generation: Int
    ) -> DeviceToken {
        let key = "\(kind.rawValue)-token|\(udid)|\(bundleID)|\(environment)|\(generation)"
        var rng = SplitMix64(seed: seed ^ StableHash.fnv1a64(key.utf8))
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: rng.next().bigEndian) { bytes.append(contentsOf: $0) } }
        return DeviceToken(bytes: bytes)!
    }

    /// The Firebase installation ID the app's SDK registers with: the first 22 characters of `fcmToken`.
    func firebaseInstallationID(udid: String, bundleID: String, senderID: String, generation: Int) -> String {
        String(fcmToken(udid: udid, bundleID: bundleID, senderID: senderID, generation: generation).prefix(22))
    }

    /// An FCM registration token in the usual `<instance id>:APA91b<…>` shape.
    package func fcmToken(udid: String, bundleID: String, senderID: String, generation: Int) -> String {
        let key = "fcm|\(udid)|\(bundleID)|\(senderID)|\(generation)"
        var rng = SplitMix64(seed: seed ^ StableHash.fnv1a64(key.utf8))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        func chars(_ n: Int) -> String { String((0..<n).map { _ in alphabet[Int(rng.next() % 64)] }) }
        let instance = chars(22)
        return instance + ":APA91b" + chars(134)
    }
}
