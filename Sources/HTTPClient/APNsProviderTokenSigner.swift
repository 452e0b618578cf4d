import Foundation
import PushCrypto
import PushModel
import Synchronization

/// Makes and caches the ES256 provider token (JWT) an APNs provider puts in `authorization: bearer …`.
///
/// Apple wants a token refreshed no more than once every 20 minutes and no less than once an hour, so
/// the cached token is reused until it is `refreshAfter` old (default 50 minutes), measured on the
/// injected clock. Safe to share between tasks.
package final class APNsProviderTokenSigner: Sendable {
    /// The 10-character Team ID (`iss`).
    package let teamID: String
    /// The 10-character Key ID of the `.p8` key (`kid`).
    package let keyID: String
    /// Age at which the cached token is replaced.
    let refreshAfter: TimeInterval

    private let key: P256PrivateKey
    private let clock: any PushClock
    private let cache = Mutex<CachedToken?>(nil)

    private struct CachedToken {
        var token: String
        var issuedAt: Int
    }

    package init(
        teamID: String, keyID: String, privateKey: P256PrivateKey, clock: any PushClock = SystemClock(),
        refreshAfter: TimeInterval = 50 * 60
    ) {
        self.teamID = teamID
        self.keyID = keyID
        self.key = privateKey
        self.clock = clock
        self.refreshAfter = refreshAfter
    }

    /// The token to send now: the cached one while it is younger than `refreshAfter`, else a new one
    /// with `iat` = now (which is then cached).
    package func currentToken() throws(JWTError) -> String {
        let now = Int(clock.now().timeIntervalSince1970)
        if let cached = cache.withLock({ $0 }), Double(now - cached.issuedAt) < refreshAfter, now >= cached.issuedAt {
            return cached.token
        }
        return try force(issuedAt: now)
    }

    /// Signs a token with exactly this `iat` (epoch seconds) and caches it, e.g. to test that a gateway
    /// rejects a token older than an hour. Later `currentToken()` calls reuse it until it is stale.
    @discardableResult
    func force(issuedAt: Int) throws(JWTError) -> String {
        let token = try JWT.apnsProviderToken(teamID: teamID, keyID: keyID, issuedAt: issuedAt, key: key)
        cache.withLock { $0 = CachedToken(token: token, issuedAt: issuedAt) }
        return token
    }

    /// `iat` of the cached token, if any.
    var cachedIssuedAt: Int? { cache.withLock { $0?.issuedAt } }

    /// Drops the cached token so the next `currentToken()` signs a new one.
    func invalidate() { cache.withLock { $0 = nil } }
}
