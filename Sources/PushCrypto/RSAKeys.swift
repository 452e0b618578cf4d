import COpenSSL

/// An RSA private key (e.g. the `private_key` of a Google service-account JSON). Stored as PKCS#8 DER.
package struct RSAPrivateKey: Sendable, Hashable {
    /// PKCS#8 PrivateKeyInfo DER.
    package let pkcs8DER: [UInt8]

    /// Loads PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA PRIVATE KEY") PEM.
    package init(pem: String) throws { pkcs8DER = try KeyKind.rsa.privateKeyDER(pem: pem) }

    /// Loads PKCS#8 (or PKCS#1) DER.
    package init(der: [UInt8]) throws { pkcs8DER = try KeyKind.rsa.privateKeyDER(der: der) }

    /// Generates a key of `bits` (2048 by default; generation takes ~0.1 s).
    package static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        OpenSSL.clearErrors()
        return RSAPrivateKey(validatedDER: try KeyKind.rsa.generatedDER(pc_EVP_RSA_gen(UInt32(bits))))
    }

    private init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), the form Google puts in service-account JSON.
    package var pkcs8PEM: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// The matching public key.
    package var publicKey: RSAPublicKey { RSAPublicKey(validatedDER: KeyKind.publicKeyDER(ofValidated: pkcs8DER)) }

    /// RSASSA-PKCS1-v1_5 SHA-256 signature (JWS "RS256").
    package func signature(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }

    func evpKey() throws -> EVPKey { try EVPKey.privateKey(der: pkcs8DER) }
}

/// An RSA public key. Stored as SubjectPublicKeyInfo DER.
package struct RSAPublicKey: Sendable, Hashable {
    /// SubjectPublicKeyInfo DER.
    package let spkiDER: [UInt8]

    /// Loads "-----BEGIN PUBLIC KEY-----" PEM.
    package init(pem: String) throws { spkiDER = try KeyKind.rsa.publicKeyDER(pem: pem) }

    /// Loads SubjectPublicKeyInfo DER.
    package init(der: [UInt8]) throws { spkiDER = try KeyKind.rsa.publicKeyDER(der: der) }

    init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// "-----BEGIN PUBLIC KEY-----" PEM.
    package var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    /// The modulus size in bits.
    package var bits: Int {
        guard let key = try? EVPKey.publicKey(der: spkiDER) else { return 0 }
        return Int(EVP_PKEY_get_bits(key.pointer))
    }

    /// Checks an RSASSA-PKCS1-v1_5 SHA-256 signature over `message`.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? EVPKey.publicKey(der: spkiDER) else { return false }
        return key.verifySHA256(signature, message: message)
    }
}
