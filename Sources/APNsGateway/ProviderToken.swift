import Foundation
import PushCrypto
import PushModel

/// A provider signing key (.p8) registered with the mock, like a key created in the developer portal.
package struct APNsProviderKey: Sendable, Equatable {
    /// The 10-character Key ID (`kid`).
    package var keyID: String
    /// The 10-character Team ID the key belongs to (`iss` must equal it).
    package var teamID: String
    /// The P-256 public key that verifies the key's ES256 signatures.
    package var publicKey: P256PublicKey
    /// `nil`: the key works on both endpoints; otherwise only on this one (BadEnvironmentKeyIdInToken).
    package var environment: APNsEnvironment?
    /// `nil`: a team-scoped key (every topic of the team); otherwise a topic-specific key for these bundle IDs.
    package var topics: Set<String>?
    /// A topic-specific key may have one related key; the two may alternate on one connection.
    var relatedKeyID: String?

    package init(
        keyID: String, teamID: String, publicKey: P256PublicKey, environment: APNsEnvironment? = nil,
        topics: Set<String>? = nil, relatedKeyID: String? = nil
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
        self.environment = environment
        self.topics = topics
        self.relatedKeyID = relatedKeyID
    }

    /// Loads the key from PEM: a `PUBLIC KEY` or the `.p8` `PRIVATE KEY` itself.
    package init(
        keyID: String, teamID: String, pem: String, environment: APNsEnvironment? = nil, topics: Set<String>? = nil,
        relatedKeyID: String? = nil
    ) throws(APNsConfigurationError) {
        let key: P256PublicKey
        if let k = try? P256PublicKey(pem: pem) {
            key = k
        } else if let k = try? P256PrivateKey(pem: pem) {
            key = k.publicKey
        } else {
            throw .badProviderKey(keyID: keyID, detail: "not a P-256 public key or .p8 private key PEM")
        }
        self.init(
            keyID: keyID, teamID: teamID, publicKey: key, environment: environment, topics: topics,
            relatedKeyID: relatedKeyID)
    }

    /// True for a team-scoped key.
    var isTeamScoped: Bool { topics == nil }
}

/// The parts of a JWT the APNs rules need (signature not yet checked).
package struct DecodedProviderToken: Sendable, Equatable {
    package var algorithm: String
    package var keyID: String
    package var issuer: String
    package var issuedAt: Int64
    /// How `iat` was written (anything but an integer earns a warning on the log entry).
    var issuedAtForm: IssuedAtClaim.Form = .integer
    /// `base64url(header).base64url(claims)`, the bytes the signature covers.
    package var signingInput: [UInt8]
    /// The raw signature bytes (ES256: r‖s, 64 bytes).
    package var signature: [UInt8]

    /// Decodes `header.claims.signature`; `nil` when the structure, JSON or required fields are wrong.
    package static func decode(_ jwt: String) -> DecodedProviderToken? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(String(parts[0])),
            let claimBytes = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2])),
            let header = try? JSONValue.parse(headerBytes),
            let claims = try? JSONValue.parse(claimBytes),
            let alg = header["alg"]?.stringValue,
            let kid = header["kid"]?.stringValue,
            let iss = claims["iss"]?.stringValue,
            let iat = claims["iat"].flatMap(Self.issuedAt)
        else { return nil }
        return DecodedProviderToken(
            algorithm: alg, keyID: kid, issuer: iss, issuedAt: iat.seconds, issuedAtForm: iat.form,
            signingInput: Array("\(parts[0]).\(parts[1])".utf8), signature: signature)
    }

    /// `iat` as APNs reads it: an integer, a fractional number or a numeric string (see `IssuedAtClaim`).
    static func issuedAt(_ value: JSONValue) -> IssuedAtClaim? {
        switch value {
        case .number(let n): return IssuedAtClaim(number: n)
        case .integer(let i): return IssuedAtClaim(number: Double(i))
        case .string(let s): return IssuedAtClaim(string: s)
        default: return nil
        }
    }
}
