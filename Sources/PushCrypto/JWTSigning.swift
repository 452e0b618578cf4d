import Foundation

extension JWT {
    /// Makes an APNs provider token: header `{"alg":"ES256","kid":keyID}`, claims `{"iss":teamID,"iat":issuedAt}`,
    /// signed with the `.p8` key (raw r‖s signature).
    package static func apnsProviderToken(
        teamID: String, keyID: String, issuedAt: Int, key: P256PrivateKey
    ) throws(JWTError) -> String {
        try signES256(header: ["alg": "ES256", "kid": keyID], claims: ["iss": teamID, "iat": issuedAt], key: key)
    }

    /// Signs arbitrary header/claims with ES256. `alg` in `header` is forced to "ES256".
    static func signES256(header: [String: Any], claims: [String: Any], key: P256PrivateKey) throws(JWTError)
        -> String
    {
        var header = header
        header["alg"] = "ES256"
        let input = try signingInput(header: header, claims: claims)
        let signature: [UInt8]
        do { signature = try key.signatureRaw(for: Array(input.utf8)) } catch {
            throw .signingFailed(detail: "\(error)")
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// Signs claims with RS256 (header `{"alg":"RS256","typ":"JWT"}` plus `kid` when given), as Google
    /// service-account assertions are made.
    static func signRS256(claims: [String: Any], keyID: String? = nil, key: RSAPrivateKey) throws(JWTError)
        -> String
    {
        var header: [String: Any] = ["alg": "RS256", "typ": "JWT"]
        if let keyID { header["kid"] = keyID }
        let input = try signingInput(header: header, claims: claims)
        let signature: [UInt8]
        do { signature = try key.signature(for: Array(input.utf8)) } catch {
            throw .signingFailed(detail: "\(error)")
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// `base64url(header) + "." + base64url(claims)` with JSON in sorted-key order (deterministic).
    static func signingInput(header: [String: Any], claims: [String: Any]) throws(JWTError) -> String {
        func encode(_ object: [String: Any], _ segment: JWTSegment) throws(JWTError) -> String {
            guard JSONSerialization.isValidJSONObject(object),
                let data = try? JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { throw .signingFailed(detail: "\(segment.rawValue) is not JSON-serializable") }
            return Base64URL.encode(Array(data))
        }
        return try encode(header, .header) + "." + encode(claims, .claims)
    }
}

extension JWT {
    /// Makes the RS256 assertion a Google service account sends to its `token_uri` (JWT-bearer grant),
    /// as google-auth does: claims `iss` = client email, `aud` = `https://oauth2.googleapis.com/token`
    /// (fixed even when `token_uri` points elsewhere), `scope` = space-joined scopes, `iat`, `exp` = iat + 3600.
    package static func googleServiceAccountAssertion(
        clientEmail: String, scopes: [String], issuedAt: Int, privateKeyID: String? = nil, key: RSAPrivateKey,
        audience: String = "https://oauth2.googleapis.com/token"
    ) throws(JWTError) -> String {
        let claims: [String: Any] = [
            "iss": clientEmail, "aud": audience, "scope": scopes.joined(separator: " "),
            "iat": issuedAt, "exp": issuedAt + 3600,
        ]
        return try signRS256(claims: claims, keyID: privateKeyID, key: key)
    }
}
