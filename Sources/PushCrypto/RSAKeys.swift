import COpenSSL

/// An RSA private key (e.g. the `private_key` of a Google service-account JSON). Stored as PKCS#8 DER; loading and
/// PEM as every `TypedPrivateKey`.
package struct RSAPrivateKey: TypedPrivateKey {
    package static let kind = KeyKind.rsa
    package typealias PublicKey = RSAPublicKey
    package let pkcs8DER: [UInt8]

    package init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// Generates a key of `bits` (2048 by default; generation takes ~0.1 s).
    package static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        OpenSSL.clearErrors()
        return RSAPrivateKey(validatedDER: try KeyKind.rsa.generatedDER(pc_EVP_RSA_gen(UInt32(bits))))
    }

    /// RSASSA-PKCS1-v1_5 SHA-256 signature (JWS "RS256").
    package func signature(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }
}

/// An RSA public key. Stored as SubjectPublicKeyInfo DER.
package struct RSAPublicKey: TypedPublicKey {
    package static let kind = KeyKind.rsa
    package let spkiDER: [UInt8]

    package init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// The modulus size in bits.
    package var bits: Int {
        guard let key = evpKey() else { return 0 }
        return Int(EVP_PKEY_get_bits(key.pointer))
    }

    /// Checks an RSASSA-PKCS1-v1_5 SHA-256 signature over `message`.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        evpKey()?.verifySHA256(signature, message: message) ?? false
    }
}
