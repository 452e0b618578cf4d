import COpenSSL

/// A CMS (PKCS#7) SignedData message with embedded content, such as a `.mobileprovision` file
/// (DER CMS whose content is an XML plist).
package struct CMSSignedData: Sendable, Equatable {
    /// The embedded content (for a provisioning profile: the XML plist bytes).
    package let content: [UInt8]
    /// Every certificate embedded in the message (signer and chain), in file order.
    package let certificates: [CertificateInfo]
    /// The certificates whose signatures over the content verify (chain trust is NOT checked).
    package let signers: [CertificateInfo]

    /// Parses DER CMS SignedData. Throws `CertificateError.cms` when the bytes are not CMS or have
    /// detached (absent) content.
    package init(der: [UInt8]) throws {
        let cms = try Self.parse(der)
        defer { CMS_ContentInfo_free(cms) }
        content = try Self.embeddedContent(cms)
        var all: [CertificateInfo] = []
        if let stack = CMS_get1_certs(cms) {
            for index in 0..<pc_sk_X509_num(stack) {
                if let x = pc_sk_X509_value(stack, index), X509_up_ref(x) == 1 {
                    all.append(try CertificateInfo(handle: X509Handle(taking: x)))
                }
            }
            pc_sk_X509_pop_free(stack)
        }
        certificates = all
        signers = Self.verifiedSigners(cms)
        OpenSSL.clearErrors()
    }

    /// The embedded content only (the plist of a `.mobileprovision`).
    package static func content(der: [UInt8]) throws -> [UInt8] {
        let cms = try parse(der)
        defer { CMS_ContentInfo_free(cms) }
        return try embeddedContent(cms)
    }

    /// The signer certificates' subjects (convenience for reports).
    package var signerSubjects: [DistinguishedName] { signers.map(\.subject) }

    /// Signs `content` into DER CMS SignedData with embedded content (like `openssl cms -sign -nodetach
    /// -binary -outform DER`), for building test provisioning profiles.
    package static func sign(content: [UInt8], signer: IssuedCertificate, extraCertificatesPEM: [String] = []) throws
        -> [UInt8]
    {
        let cert = try X509Handle.parse(der: signer.der)
        let key = try EVPKey.privateKey(der: signer.privateKeyDER)
        let extras = try extraCertificatesPEM.flatMap { try X509Handle.parseAll(pem: $0) }
        guard let stack = pc_sk_X509_new_null() else { throw CertificateError.cms(detail: "out of memory") }
        defer { pc_sk_X509_free(stack) }
        for extra in extras { _ = pc_sk_X509_push(stack, extra.pointer) }
        OpenSSL.clearErrors()
        let flags = UInt32(CMS_BINARY)
        let cms = OpenSSL.withReadBIO(content) { CMS_sign(cert.pointer, key.pointer, stack, $0, flags) }
        guard let cms else { throw CertificateError.cms(detail: "cannot sign: \(OpenSSL.drainErrors())") }
        defer { CMS_ContentInfo_free(cms) }
        guard let der = OpenSSL.derEncodeAllocating({ i2d_CMS_ContentInfo(cms, $0) }) else {
            throw CertificateError.cms(detail: "cannot encode: \(OpenSSL.drainErrors())")
        }
        return der
    }

    private static func parse(_ der: [UInt8]) throws -> OpaquePointer {
        OpenSSL.clearErrors()
        guard let cms = OpenSSL.derDecode(der, { d2i_CMS_ContentInfo(nil, $0, $1) }) else {
            throw CertificateError.cms(detail: "not DER CMS (\(OpenSSL.drainErrors()))")
        }
        return cms
    }

    private static func embeddedContent(_ cms: OpaquePointer) throws -> [UInt8] {
        guard let slot = CMS_get0_content(cms), let octets = slot.pointee else {
            throw CertificateError.cms(detail: "the content is detached (not embedded in the file)")
        }
        let length = Int(ASN1_STRING_length(octets))
        guard length > 0, let bytes = ASN1_STRING_get0_data(octets) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    private static func verifiedSigners(_ cms: OpaquePointer) -> [CertificateInfo] {
        // Signature check only: pushcheck has no Apple root to chain to, and doctor reports trust separately.
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        guard CMS_verify(cms, nil, nil, nil, nil, flags) == 1, let stack = CMS_get0_signers(cms) else { return [] }
        defer { pc_sk_X509_free(stack) }
        var result: [CertificateInfo] = []
        for index in 0..<pc_sk_X509_num(stack) {
            if let x = pc_sk_X509_value(stack, index), X509_up_ref(x) == 1,
                let info = try? CertificateInfo(handle: X509Handle(taking: x))
            {
                result.append(info)
            }
        }
        return result
    }
}
