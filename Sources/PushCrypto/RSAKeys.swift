import COpenSSL

/// An RSA private key (e.g. the `private_key` of a Google service-account JSON). Stored as PKCS#8 DER.
public struct RSAPrivateKey: Sendable, Hashable {
    /// PKCS#8 PrivateKeyInfo DER.
    public let pkcs8DER: [UInt8]

    /// Loads PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA PRIVATE KEY") PEM.
    public init(pem: String) throws {
        let key = try EVPKey.privateKey(pem: pem)
        try Self.requireRSA(key)
        pkcs8DER = try key.pkcs8DER()
    }

    /// Loads PKCS#8 (or PKCS#1) DER.
    public init(der: [UInt8]) throws {
        let key = try EVPKey.privateKey(der: der)
        try Self.requireRSA(key)
        pkcs8DER = try key.pkcs8DER()
    }

    /// Generates a key of `bits` (2048 by default; generation takes ~0.1 s).
    public static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        OpenSSL.clearErrors()
        guard let raw = pc_EVP_RSA_gen(UInt32(bits)) else {
            throw KeyError.operationFailed(operation: "generate an RSA key", detail: OpenSSL.drainErrors())
        }
        return RSAPrivateKey(validatedDER: try EVPKey(taking: raw).pkcs8DER())
    }

    private init(validatedDER: [UInt8]) { pkcs8DER = validatedDER }

    /// PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), the form Google puts in service-account JSON.
    public var pkcs8PEM: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// The matching public key.
    public var publicKey: RSAPublicKey {
        let der = (try? EVPKey.privateKey(der: pkcs8DER).publicKeyDER()) ?? []
        return RSAPublicKey(validatedDER: der)
    }

    /// RSASSA-PKCS1-v1_5 SHA-256 signature (JWS "RS256").
    public func signature(for message: [UInt8]) throws -> [UInt8] {
        try evpKey().signSHA256(message)
    }

    func evpKey() throws -> EVPKey { try EVPKey.privateKey(der: pkcs8DER) }

    static func requireRSA(_ key: EVPKey) throws {
        guard key.isRSA else { throw KeyError.wrongKeyType(expected: "RSA", found: key.typeDescription) }
    }
}

/// An RSA public key. Stored as SubjectPublicKeyInfo DER.
public struct RSAPublicKey: Sendable, Hashable {
    /// SubjectPublicKeyInfo DER.
    public let spkiDER: [UInt8]

    /// Loads "-----BEGIN PUBLIC KEY-----" PEM.
    public init(pem: String) throws {
        let key = try EVPKey.publicKey(pem: pem)
        try RSAPrivateKey.requireRSA(key)
        spkiDER = try key.publicKeyDER()
    }

    /// Loads SubjectPublicKeyInfo DER.
    public init(der: [UInt8]) throws {
        let key = try EVPKey.publicKey(der: der)
        try RSAPrivateKey.requireRSA(key)
        spkiDER = try key.publicKeyDER()
    }

    init(validatedDER: [UInt8]) { spkiDER = validatedDER }

    /// "-----BEGIN PUBLIC KEY-----" PEM.
    public var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    /// The modulus size in bits.
    public var bits: Int {
        guard let key = try? EVPKey.publicKey(der: spkiDER) else { return 0 }
        return Int(EVP_PKEY_get_bits(key.pointer))
    }

    /// Checks an RSASSA-PKCS1-v1_5 SHA-256 signature over `message`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? EVPKey.publicKey(der: spkiDER) else { return false }
        return key.verifySHA256(signature, message: message)
    }
}
