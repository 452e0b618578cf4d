import COpenSSL

/// A P-256 (prime256v1) private key, as in Apple's `AuthKey_<KEYID>.p8` files. Stored as PKCS#8 DER.
package struct P256PrivateKey: Sendable, Hashable {
    /// PKCS#8 PrivateKeyInfo DER.
    package let pkcs8DER: [UInt8]

    /// Loads PKCS#8 ("BEGIN PRIVATE KEY", the `.p8` format) or SEC1 ("BEGIN EC PRIVATE KEY") PEM.
    /// Throws `KeyError.wrongKeyType` for RSA or other curves, `KeyError.invalidPEM` for unreadable text.
    package init(pem: String) throws { pkcs8DER = try KeyKind.p256.privateKeyDER(pem: pem) }

    /// Loads PKCS#8 (or SEC1) DER.
    package init(der: [UInt8]) throws { pkcs8DER = try KeyKind.p256.privateKeyDER(der: der) }

    /// Generates a fresh random key.
    package static func generate() throws -> P256PrivateKey {
        OpenSSL.clearErrors()
        return P256PrivateKey(validatedDER: try KeyKind.p256.generatedDER("P-256".withCString { pc_EVP_EC_gen($0) }))
    }

    private init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), the format of Apple's `.p8` files.
    package var pkcs8PEM: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// The matching public key.
    package var publicKey: P256PublicKey { P256PublicKey(validatedDER: KeyKind.publicKeyDER(ofValidated: pkcs8DER)) }

    /// ECDSA-SHA256 signature in DER (ECDSA-Sig-Value) form, as `openssl dgst -sha256 -sign` makes.
    package func signatureDER(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }

    /// ECDSA-SHA256 signature in JOSE form: raw r‖s, 64 bytes.
    package func signatureRaw(for message: [UInt8]) throws -> [UInt8] {
        try ECDSASignature.rawFromDER(try signatureDER(for: message))
    }

    func evpKey() throws -> EVPKey { try EVPKey.privateKey(der: pkcs8DER) }
}

/// A P-256 public key. Stored as SubjectPublicKeyInfo DER; equal keys have equal DER.
package struct P256PublicKey: Sendable, Hashable {
    /// SubjectPublicKeyInfo DER.
    package let spkiDER: [UInt8]

    /// Loads "-----BEGIN PUBLIC KEY-----" PEM.
    package init(pem: String) throws { spkiDER = try KeyKind.p256.publicKeyDER(pem: pem) }

    /// Loads SubjectPublicKeyInfo DER.
    package init(der: [UInt8]) throws { spkiDER = try KeyKind.p256.publicKeyDER(der: der) }

    init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// "-----BEGIN PUBLIC KEY-----" PEM.
    package var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    /// Checks a DER ECDSA-SHA256 signature over `message`.
    package func isValidSignature(der signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? EVPKey.publicKey(der: spkiDER) else { return false }
        return key.verifySHA256(signature, message: message)
    }

    /// Checks a JOSE raw r‖s (64-byte) ECDSA-SHA256 signature over `message`.
    package func isValidSignature(raw signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignature.derFromRaw(signature) else { return false }
        return isValidSignature(der: der, for: message)
    }
}
