import Foundation
import HTTPServer
import PushCrypto
import PushModel
import Synchronization

/// What one connection has learnt from provider tokens so far (kept in `ConnectionContext` storage).
package struct ProviderTokenConnectionState: Sendable, Equatable {
    /// Team bound by the first valid token.
    package var teamID: String?
    /// Key bound by the first valid token.
    var boundKeyID: String?
    /// The token string last accepted on this connection and its key (its signature is not checked again
    /// while the gateway holds that same key).
    package var currentToken: String?
    var currentTokenKeyID: String?
    /// The key that verified `currentToken` (a replaced key forces a new verification) and its `iat`.
    var currentTokenKey: APNsProviderKey?
    var currentTokenIssuedAt: Int64?
    /// The warning `currentToken` earned (a non-integer `iat`), repeated on every request that carries it.
    var currentTokenWarning: String?
    /// The rules' `revision` when `currentTokenKey` was looked up: the same revision holds the same keys.
    var currentTokenRevision: UInt64?
    /// The `authorization` value that carried `currentToken`: the same value again is not parsed again.
    var currentAuthorization: String?
    /// Key and `iat` of the token in use: a token with other values is a "token update".
    var currentKeyID: String?
    var currentIssuedAt: Int64?
    /// When the connection last switched to a new token (the first valid token counts).
    var lastSwitch: Date?
    /// How many valid token switches the connection made (1 after the first valid token).
    var switches: Int = 0

    package init() {}
}

/// `ConnectionContext` storage key for the provider-token binding.
package enum ProviderTokenBindingKey: ConnectionStorageKey {
    package static var defaultValue: ProviderTokenConnectionState { ProviderTokenConnectionState() }
}

/// A request's provider identity after the token rules passed.
package struct AuthorizedProvider: Sendable, Equatable {
    package var teamID: String
    package var keyID: String
    /// `nil`: team-scoped key; otherwise the bundle IDs a topic-specific key covers.
    var keyTopics: Set<String>?
    /// True when this request carried the connection's first valid token (lift the one-stream limit).
    var isFirstValidToken: Bool
}

