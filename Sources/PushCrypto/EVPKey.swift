import COpenSSL

/// Owns one `EVP_PKEY*` for the length of an operation. Internal and not Sendable: public key types
/// are value types holding DER, and re-create an `EVPKey` when they need OpenSSL.
final class EVPKey {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }

    /// Parses any private key PEM (PKCS#8 "PRIVATE KEY", SEC1 "EC PRIVATE KEY", "RSA PRIVATE KEY").
    static func privateKey(pem: String) throws -> EVPKey {
        let labels = PEM.labels(in: pem)
        if labels.contains("ENCRYPTED PRIVATE KEY") || pem.contains("Proc-Type: 4,ENCRYPTED") {
            throw KeyError.encrypted
        }
        guard labels.contains(where: { $0.hasSuffix("PRIVATE KEY") }) else {
            let found = labels.isEmpty ? "no PEM block" : "a '\(labels[0])' block"
            throw KeyError.invalidPEM(detail: "found \(found), no PRIVATE KEY block")
        }
        OpenSSL.clearErrors()
        let key = OpenSSL.withReadBIO(Array(pem.utf8)) { bio in
            // An empty passphrase (not a NULL callback) so OpenSSL never prompts on a terminal.
            "".withCString { PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }
        }
        guard let key else { throw KeyError.invalidPEM(detail: OpenSSL.drainErrors()) }
        return EVPKey(taking: key)
    }

    /// Parses a SubjectPublicKeyInfo PEM ("PUBLIC KEY").
    static func publicKey(pem: String) throws -> EVPKey {
        let labels = PEM.labels(in: pem)
        guard labels.contains("PUBLIC KEY") else {
            let found = labels.isEmpty ? "no PEM block" : "a '\(labels[0])' block"
            throw KeyError.invalidPEM(detail: "found \(found), expected '-----BEGIN PUBLIC KEY-----'")
        }
        OpenSSL.clearErrors()
        let key = OpenSSL.withReadBIO(Array(pem.utf8)) { PEM_read_bio_PUBKEY($0, nil, nil, nil) }
        guard let key else { throw KeyError.invalidPEM(detail: OpenSSL.drainErrors()) }
        return EVPKey(taking: key)
    }

    /// Parses PKCS#8 (or traditional) private key DER.
    static func privateKey(der: [UInt8]) throws -> EVPKey {
        OpenSSL.clearErrors()
        let key = OpenSSL.derDecode(der) { d2i_AutoPrivateKey(nil, $0, $1) }
        guard let key else { throw KeyError.invalidDER(detail: OpenSSL.drainErrors()) }
        return EVPKey(taking: key)
    }

    /// Parses SubjectPublicKeyInfo DER.
    static func publicKey(der: [UInt8]) throws -> EVPKey {
        OpenSSL.clearErrors()
        let key = OpenSSL.derDecode(der) { d2i_PUBKEY(nil, $0, $1) }
        guard let key else { throw KeyError.invalidDER(detail: OpenSSL.drainErrors()) }
        return EVPKey(taking: key)
    }

    /// A short human name: "P-256 EC", "EC (secp384r1)", "RSA-2048", "Ed25519", …
    var typeDescription: String {
        switch EVP_PKEY_get_base_id(pointer) {
        case EVP_PKEY_EC:
            let group = groupName ?? "unknown curve"
            return group == "prime256v1" ? "P-256 EC" : "EC (\(group))"
        case EVP_PKEY_RSA: return "RSA-\(EVP_PKEY_get_bits(pointer))"
        default:
            if let name = EVP_PKEY_get0_type_name(pointer) { return String(cString: name) }
            return "unknown key type"
        }
    }

    var isP256: Bool { EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC && groupName == "prime256v1" }
    var isRSA: Bool { EVP_PKEY_get_base_id(pointer) == EVP_PKEY_RSA }

    private var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &buffer, buffer.count, &length) == 1 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// PKCS#8 PrivateKeyInfo DER.
    func pkcs8DER() throws -> [UInt8] {
        let bytes = OpenSSL.collectWrittenBytes { bio in
            i2d_PKCS8PrivateKey_bio(bio, pointer, nil, nil, 0, nil, nil) == 1
        }
        guard let bytes, !bytes.isEmpty else {
            throw KeyError.operationFailed(operation: "export PKCS#8", detail: OpenSSL.drainErrors())
        }
        return bytes
    }

    /// SubjectPublicKeyInfo DER.
    func publicKeyDER() throws -> [UInt8] {
        guard let bytes = OpenSSL.derEncodeAllocating({ i2d_PUBKEY(pointer, $0) }) else {
            throw KeyError.operationFailed(operation: "export public key", detail: OpenSSL.drainErrors())
        }
        return bytes
    }

    /// Signs `message` with SHA-256 (ECDSA → DER ECDSA-Sig, RSA → PKCS#1 v1.5).
    func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        OpenSSL.clearErrors()
        guard let context = EVP_MD_CTX_new() else {
            throw KeyError.operationFailed(operation: "sign", detail: "out of memory")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw KeyError.operationFailed(operation: "sign", detail: OpenSSL.drainErrors())
        }
        var length = 0
        let ok = message.withUnsafeBufferPointer { msg -> Bool in
            guard EVP_DigestSign(context, nil, &length, msg.baseAddress, msg.count) == 1 else { return false }
            return true
        }
        guard ok else { throw KeyError.operationFailed(operation: "sign", detail: OpenSSL.drainErrors()) }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer { msg in
            EVP_DigestSign(context, &signature, &length, msg.baseAddress, msg.count) == 1
        }
        guard signed else { throw KeyError.operationFailed(operation: "sign", detail: OpenSSL.drainErrors()) }
        return Array(signature.prefix(length))
    }

    /// Verifies a SHA-256 signature (DER ECDSA-Sig for EC, PKCS#1 v1.5 for RSA).
    func verifySHA256(_ signature: [UInt8], message: [UInt8]) -> Bool {
        OpenSSL.clearErrors()
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            OpenSSL.clearErrors()
            return false
        }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        OpenSSL.clearErrors()
        return result == 1
    }
}

