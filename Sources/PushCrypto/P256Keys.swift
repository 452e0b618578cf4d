import COpenSSL

/// A P-256 (prime256v1) private key, as in Apple's `AuthKey_<KEYID>.p8` files. Stored as PKCS#8 DER.
public struct P256PrivateKey: Sendable, Hashable {
    /// PKCS#8 PrivateKeyInfo DER.
    public let pkcs8DER: [UInt8]

    /// Loads PKCS#8 ("BEGIN PRIVATE KEY", the `.p8` format) or SEC1 ("BEGIN EC PRIVATE KEY") PEM.
    /// Throws `KeyError.wrongKeyType` for RSA or other curves, `KeyError.invalidPEM` for unreadable text.
    public init(pem: String) throws {
        let key = try EVPKey.privateKey(pem: pem)
        try Self.requireP256(key)
        pkcs8DER = try key.pkcs8DER()
    }

    /// Loads PKCS#8 (or SEC1) DER.
    public init(der: [UInt8]) throws {
        let key = try EVPKey.privateKey(der: der)
        try Self.requireP256(key)
        pkcs8DER = try key.pkcs8DER()
    }

    /// Generates a fresh random key.
    public static func generate() throws -> P256PrivateKey {
        OpenSSL.clearErrors()
        guard let raw = "P-256".withCString({ pc_EVP_EC_gen($0) }) else {
            throw KeyError.operationFailed(operation: "generate a P-256 key", detail: OpenSSL.drainErrors())
        }
        return P256PrivateKey(validatedDER: try EVPKey(taking: raw).pkcs8DER())
    }

    private init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), the format of Apple's `.p8` files.
    public var pkcs8PEM: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// The matching public key.
    public var publicKey: P256PublicKey {
        // The DER was validated at init, so re-parsing cannot fail short of memory exhaustion.
        let der = (try? EVPKey.privateKey(der: pkcs8DER).publicKeyDER()) ?? []
        return P256PublicKey(validatedDER: der)
    }

    /// ECDSA-SHA256 signature in DER (ECDSA-Sig-Value) form, as `openssl dgst -sha256 -sign` makes.
    public func signatureDER(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }

    /// ECDSA-SHA256 signature in JOSE form: raw r‖s, 64 bytes.
    public func signatureRaw(for message: [UInt8]) throws -> [UInt8] {
        try ECDSASignature.rawFromDER(try signatureDER(for: message))
    }

    func evpKey() throws -> EVPKey { try EVPKey.privateKey(der: pkcs8DER) }

    static func requireP256(_ key: EVPKey) throws {
        guard key.isP256 else { throw KeyError.wrongKeyType(expected: "P-256 EC", found: key.typeDescription) }
    }
}

/// A P-256 public key. Stored as SubjectPublicKeyInfo DER; equal keys have equal DER.
public struct P256PublicKey: Sendable, Hashable {
    /// SubjectPublicKeyInfo DER.
    public let spkiDER: [UInt8]

    /// Loads "-----BEGIN PUBLIC KEY-----" PEM.
    public init(pem: String) throws {
        let key = try EVPKey.publicKey(pem: pem)
        try P256PrivateKey.requireP256(key)
        spkiDER = try key.publicKeyDER()
    }

    /// Loads SubjectPublicKeyInfo DER.
    public init(der: [UInt8]) throws {
        let key = try EVPKey.publicKey(der: der)
        try P256PrivateKey.requireP256(key)
        spkiDER = try key.publicKeyDER()
    }

    init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// "-----BEGIN PUBLIC KEY-----" PEM.
    public var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    /// Checks a DER ECDSA-SHA256 signature over `message`.
    public func isValidSignature(der signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? EVPKey.publicKey(der: spkiDER) else { return false }
        return key.verifySHA256(signature, message: message)
    }

    /// Checks a JOSE raw r‖s (64-byte) ECDSA-SHA256 signature over `message`.
    public func isValidSignature(raw signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignature.derFromRaw(signature) else { return false }
        return isValidSignature(der: der, for: message)
    }
}
