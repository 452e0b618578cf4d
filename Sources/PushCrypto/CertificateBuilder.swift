import COpenSSL
import Foundation

/// Builds and signs one X.509 v3 certificate (internal; the public entry points are on `CertificateAuthority`).
struct CertificateBuilder {
    /// Subject RDNs in order, by OpenSSL short name ("UID", "CN", "OU", "O", "C").
    var subject: [(String, String)]
    var notBefore: Date
    var notAfter: Date
    /// Standard extensions as OpenSSL config strings, e.g. (NID_basic_constraints, "critical,CA:TRUE").
    var extensions: [(Int32, String)]
    /// Raw extensions: dotted OID, DER value (the extnValue OCTET STRING's content), critical.
    var rawExtensions: [(String, [UInt8], Bool)] = []

    /// Signs with `issuerKey`; `issuer` nil means self-signed. Returns the certificate DER.
    func sign(subjectKey: EVPKey, issuer: X509Handle?, issuerKey: EVPKey) throws -> [UInt8] {
        OpenSSL.clearErrors()
        guard let raw = X509_new() else { throw failure("allocate a certificate") }
        let cert = X509Handle(taking: raw)
        let x = cert.pointer
        guard X509_set_version(x, 2) == 1 else { throw failure("set the version") }
        try setRandomSerial(x)
        guard ASN1_TIME_set(X509_getm_notBefore(x), notBefore.timeT) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x), notAfter.timeT) != nil
        else { throw failure("set the validity dates") }
        guard X509_set_pubkey(x, subjectKey.pointer) == 1 else { throw failure("set the public key") }

        guard let name = X509_NAME_new() else { throw failure("allocate a name") }
        defer { X509_NAME_free(name) }
        for (field, value) in subject {
            let added = X509_NAME_add_entry_by_txt(name, field, pc_MBSTRING_UTF8(), value, -1, -1, 0)
            guard added == 1 else {
                throw CertificateError.invalidRequest(detail: "subject \(field)=\(value): \(OpenSSL.drainErrors())")
            }
        }
        guard X509_set_subject_name(x, name) == 1 else { throw failure("set the subject") }
        let issuerName = issuer.map { X509_get_subject_name($0.pointer) } ?? X509_get_subject_name(x)
        guard X509_set_issuer_name(x, issuerName) == 1 else { throw failure("set the issuer") }

        var context = X509V3_CTX()
        pc_X509V3_set_ctx_nodb(&context)
        X509V3_set_ctx(&context, issuer?.pointer ?? x, x, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw CertificateError.invalidRequest(detail: "extension \(value): \(OpenSSL.drainErrors())")
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(x, ext, -1) == 1 else { throw failure("add extension \(value)") }
        }
        for (oid, value, critical) in rawExtensions {
            try addRawExtension(x, oid: oid, value: value, critical: critical)
        }
        guard X509_sign(x, issuerKey.pointer, EVP_sha256()) > 0 else { throw failure("sign the certificate") }
        return try cert.der()
    }

    private func setRandomSerial(_ x: OpaquePointer) throws {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw failure("generate a serial") }
        bytes[0] &= 0x7f
        bytes[0] |= 0x01  // positive and never shorter than 16 bytes
        guard let bn = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw failure("generate a serial") }
        defer { BN_free(bn) }
        guard BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != nil else { throw failure("set the serial") }
    }

    private func addRawExtension(_ x: OpaquePointer, oid: String, value: [UInt8], critical: Bool) throws {
        guard let object = OBJ_txt2obj(oid, 1) else { throw failure("parse OID \(oid)") }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else { throw failure("allocate an extension") }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1,
            let ext = X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, octets)
        else { throw failure("build extension \(oid)") }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x, ext, -1) == 1 else { throw failure("add extension \(oid)") }
    }

    private func failure(_ operation: String) -> CertificateError {
        .operationFailed(operation: operation, detail: OpenSSL.drainErrors())
    }
}
