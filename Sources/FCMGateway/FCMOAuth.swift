import Foundation
import PushCrypto
import PushModel

/// An access token the mock issued.
package struct FCMAccessToken: Sendable, Equatable {
    package var token: String
    package var clientEmail: String
    package var scopes: Set<String>
    package var expiresAt: Date
}

/// The OAuth 2.0 JWT-bearer grant Google's token endpoint implements, free of state and I/O
/// (reference/fcm.md §1.2). Errors are Google's `{"error","error_description"}` with status 400.
package enum FCMOAuth {
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// The `aud` Google's libraries put in every assertion, whatever `token_uri` says.
    static let googleAudience = "https://oauth2.googleapis.com/token"
    static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    static let cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

    /// An OAuth error answer.
    package struct Failure: Error, Equatable, Sendable {
        package var error: String
        package var description: String
        package var status = 400
        package var json: JSONValue { ["error": .string(error), "error_description": .string(description)] }
    }

    /// Accepted audiences: Google's token URLs, or any URL whose path is `/token` (the mock's own `token_uri`).
    static func isAcceptedAudience(_ aud: String) -> Bool {
        if [googleAudience, "https://accounts.google.com/o/oauth2/token", "https://www.googleapis.com/oauth2/v4/token"]
            .contains(aud)
        {
            return true
        }
        return URL(string: aud).map { $0.path == "/token" && ($0.scheme == "http" || $0.scheme == "https") } ?? false
    }

    /// Checks a grant (the form fields) against the known service accounts; returns who and which scopes.
    package static func verify(
        form: [String: String], accounts: [FCMServiceAccount], now: Date
    ) throws(Failure) -> (account: FCMServiceAccount, scopes: Set<String>) {
        guard let grant = form["grant_type"] else {
            throw Failure(error: "unsupported_grant_type", description: "Invalid grant_type: ")
        }
        guard grant == grantType else {
            throw Failure(error: "unsupported_grant_type", description: "Invalid grant_type: \(grant)")
        }
        guard let assertion = form["assertion"], !assertion.isEmpty else {
            throw Failure(error: "invalid_request", description: "Missing required parameter: assertion")
        }
        let jwt: JWT
        do { jwt = try JWT(compact: assertion) } catch {
            throw Failure(error: "invalid_grant", description: "Invalid JWT: \(error)")
        }
        let claims = jwt.claims
        guard let iss = claims["iss"] as? String, let account = accounts.first(where: { $0.clientEmail == iss }) else {
            throw Failure(error: "invalid_grant", description: "Invalid grant: account not found")
        }
        do { try jwt.verifyRS256(using: account.publicKey) } catch {
            throw Failure(error: "invalid_grant", description: "Invalid JWT Signature.")
        }
        guard let aud = claims["aud"] as? String, isAcceptedAudience(aud) else {
            throw Failure(error: "invalid_grant", description: "Invalid JWT: Failed audience check.")
        }
        // iat/exp: a short-lived token (at most an hour) valid now, allowing Google's few minutes of clock skew.
        let nowSeconds = Int(now.timeIntervalSince1970)
        guard let iat = seconds(claims["iat"]), let exp = seconds(claims["exp"]), exp > iat, exp - iat <= 3600,
            iat <= nowSeconds + 300, exp >= nowSeconds - 300
        else {
            throw Failure(
                error: "invalid_grant",
                description:
                    "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
            )
        }
        let scopes = Set(((claims["scope"] as? String) ?? "").split(separator: " ").map(String.init))
        guard !scopes.isEmpty else {
            throw Failure(error: "invalid_scope", description: "Invalid OAuth scope or ID token audience provided.")
        }
        return (account, scopes)
    }

    /// Whole seconds from a JSON number (not a boolean, fraction or string).
    static func seconds(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let d = number.doubleValue
        guard d.rounded() == d, abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    /// Whether the scopes allow FCM sends and topic management.
    static func allowsMessaging(_ scopes: Set<String>) -> Bool {
        scopes.contains(messagingScope) || scopes.contains(cloudPlatformScope)
    }

    /// `application/x-www-form-urlencoded` → fields (first value wins).
    static func parseForm(_ body: [UInt8]) -> [String: String] {
        var out: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            let key = decode(kv[0])
            if out[key] == nil { out[key] = kv.count > 1 ? decode(kv[1]) : "" }
        }
        return out
    }

    /// A fresh opaque token in Google's style (`ya29.` prefix).
    static func newAccessToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 48)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        return "ya29.mock." + Base64URL.encode(bytes)
    }
}