/// The algorithms of the typed key wrappers (`P256PrivateKey`, `RSAPrivateKey` and their public halves): the one
/// load path they share. Loading parses PEM or DER, refuses another kind of key with `KeyError.wrongKeyType`, and
/// keeps canonical DER (PKCS#8 / SubjectPublicKeyInfo), so equal keys have equal DER.
package enum KeyKind: Sendable {
    case p256, rsa

    func privateKeyDER(pem: String) throws -> [UInt8] { try pkcs8(EVPKey.privateKey(pem: pem)) }
    func privateKeyDER(der: [UInt8]) throws -> [UInt8] { try pkcs8(EVPKey.privateKey(der: der)) }
    func publicKeyDER(pem: String) throws -> [UInt8] { try spki(EVPKey.publicKey(pem: pem)) }
    func publicKeyDER(der: [UInt8]) throws -> [UInt8] { try spki(EVPKey.publicKey(der: der)) }

    /// PKCS#8 DER of a key OpenSSL just generated (`raw` is nil when generation failed).
    func generatedDER(_ raw: OpaquePointer?) throws -> [UInt8] {
        guard let raw else {
            let what = self == .p256 ? "a P-256 key" : "an RSA key"
            throw KeyError.operationFailed(operation: "generate \(what)", detail: OpenSSL.drainErrors())
        }
        return try EVPKey(taking: raw).pkcs8DER()
    }

    /// The public half of a private key whose DER was validated at load (re-parsing it cannot fail short of
    /// memory exhaustion).
    static func publicKeyDER(ofValidated pkcs8DER: [UInt8]) -> [UInt8] {
        (try? EVPKey.privateKey(der: pkcs8DER).publicKeyDER()) ?? []
    }

    private func pkcs8(_ key: EVPKey) throws -> [UInt8] {
        try require(key)
        return try key.pkcs8DER()
    }

    private func spki(_ key: EVPKey) throws -> [UInt8] {
        try require(key)
        return try key.publicKeyDER()
    }

    private func require(_ key: EVPKey) throws {
        switch self {
        case .p256:
            guard key.isP256 else { throw KeyError.wrongKeyType(expected: "P-256 EC", found: key.typeDescription) }
        case .rsa:
            guard key.isRSA else { throw KeyError.wrongKeyType(expected: "RSA", found: key.typeDescription) }
        }
    }
}
