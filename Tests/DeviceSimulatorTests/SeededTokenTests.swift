@testable import DeviceSimulator
import Testing

/// Tokens are a pure function of the run's seed, the device, the app and the environment: pinned here so a change
/// to the hash or the generator (which would change every token a suite or a user has seen) fails a test.
@Suite struct SeededTokenTests {
    @Test func apnsTokensArePinned() {
        let seeded = TokenGenerator(seed: 42)
        #expect(
            seeded.apnsToken(
                udid: "00008110-000A1B2C3D4E801E", bundleID: "com.example.app", environment: "development",
                generation: 0
            ).hex == "d2798cfb6c13a3711a1616cbb2d001f13568078ac0ad28126a0e9daed575eb38")
        #expect(
            TokenGenerator(seed: 0).apnsToken(
                udid: "udid-1", bundleID: "com.example.app", environment: "production", generation: 3
            ).hex == "54b4edbe6061a3fcbd296b1f7bf00591b476766f46d1bd98d664de2be68b04d4")
    }

    @Test func fcmTokensArePinned() {
        let token = TokenGenerator(seed: 42).fcmToken(
            udid: "00008110-000A1B2C3D4E801E", bundleID: "com.example.app", senderID: "1234567890", generation: 0)
        #expect(
            token == "daTRC5JxaIArB_Kv_GCBpM:APA91bNGjZs4sKdp9nJn8MNVHehLWZLOeV7s_UPsqHckH1eSAbIsUi-iyS5uwbjrGN5mr6Ds"
                + "yDL9mKViuWcvqZ4FLp1MEoSRtZQFM0jUigkbcjWnnB6BHM-6PUrdk8Ut0HfPokBSBvD0")
    }
}
