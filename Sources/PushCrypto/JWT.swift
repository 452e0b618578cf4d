import Foundation

/// A decoded compact JWS/JWT. Decoding checks only structure (three base64url segments, JSON objects);
/// call `verifyES256(using:)` or `verifyRS256(using:)` to check the algorithm and signature.
package struct JWT: Sendable, Equatable {
    /// The token as received.
    package let compact: String
    /// Decoded header JSON bytes.
    let headerJSON: [UInt8]
    /// Decoded claims (payload) JSON bytes.
    let claimsJSON: [UInt8]
    /// The ASCII bytes `base64url(header) "." base64url(claims)` that the signature covers.
    package let signingInput: [UInt8]
    /// Decoded signature bytes (raw r‖s for ES256, PKCS#1 v1.5 for RS256).
    package let signature: [UInt8]

    /// Header `alg`, if a string.
    package let algorithm: String?
    /// Header `kid`, if a string (the 10-character APNs Key ID).
    package let keyID: String?
    /// Header `typ`, if a string.
    package let type: String?
    /// Claim `iss`, if a string (the 10-character Team ID for APNs).
    package let issuer: String?
    /// Claim `iat` in whole seconds since the epoch, if an integer (fractional or string values give nil).
    package let issuedAt: Int?
    /// Claim `iat` as APNs reads it: also a fractional number or a numeric string (see `IssuedAtClaim`).
    package let issuedAtClaim: IssuedAtClaim?

    /// Decodes a compact JWT. Throws `.malformed`, `.invalidBase64(segment)` or `.invalidJSON(segment)`.
    package init(compact: String) throws(JWTError) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed(detail: "expected 3 dot-separated segments, found \(parts.count)")
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else { throw .malformed(detail: "empty header or claims segment") }
        guard let header = Base64URL.decode(parts[0]) else { throw .invalidBase64(.header) }
        guard let claims = Base64URL.decode(parts[1]) else { throw .invalidBase64(.claims) }
        guard let signature = Base64URL.decode(parts[2]) else { throw .invalidBase64(.signature) }
        guard let headerObject = Self.jsonObject(header) else { throw .invalidJSON(.header) }
        guard let claimsObject = Self.jsonObject(claims) else { throw .invalidJSON(.claims) }

        self.compact = compact
        self.headerJSON = header
        self.claimsJSON = claims
        self.signature = signature
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.algorithm = headerObject["alg"] as? String
        self.keyID = headerObject["kid"] as? String
        self.type = headerObject["typ"] as? String
        self.issuer = claimsObject["iss"] as? String
        self.issuedAt = Self.integer(claimsObject["iat"])
        self.issuedAtClaim = IssuedAtClaim(foundationValue: claimsObject["iat"])
    }

    /// The header as a JSON dictionary.
    package var header: [String: Any] { Self.jsonObject(headerJSON) ?? [:] }
    /// The claims as a JSON dictionary.
    package var claims: [String: Any] { Self.jsonObject(claimsJSON) ?? [:] }

    /// Checks `alg` is ES256, the signature is 64 bytes, and it verifies against `key`.
    package func verifyES256(using key: P256PublicKey) throws(JWTError) {
        try requireAlgorithm("ES256")
        guard signature.count == 64 else { throw .wrongSignatureLength(expected: 64, actual: signature.count) }
        guard key.isValidSignature(raw: signature, for: signingInput) else { throw .signatureMismatch }
    }

    /// Checks `alg` is RS256, the signature is as long as the modulus, and it verifies against `key`.
    package func verifyRS256(using key: RSAPublicKey) throws(JWTError) {
        try requireAlgorithm("RS256")
        let expected = (key.bits + 7) / 8
        guard signature.count == expected else {
            throw .wrongSignatureLength(expected: expected, actual: signature.count)
        }
        guard key.isValidSignature(signature, for: signingInput) else { throw .signatureMismatch }
    }

    /// Classifies `alg` against the one required: none, HMAC, other, or missing are distinct errors.
    package func requireAlgorithm(_ expected: String) throws(JWTError) {
        guard let algorithm else { throw .missingAlgorithm }
        if algorithm == expected { return }
        if algorithm.lowercased() == "none" { throw .algorithmNone }
        if algorithm.uppercased().hasPrefix("HS") { throw .symmetricAlgorithm(algorithm) }
        throw .unexpectedAlgorithm(found: algorithm, expected: expected)
    }

    package static func == (lhs: JWT, rhs: JWT) -> Bool { lhs.compact == rhs.compact }

    static func jsonObject(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [])) as? [String: Any]
    }

    /// Integer seconds from a JSON number; nil for booleans, fractions and strings.
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        if String(cString: number.objCType) == "c" { return nil }  // JSON true/false
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }
}
