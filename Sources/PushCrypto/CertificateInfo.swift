import COpenSSL
import Foundation

/// The subject or issuer fields pushcheck cares about.
package struct DistinguishedName: Sendable, Equatable, CustomStringConvertible {
    /// `UID` (0.9.2342.19200300.100.1.1): the bundle ID in Apple push certificates.
    package var userID: String?
    /// `CN`.
    package var commonName: String?
    /// `OU`: the Team ID in Apple push certificates.
    var organizationalUnit: String?
    /// `O`.
    var organization: String?
    /// `C`.
    var country: String?
    /// OpenSSL's one-line form, e.g. `/UID=com.example/CN=Apple Push Services: com.example/OU=…`.
    package var oneLine: String

    package var description: String { oneLine }
}

/// Facts read from an X.509 certificate, including Apple's APNs extensions.
package struct CertificateInfo: Sendable, Equatable {
    /// Certificate DER.
    package let der: [UInt8]
    package let subject: DistinguishedName
    package let issuer: DistinguishedName
    package let notBefore: Date
    package let notAfter: Date
    /// Subject alternative names of type DNS.
    package let dnsNames: [String]
    /// Subject alternative names of type IP, formatted ("127.0.0.1", "::1").
    let ipAddresses: [String]
    /// Serial number as upper-case hex (OpenSSL's `BN_bn2hex`).
    let serialNumberHex: String
    /// SHA-256 of the DER.
    let sha256Fingerprint: [UInt8]
    /// Basic constraints say CA:TRUE.
    let isCertificateAuthority: Bool
    /// SubjectPublicKeyInfo DER of the certified key.
    let publicKeyDER: [UInt8]
    /// Environments from Apple OIDs …6.3.1 (sandbox) and …6.3.2 (production); empty if neither is present.
    package let apnsEnvironments: APNsCertificateEnvironments
    /// Topics from Apple OID …6.3.6, in order; nil if the extension is absent (or unreadable).
    package let apnsTopicsExtension: [String]?

    /// Parses DER.
    package init(der: [UInt8]) throws {
        try self.init(handle: X509Handle.parse(der: der))
    }

    /// Parses the first certificate in PEM text.
    package init(pem: String) throws {
        try self.init(handle: X509Handle.parse(pem: pem))
    }

    init(handle: X509Handle) throws {
        let x = handle.pointer
        der = try handle.der()
        subject = Self.name(X509_get_subject_name(x))
        issuer = Self.name(X509_get_issuer_name(x))
        notBefore = Self.date(X509_get0_notBefore(x))
        notAfter = Self.date(X509_get0_notAfter(x))
        (dnsNames, ipAddresses) = Self.alternativeNames(x)
        serialNumberHex = Self.serialHex(x)
        sha256Fingerprint = OpenSSL.sha256(der)
        isCertificateAuthority = X509_check_ca(x) >= 1
        publicKeyDER = OpenSSL.derEncodeAllocating { i2d_PUBKEY(X509_get0_pubkey(x), $0) } ?? []
        var environments: APNsCertificateEnvironments = []
        if Self.extensionValue(x, oid: ApplePushExtensions.developmentOID) != nil { environments.insert(.sandbox) }
        if Self.extensionValue(x, oid: ApplePushExtensions.productionOID) != nil { environments.insert(.production) }
        apnsEnvironments = environments
        apnsTopicsExtension = Self.extensionValue(x, oid: ApplePushExtensions.topicsOID).flatMap(
            ApplePushExtensions.decodeTopics)
        OpenSSL.clearErrors()
    }

    /// SHA-256 fingerprint as colon-separated upper-case hex (`openssl x509 -fingerprint -sha256` style).
    var sha256FingerprintHex: String {
        sha256Fingerprint.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// Topics this certificate may push to, as APNs (and Pushy's mock) derive them: the subject UID
    /// plus every topic in the …6.3.6 extension, without duplicates, UID first.
    package var apnsTopics: [String] {
        var result: [String] = []
        for topic in [subject.userID].compactMap({ $0 }) + (apnsTopicsExtension ?? []) where !result.contains(topic) {
            result.append(topic)
        }
        return result
    }

    /// notBefore ≤ date ≤ notAfter.
    package func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }

    /// True when the issuer name matches `caPEM`'s subject and the signature verifies with its key
    /// (no date check; use `isValid(at:)` for that).
    package func isIssued(by caPEM: String) -> Bool {
        guard let ca = try? X509Handle.parse(pem: caPEM), let cert = try? X509Handle.parse(der: der) else {
            return false
        }
        defer { OpenSSL.clearErrors() }
        guard X509_check_issued(ca.pointer, cert.pointer) == X509_V_OK else { return false }
        guard let key = X509_get0_pubkey(ca.pointer) else { return false }
        return X509_verify(cert.pointer, key) == 1
    }

    /// Same as `isIssued(by: ca.certificatePEM)`.
    package func isIssued(by ca: CertificateAuthority) -> Bool { isIssued(by: ca.certificatePEM) }

    // MARK: - reading OpenSSL structures

    static func name(_ name: OpaquePointer?) -> DistinguishedName {
        func field(_ nid: Int32) -> String? {
            guard let name else { return nil }
            let index = X509_NAME_get_index_by_NID(name, nid, -1)
            guard index >= 0, let entry = X509_NAME_get_entry(name, index),
                let data = X509_NAME_ENTRY_get_data(entry)
            else { return nil }
            return string(data)
        }
        var oneLine = ""
        if let name, let text = X509_NAME_oneline(name, nil, 0) {
            oneLine = String(cString: text)
            pc_OPENSSL_free(text)
        }
        return DistinguishedName(
            userID: field(NID_userId), commonName: field(NID_commonName),
            organizationalUnit: field(NID_organizationalUnitName), organization: field(NID_organizationName),
            country: field(NID_countryName), oneLine: oneLine)
    }

    static func string(_ asn1: UnsafePointer<ASN1_STRING>?) -> String? {
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&out, asn1)
        guard length >= 0, let out else { return nil }
        defer { pc_OPENSSL_free(out) }
        return String(decoding: UnsafeBufferPointer(start: out, count: Int(length)), as: UTF8.self)
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    static func serialHex(_ x: OpaquePointer) -> String {
        guard let bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x), nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { pc_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    static func alternativeNames(_ x: OpaquePointer) -> ([String], [String]) {
        guard let raw = X509_get_ext_d2i(x, NID_subject_alt_name, nil, nil) else { return ([], []) }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var dns: [String] = [], ips: [String] = []
        for index in 0..<pc_sk_GENERAL_NAME_num(names) {
            guard let entry = pc_sk_GENERAL_NAME_value(names, index), let value = pc_GENERAL_NAME_string(entry) else {
                continue
            }
            let type = pc_GENERAL_NAME_type(entry)
            if type == pc_GEN_DNS(), let text = string(value) {
                dns.append(text)
            } else if type == pc_GEN_IPADD() {
                let length = Int(ASN1_STRING_length(value))
                let bytes = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(value), count: length))
                if let text = IPAddressText.format(bytes) { ips.append(text) }
            }
        }
        return (dns, ips)
    }

    /// The content of the extnValue OCTET STRING for `oid`, or nil if absent.
    static func extensionValue(_ x: OpaquePointer, oid: String) -> [UInt8]? {
        guard let object = OBJ_txt2obj(oid, 1) else { return nil }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(x, object, -1)
        guard index >= 0, let ext = X509_get_ext(x, index), let data = X509_EXTENSION_get_data(ext) else { return nil }
        let length = Int(ASN1_STRING_length(data))
        guard length > 0, let bytes = ASN1_STRING_get0_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
