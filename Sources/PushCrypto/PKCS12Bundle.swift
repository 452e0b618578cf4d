import COpenSSL

/// The contents of a PKCS#12 (`.p12`) file: a certificate, its private key, and any CA certificates.
/// Apple push certificates are exported from Keychain Access this way.
package struct PKCS12Bundle: Sendable, Equatable {
    /// The certificate with its key.
    package let identity: IssuedCertificate
    /// Extra certificates in the file (e.g. the WWDR intermediate), DER.
    let caCertificatesDER: [[UInt8]]

    /// Loads `.p12` bytes with `password` ("" for none). Files made with legacy RC2/3DES encryption
    /// (older Keychain exports, `openssl pkcs12 -export -legacy`) load through OpenSSL's legacy provider.
    package init(der: [UInt8], password: String) throws {
        OpenSSL.clearErrors()
        guard let p12 = OpenSSL.derDecode(der, { d2i_PKCS12(nil, $0, $1) }) else {
            throw CertificateError.pkcs12(detail: "not a PKCS#12 file (\(OpenSSL.drainErrors()))")
        }
        defer { PKCS12_free(p12) }
        // A MAC check tells a wrong password apart from an unsupported cipher.
        let macOK =
            password.isEmpty
            ? (PKCS12_verify_mac(p12, nil, 0) == 1 || PKCS12_verify_mac(p12, "", 0) == 1)
            : PKCS12_verify_mac(p12, password, -1) == 1
        if PKCS12_mac_present(p12) == 1 && !macOK {
            OpenSSL.clearErrors()
            throw CertificateError.pkcs12(detail: "wrong password (MAC check failed)")
        }
        var parsed = Self.parse(p12, password: password)
        if parsed == nil, Self.legacyProviderLoaded {
            parsed = Self.parse(p12, password: password)
        }
        guard let (key, cert, extras) = parsed else {
            throw CertificateError.pkcs12(
                detail: OpenSSL.drainErrors(fallback: "no certificate and private key inside"))
        }
        identity = IssuedCertificate(der: try cert.der(), privateKeyDER: try key.pkcs8DER())
        caCertificatesDER = try extras.map { try $0.der() }
    }

    /// The certificate's parsed facts.
    package var info: CertificateInfo { get throws { try identity.info } }

    /// Makes a `.p12` (AES-256/PBKDF2, OpenSSL 3 defaults) from a certificate and key, for tests and fixtures.
    package static func create(
        identity: IssuedCertificate, password: String, friendlyName: String = "pushcheck",
        caCertificatesPEM: [String] = []
    ) throws -> [UInt8] {
        let cert = try X509Handle.parse(der: identity.der)
        let key = try EVPKey.privateKey(der: identity.privateKeyDER)
        let extras = try caCertificatesPEM.flatMap { try X509Handle.parseAll(pem: $0) }
        guard let stack = pc_sk_X509_new_null() else { throw CertificateError.pkcs12(detail: "out of memory") }
        defer { pc_sk_X509_free(stack) }  // the handles own the certificates
        for extra in extras { _ = pc_sk_X509_push(stack, extra.pointer) }
        OpenSSL.clearErrors()
        guard let p12 = PKCS12_create(password, friendlyName, key.pointer, cert.pointer, stack, 0, 0, 0, 0, 0) else {
            throw CertificateError.pkcs12(detail: "cannot create: \(OpenSSL.drainErrors())")
        }
        defer { PKCS12_free(p12) }
        guard let der = OpenSSL.derEncodeAllocating({ i2d_PKCS12(p12, $0) }) else {
            throw CertificateError.pkcs12(detail: "cannot encode: \(OpenSSL.drainErrors())")
        }
        return der
    }

    private static func parse(_ p12: OpaquePointer, password: String) -> (EVPKey, X509Handle, [X509Handle])? {
        var key: OpaquePointer? = nil
        var cert: OpaquePointer? = nil
        var extras: OpaquePointer? = nil
        guard PKCS12_parse(p12, password, &key, &cert, &extras) == 1 else {
            if let key { EVP_PKEY_free(key) }
            if let cert { X509_free(cert) }
            if let extras { pc_sk_X509_pop_free(extras) }
            return nil
        }
        var others: [X509Handle] = []
        if let extras {
            for index in 0..<pc_sk_X509_num(extras) {
                if let x = pc_sk_X509_value(extras, index), X509_up_ref(x) == 1 { others.append(X509Handle(taking: x)) }
            }
            pc_sk_X509_pop_free(extras)
        }
        guard let key, let cert else {
            if let key { EVP_PKEY_free(key) }
            if let cert { X509_free(cert) }
            return nil
        }
        return (EVPKey(taking: key), X509Handle(taking: cert), others)
    }

    /// Loads OpenSSL's legacy provider once (needed for RC2-40 encrypted certificate bags).
    private static let legacyProviderLoaded: Bool = {
        OpenSSL.clearErrors()
        return pc_load_legacy_provider() == 1
    }()
}
