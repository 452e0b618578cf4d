import Foundation
import PushCrypto
import PushModel
import YAMLSource

/// Why `ProviderTokenRules` refused a token, in words a backend developer can act on: which rule and by
/// how much ("iat is 8 h 12 min ahead of the gateway's clock"). Runs only for refused requests, so it
/// decodes the token again step by step instead of slowing the accepted path.
enum ProviderTokenExplanation {
    static func explain(
        _ reason: APNsReason, authorization: String?, endpoint: APNsEnvironment, now: Date, rules: ProviderTokenRules,
        state: ProviderTokenConnectionState
    ) -> String {
        guard let token = ProviderTokenRules.bearerToken(authorization) else {
            if authorization == nil {
                return "no authorization header (token auth needs `authorization: bearer <JWT>`)"
            }
            return "the authorization header is not `bearer <JWT>`"
        }
        let clock = Int64(now.timeIntervalSince1970)
        switch reason {
        case .invalidProviderToken:
            return invalid(token, now: clock, rules: rules)
        case .expiredProviderToken:
            guard let d = DecodedProviderToken.decode(token) else { return "the token expired" }
            return "iat is \(IssuedAtClaim.describe(seconds: clock - d.issuedAt)) older than the gateway's clock "
                + "(iat \(d.issuedAt), gateway \(clock)); APNs refuses tokens older than 1 h: sign a new one"
        case .badEnvironmentKeyIdInToken:
            let d = DecodedProviderToken.decode(token)
            let env = d.flatMap { rules.keys[$0.keyID]?.environment }?.rawValue ?? "the other"
            return "key \(d?.keyID ?? "?") is registered for the \(env) environment, this is \(endpoint.rawValue)"
        case .unrelatedKeyIdInToken:
            return "key \(DecodedProviderToken.decode(token)?.keyID ?? "?") is not related to key "
                + "\(state.boundKeyID ?? "?") that the connection's first push used; open a new connection"
        case .tooManyProviderTokenUpdates:
            let since = state.lastSwitch.map { Int64(now.timeIntervalSince($0)) } ?? 0
            return "a new token \(IssuedAtClaim.describe(seconds: since)) after the previous one on this connection; "
                + "APNs allows a new token at most every 20 min: reuse the token for 20–60 min"
        default:
            return reason.rawValue
        }
    }

    /// The first InvalidProviderToken rule the token breaks.
    static func invalid(_ token: String, now: Int64, rules: ProviderTokenRules) -> String {
        let jwt: JWT
        do { jwt = try JWT(compact: token) } catch { return error.description }
        do { try jwt.requireAlgorithm("ES256") } catch { return "\(error.description) (APNs accepts only ES256)" }
        guard let kid = jwt.keyID else { return "the JWT header has no \"kid\" (the 10-character Key ID)" }
        guard let key = rules.keys[kid] else {
            let known = rules.keys.keys.sorted()
            return "kid \(kid) is not a key the gateway knows (known: \(known.joined(separator: ", ")))"
                + (Spelling.closest(to: kid, in: known).map { "; did you mean \($0)?" } ?? "")
        }
        do { try jwt.verifyES256(using: key.publicKey) } catch { return error.description }
        guard let iss = jwt.issuer else { return "the claims have no string \"iss\" (the 10-character Team ID)" }
        guard iss == key.teamID else { return "iss \(iss) is not the team of key \(kid) (\(key.teamID))" }
        guard let iat = IssuedAtClaim(foundationValue: jwt.claims["iat"]) else {
            return "the claims have no \"iat\" as a number of seconds since the epoch"
        }
        if Double(iat.seconds) > Double(now) + ProviderTokenRules.maxTokenAge {
            return "iat is \(IssuedAtClaim.describe(seconds: iat.seconds - now)) ahead of the gateway's clock "
                + "(iat \(iat.seconds), gateway \(now)); APNs refuses tokens issued more than 1 h in the future"
        }
        return "the token does not verify"
    }
}
