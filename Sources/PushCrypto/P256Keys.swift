import COpenSSL

/// A P-256 (prime256v1) private key, as in Apple's `AuthKey_<KEYID>.p8` files. Stored as PKCS#8 DER; loading and
/// PEM as every `TypedPrivateKey`.
package struct P256PrivateKey: TypedPrivateKey {
    package static let kind = KeyKind.p256
    package typealias PublicKey = P256PublicKey
    package let pkcs8DER: [UInt8]

    package init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// Generates a fresh random key.
    package static func generate() throws -> P256PrivateKey {
        OpenSSL.clearErrors()
        return P256PrivateKey(validatedDER: try KeyKind.p256.generatedDER("P-256".withCString { pc_EVP_EC_gen($0) }))
    }

    /// ECDSA-SHA256 signature in DER (ECDSA-Sig-Value) form, as `openssl dgst -sha256 -sign` makes.
    func signatureDER(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }

    /// ECDSA-SHA256 signature in JOSE form: raw r‖s, 64 bytes.
    func signatureRaw(for message: [UInt8]) throws -> [UInt8] {
        try ECDSASignature.rawFromDER(try signatureDER(for: message))
    }
}

/// A P-256 public key. Stored as SubjectPublicKeyInfo DER; equal keys have equal DER.
package struct P256PublicKey: TypedPublicKey {
    package static let kind = KeyKind.p256
    package let spkiDER: [UInt8]

    package init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// Checks a DER ECDSA-SHA256 signature over `message`.
    package func isValidSignature(der signature: [UInt8], for message: [UInt8]) -> Bool {
        evpKey()?.verifySHA256(signature, message: message) ?? false
    }

    /// Checks a JOSE raw r‖s (64-byte) ECDSA-SHA256 signature over `message`.
    package func isValidSignature(raw signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignature.derFromRaw(signature) else { return false }
        return isValidSignature(der: der, for: message)
    }
}
