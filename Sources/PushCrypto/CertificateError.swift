/// Why a certificate, PKCS#12 file or CMS message could not be built or read. Descriptions say what to do.
package enum CertificateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text has no readable "BEGIN CERTIFICATE" block.
    case invalidPEM(detail: String)
    /// The bytes are not a DER X.509 certificate.
    case invalidDER(detail: String)
    /// The CA's private key does not match its certificate.
    case keyDoesNotMatchCertificate
    /// A requested field is unusable (e.g. an IP address that does not parse).
    case invalidRequest(detail: String)
    /// OpenSSL failed while building or signing.
    case operationFailed(operation: String, detail: String)
    /// The PKCS#12 file is unreadable or the password is wrong.
    case pkcs12(detail: String)
    /// The CMS (PKCS#7) message is unreadable or has no embedded content.
    case cms(detail: String)
    /// A file could not be written or read.
    case file(path: String, detail: String)

    package var description: String {
        switch self {
        case .invalidPEM(let d): return "not a PEM certificate (\(d)); expected '-----BEGIN CERTIFICATE-----'"
        case .invalidDER(let d): return "not a DER X.509 certificate (\(d)); if the file is text, load it as PEM"
        case .keyDoesNotMatchCertificate:
            return "the private key does not belong to the certificate; pass the key generated with it"
        case .invalidRequest(let d): return "invalid certificate request: \(d)"
        case .operationFailed(let op, let d): return "OpenSSL failed to \(op): \(d)"
        case .pkcs12(let d):
            return "cannot read PKCS#12 (.p12): \(d); check the export password (empty if none was set)"
        case .cms(let d): return "cannot read CMS signed data: \(d); a .mobileprovision file is DER CMS, not text"
        case .file(let path, let d): return "cannot access \(path): \(d)"
        }
    }
}
