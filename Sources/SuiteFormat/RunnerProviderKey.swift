import PushCrypto
import Synchronization

/// The runner's own APNs provider key (.p8), made once per process on first use: the key pushcheck's sends sign
/// their provider tokens with (ScenarioRun's `SharedCredentials`), and the one a suite's FCM project names with
/// `apns: { key_id: <the world's provider key> }` (loading a suite needs it to declare that project).
package enum RunnerProviderKey {
    private static let made = Mutex<P256PrivateKey?>(nil)

    /// The process-wide key.
    package static func shared() throws -> P256PrivateKey {
        try made.withLock { (value: inout P256PrivateKey?) throws -> P256PrivateKey in
            if let value { return value }
            let new = try P256PrivateKey.generate()
            value = new
            return new
        }
    }
}