/// The JWT rules of APNs token authentication, free of I/O. Order:
/// MissingProviderToken (absent/blank/not `bearer`) → InvalidProviderToken (structure, `alg` ≠ ES256,
/// unknown `kid`, bad signature, `iss` ≠ key's team, `iat` more than 1 h in the future)
/// → BadEnvironmentKeyIdInToken → ExpiredProviderToken (`iat` more than 3600 s old)
/// → UnrelatedKeyIdInToken (another, unrelated key than the connection's first)
/// → TooManyProviderTokenUpdates (new token < 20 min after the previous switch).
/// A "new token" is one with another `kid` or `iat`; re-signing the same claims (ES256 signatures
/// differ on every signing) is not an update.
package struct ProviderTokenRules: Sendable {
    static let maxTokenAge: TimeInterval = 3600
    static let minTokenUpdateInterval: TimeInterval = 20 * 60

    package var keys: [String: APNsProviderKey] { didSet { revision = Self.nextRevision() } }
    /// Differs between any two key sets (a fresh value whenever `keys` changes): a connection that verified its
    /// token under this revision skips looking its key up and comparing it again.
    private(set) var revision: UInt64
    private static let revisions = Atomic<UInt64>(0)
    private static func nextRevision() -> UInt64 { revisions.add(1, ordering: .relaxed).newValue }

    package init(keys: [APNsProviderKey]) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
        revision = Self.nextRevision()
    }

    /// The bearer token in an `authorization` value, or `nil` when missing, blank or not `bearer`.
    package static func bearerToken(_ authorization: String?) -> String? {
        // ASCII only on purpose: this runs on every request, and Foundation's trimming bridges to NSString.
        guard var a = authorization?.utf8[...] else { return nil }
        func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        while let c = a.first, isBlank(c) { a = a.dropFirst() }
        while let c = a.last, isBlank(c) { a = a.dropLast() }
        guard a.count > 7 else { return nil }
        let scheme = Array("bearer ".utf8)
        for (c, s) in zip(a.prefix(7), scheme) where c | 0x20 != s { return nil }
        a = a.dropFirst(7)
        while let c = a.first, isBlank(c) { a = a.dropFirst() }
        return a.isEmpty ? nil : String(Substring(a))
    }

    /// Applies the rules and, on success, updates the connection `state`.
    func authenticate(
        authorization: String?, endpoint: APNsEnvironment, now: Date, state: inout ProviderTokenConnectionState
    ) -> Result<AuthorizedProvider, APNsReason> {
        var note: String?
        return authenticate(authorization: authorization, endpoint: endpoint, now: now, state: &state, note: &note)
    }

    /// As `authenticate(authorization:endpoint:now:state:)`, and `note` says why a token was refused
    /// (which rule, by how much) or, for an accepted one, what APNs tolerates in it (a warning).
    func authenticate(
        authorization: String?, endpoint: APNsEnvironment, now: Date, state: inout ProviderTokenConnectionState,
        note: inout String?
    ) -> Result<AuthorizedProvider, APNsReason> {
        let result = check(authorization: authorization, endpoint: endpoint, now: now, state: &state)
        switch result {
        case .success: note = state.currentTokenWarning
        case .failure(let reason):
            note = ProviderTokenExplanation.explain(
                reason, authorization: authorization, endpoint: endpoint, now: now, rules: self, state: state)
        }
        return result
    }

    private func check(
        authorization: String?, endpoint: APNsEnvironment, now: Date, state: inout ProviderTokenConnectionState
    ) -> Result<AuthorizedProvider, APNsReason> {
        let repeated = authorization != nil && authorization == state.currentAuthorization
        if repeated, let answer = repeatedToken(endpoint: endpoint, now: now, state: state) { return answer }
        guard let token = repeated ? state.currentToken : Self.bearerToken(authorization) else {
            return .failure(.missingProviderToken)
        }
        let sameAsCurrent = token == state.currentToken
        let key: APNsProviderKey
        let iat: Int64
        var cached = false
        var warning: String?
        if sameAsCurrent, let kid = state.currentTokenKeyID, let k = keys[kid], k == state.currentTokenKey,
            let cachedIAT = state.currentTokenIssuedAt
        {
            // Already decoded and verified on this connection with this very key: skip both, keep the time rules.
            key = k
            iat = cachedIAT
            warning = state.currentTokenWarning
            cached = true
        } else {
            guard let d = DecodedProviderToken.decode(token), d.algorithm == "ES256", let k = keys[d.keyID],
                k.publicKey.isValidSignature(raw: d.signature, for: d.signingInput),
                d.issuer == k.teamID
            else { return .failure(.invalidProviderToken) }
            key = k
            iat = d.issuedAt
            warning = IssuedAtClaim.warning(for: d.issuedAtForm)
        }
        if let broken = Self.timeRules(iat: iat, key: key, endpoint: endpoint, now: now) { return .failure(broken) }

        if let boundKey = state.boundKeyID, boundKey != key.keyID, !related(boundKey, key) {
            return .failure(.unrelatedKeyIdInToken)
        }
        var first = false
        if key.keyID != state.currentKeyID || iat != state.currentIssuedAt {
            if let last = state.lastSwitch, now.timeIntervalSince(last) < Self.minTokenUpdateInterval {
                return .failure(.tooManyProviderTokenUpdates)
            }
            if state.boundKeyID == nil {
                state.boundKeyID = key.keyID
                state.teamID = key.teamID
                first = true
            }
            state.currentKeyID = key.keyID
            state.currentIssuedAt = iat
            state.lastSwitch = now
            state.switches += 1
        }
        if !(cached && repeated) {  // otherwise every one of these already holds this very value
            state.currentToken = token
            state.currentAuthorization = authorization
            state.currentTokenKeyID = key.keyID
            state.currentTokenKey = key
            state.currentTokenIssuedAt = iat
            state.currentTokenWarning = warning
        }
        state.currentTokenRevision = revision
        return .success(
            AuthorizedProvider(teamID: key.teamID, keyID: key.keyID, keyTopics: key.topics, isFirstValidToken: first))
    }

    /// The usual request of a connection: the same `authorization` value as the last accepted one, its key
    /// unchanged since (same `revision`), neither a token update nor another key than the bound one. Then only the
    /// time rules apply — `check`'s full path would reach them with this same key and `iat` and nothing else to
    /// fail — and the state stays as it is (`check` would write back the values it holds). `nil`: anything else,
    /// for `check`'s full path.
    private func repeatedToken(endpoint: APNsEnvironment, now: Date, state: ProviderTokenConnectionState)
        -> Result<AuthorizedProvider, APNsReason>?
    {
        guard state.currentTokenRevision == revision, let iat = state.currentTokenIssuedAt,
            iat == state.currentIssuedAt, let keyID = state.currentTokenKeyID, keyID == state.currentKeyID,
            keyID == state.boundKeyID, let key = state.currentTokenKey
        else { return nil }
        if let broken = Self.timeRules(iat: iat, key: key, endpoint: endpoint, now: now) { return .failure(broken) }
        return .success(
            AuthorizedProvider(teamID: key.teamID, keyID: key.keyID, keyTopics: key.topics, isFirstValidToken: false))
    }

    /// The rules a verified token meets on every request, in the order APNs answers them: `iat` not more than an
    /// hour ahead, a key of this environment, `iat` not more than an hour old. `nil` when all hold.
    private static func timeRules(iat: Int64, key: APNsProviderKey, endpoint: APNsEnvironment, now: Date)
        -> APNsReason?
    {
        // In whole seconds, as `iat` is (and as `pushcheck jwt --verify` and the explanation count): a token 3600 s
        // old is accepted for the whole of that second, where the fraction of `now` made it 3600.4 s and expired.
        let nowSeconds = Double(Int64(now.timeIntervalSince1970.rounded(.down)))
        if Double(iat) > nowSeconds + maxTokenAge { return .invalidProviderToken }
        if let env = key.environment, env != endpoint { return .badEnvironmentKeyIdInToken }
        if nowSeconds - Double(iat) > maxTokenAge { return .expiredProviderToken }
        return nil
    }

    /// Two keys may share a connection when they are both team-scoped keys of one team
    /// (Apple allows two per environment, for rotation) or declared related topic-specific keys.
    func related(_ boundKeyID: String, _ key: APNsProviderKey) -> Bool {
        guard let bound = keys[boundKeyID], bound.teamID == key.teamID else { return false }
        if bound.isTeamScoped && key.isTeamScoped { return true }
        return bound.relatedKeyID == key.keyID || key.relatedKeyID == bound.keyID
    }
}
