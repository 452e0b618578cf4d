/// Which of the three dot-separated parts of a compact JWT a problem is in.
package enum JWTSegment: String, Sendable, Equatable {
    case header, claims, signature
}

/// Why a JWT could not be decoded, signed or verified. The APNs gateway maps every case to
/// `InvalidProviderToken` and logs `description` as the internal detail.
package enum JWTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three non-empty base64url segments separated by dots (`detail` says what was seen).
    case malformed(detail: String)
    /// A segment contains characters outside base64url, padding, or an impossible length.
    case invalidBase64(JWTSegment)
    /// The header or claims segment is not a JSON object.
    case invalidJSON(JWTSegment)
    /// The header has no string `alg`.
    case missingAlgorithm
    /// `alg` is `none`: an unsigned token, always refused.
    case algorithmNone
    /// `alg` is an HMAC algorithm (HS256/384/512): shared-secret tokens are refused.
    case symmetricAlgorithm(String)
    /// `alg` is some other algorithm than the one the verifier requires.
    case unexpectedAlgorithm(found: String, expected: String)
    /// The signature has the wrong number of bytes for the algorithm (ES256 needs 64).
    case wrongSignatureLength(expected: Int, actual: Int)
    /// The signature does not verify against the key.
    case signatureMismatch
    /// A claim or header could not be serialized, or the key failed to sign.
    case signingFailed(detail: String)

    package var description: String {
        switch self {
        case .malformed(let detail):
            return "malformed JWT: \(detail); a compact JWT is base64url(header).base64url(claims).base64url(signature)"
        case .invalidBase64(let segment):
            return "JWT \(segment.rawValue) is not unpadded base64url (only A-Z a-z 0-9 - _ are allowed, no '=')"
        case .invalidJSON(let segment):
            return "JWT \(segment.rawValue) does not decode to a JSON object (it is not valid JSON, not an object, or "
                + "holds a number out of range such as 1e400)"
        case .missingAlgorithm:
            return "JWT header has no \"alg\"; APNs requires {\"alg\":\"ES256\",\"kid\":\"<key id>\"}"
        case .algorithmNone:
            return "JWT uses alg \"none\" (unsigned); sign it with ES256 using your .p8 key"
        case .symmetricAlgorithm(let alg):
            return "JWT uses \(alg), a shared-secret algorithm; APNs accepts only ES256 signed with your .p8 key"
        case .unexpectedAlgorithm(let found, let expected):
            return "JWT uses alg \"\(found)\" but \(expected) is required"
        case .wrongSignatureLength(let expected, let actual):
            return "JWT signature is \(actual) bytes but must be \(expected); ES256 uses raw r‖s, not DER"
        case .signatureMismatch:
            return
                "JWT signature does not verify: the token was not signed by the key registered for this kid, or it was altered"
        case .signingFailed(let detail):
            return "could not sign JWT: \(detail)"
        }
    }
}
