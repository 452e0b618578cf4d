/// What the typed private keys (`P256PrivateKey`, `RSAPrivateKey`) share: canonical PKCS#8 DER, loaded through
/// their `KeyKind` (which refuses another kind of key), exported as PEM, with the matching public key.
package protocol TypedPrivateKey: Sendable, Hashable {
    associatedtype PublicKey: TypedPublicKey
    /// The algorithm every key of this type has.
    static var kind: KeyKind { get }
    /// PKCS#8 PrivateKeyInfo DER.
    var pkcs8DER: [UInt8] { get }
    /// Wraps DER that `kind` produced or checked.
    init(validatedDER: [UInt8])
}

/// What the typed public keys (`P256PublicKey`, `RSAPublicKey`) share: canonical SubjectPublicKeyInfo DER (equal
/// keys have equal DER), loaded through their `KeyKind`, exported as PEM.
package protocol TypedPublicKey: Sendable, Hashable {
    static var kind: KeyKind { get }
    /// SubjectPublicKeyInfo DER.
    var spkiDER: [UInt8] { get }
    /// Wraps DER that `kind` produced or checked.
    init(validatedDER: [UInt8])
}

extension TypedPrivateKey {
    /// Loads PKCS#8 ("BEGIN PRIVATE KEY") or the algorithm's own PEM (SEC1 "BEGIN EC PRIVATE KEY", PKCS#1
    /// "BEGIN RSA PRIVATE KEY"). Throws `KeyError.wrongKeyType` for another kind of key, `KeyError.invalidPEM` for
    /// unreadable text.
    package init(pem: String) throws { self.init(validatedDER: try Self.kind.privateKeyDER(pem: pem)) }

    /// Loads PKCS#8 (or the algorithm's own) DER.
    package init(der: [UInt8]) throws { self.init(validatedDER: try Self.kind.privateKeyDER(der: der)) }

    /// PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"): Apple's `.p8` files, the `private_key` of Google's
    /// service-account JSON.
    package var pkcs8PEM: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// The matching public key.
    package var publicKey: PublicKey { PublicKey(validatedDER: KeyKind.publicKeyDER(ofValidated: pkcs8DER)) }

    func evpKey() throws -> EVPKey { try EVPKey.privateKey(der: pkcs8DER) }
}

extension TypedPublicKey {
    /// Loads "-----BEGIN PUBLIC KEY-----" PEM.
    package init(pem: String) throws { self.init(validatedDER: try Self.kind.publicKeyDER(pem: pem)) }

    /// Loads SubjectPublicKeyInfo DER.
    package init(der: [UInt8]) throws { self.init(validatedDER: try Self.kind.publicKeyDER(der: der)) }

    /// "-----BEGIN PUBLIC KEY-----" PEM.
    package var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    func evpKey() -> EVPKey? { try? EVPKey.publicKey(der: spkiDER) }
}
