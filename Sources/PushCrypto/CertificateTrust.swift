import COpenSSL
import Foundation

/// Why a certificate does not chain to a trusted root (OpenSSL's verification result).
package struct CertificateTrustError: Error, Equatable, Sendable, CustomStringConvertible {
    /// OpenSSL's `X509_V_ERR_*` code.
    package let code: Int32
    /// OpenSSL's text for the code (e.g. "certificate has expired").
    package let reason: String

    package var description: String {
        "certificate verification failed: \(reason) (X509_V_ERR \(code)); check that it was issued by the expected CA and is within its validity dates"
    }
}

extension CertificateInfo {
    /// Full chain verification as a TLS peer would do it: signature chain to one of `trustedPEM`'s
    /// certificates through `intermediatesPEM`, validity at `date`, CA constraints. No purpose check.
    func verifyChain(trustedPEM: String, intermediatesPEM: [String] = [], at date: Date = Date()) throws {
        let leaf = try X509Handle.parse(der: der)
        let roots = try X509Handle.parseAll(pem: trustedPEM)
        let intermediates = try intermediatesPEM.flatMap { try X509Handle.parseAll(pem: $0) }
        guard let store = X509_STORE_new() else {
            throw CertificateError.operationFailed(operation: "create a trust store", detail: "out of memory")
        }
        defer { X509_STORE_free(store) }
        for root in roots { X509_STORE_add_cert(store, root.pointer) }
        guard let untrusted = pc_sk_X509_new_null() else {
            throw CertificateError.operationFailed(operation: "create a certificate list", detail: "out of memory")
        }
        defer { pc_sk_X509_free(untrusted) }  // the handles own the certificates
        for intermediate in intermediates { _ = pc_sk_X509_push(untrusted, intermediate.pointer) }
        guard let context = X509_STORE_CTX_new() else {
            throw CertificateError.operationFailed(operation: "create a verify context", detail: "out of memory")
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            throw CertificateError.operationFailed(operation: "start verification", detail: OpenSSL.drainErrors())
        }
        X509_STORE_CTX_set_time(context, 0, date.timeT)
        let result = X509_verify_cert(context)
        OpenSSL.clearErrors()
        guard result == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            throw CertificateTrustError(code: code, reason: String(cString: X509_verify_cert_error_string(Int(code))))
        }
    }
}
