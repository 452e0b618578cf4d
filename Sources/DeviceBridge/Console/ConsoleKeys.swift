import APNsGateway
import Foundation
import HTTPClient
import PushCrypto
import Synchronization

/// The provider keys the console signs its sends with, one per team, made on first use. Apple's Push
/// Notifications Console signs with the developer's account; here each team that declares an app gets a
/// team-scoped key with a Key ID of its own (`CONSOLE001`, …), which is added to the gateway before every console
/// send (so `POST /reset` cannot lose it). A backend never has its private half, so the key widens nothing: every
/// other token is judged by the configured keys exactly as before.
final class ConsoleKeys: Sendable {
    private struct Made {
        var signers: [String: APNsProviderTokenSigner] = [:]
        var keys: [String: APNsProviderKey] = [:]
    }
    private let made = Mutex(Made())

    /// The signer for `teamID` (its key added to `apns`).
    func signer(team teamID: String, apns: APNsGateway) throws -> APNsProviderTokenSigner {
        let (signer, key) = try made.withLock { m throws -> (APNsProviderTokenSigner, APNsProviderKey) in
            if let s = m.signers[teamID], let k = m.keys[teamID] { return (s, k) }
            let privateKey = try P256PrivateKey.generate()
            let keyID = "CONSOLE" + String(format: "%03d", m.signers.count + 1)
            let signer = APNsProviderTokenSigner(teamID: teamID, keyID: keyID, privateKey: privateKey)
            let key = APNsProviderKey(keyID: keyID, teamID: teamID, publicKey: privateKey.publicKey)
            m.signers[teamID] = signer
            m.keys[teamID] = key
            return (signer, key)
        }
        apns.addProviderKey(key)
        return signer
    }

    /// The Key ID the console uses for `teamID`, if it made one.
    func keyID(team teamID: String) -> String? { made.withLock { $0.keys[teamID]?.keyID } }

    /// One set per process: `serve` hosts one world.
    static let shared = ConsoleKeys()
}
