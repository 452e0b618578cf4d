/// Why a key could not be loaded, generated or used. Each description says what to do.
package enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text contains no PEM block that OpenSSL could parse (`detail` is OpenSSL's reason).
    case invalidPEM(detail: String)
    /// The bytes are not a valid DER key structure.
    case invalidDER(detail: String)
    /// The key parsed but is the wrong algorithm or curve (e.g. an RSA key where P-256 is needed).
    case wrongKeyType(expected: String, found: String)
    /// The key is protected by a passphrase; pushcheck reads only unencrypted keys.
    case encrypted
    /// OpenSSL failed to generate or serialize a key.
    case operationFailed(operation: String, detail: String)

    package var description: String {
        switch self {
        case .invalidPEM(let detail):
            return
                "not a readable PEM private/public key (\(detail)); expected a block like '-----BEGIN PRIVATE KEY-----' as in an Apple AuthKey_XXXXXXXXXX.p8 file"
        case .invalidDER(let detail):
            return "not a valid DER-encoded key (\(detail)); check that the file is not truncated or PEM text"
        case .wrongKeyType(let expected, let found):
            return
                "wrong key type: expected \(expected) but found \(found); APNs token keys (.p8) are P-256 EC keys, Google service-account keys are RSA"
        case .encrypted:
            return "the key is encrypted; export it without a passphrase (e.g. `openssl pkcs8 -topk8 -nocrypt`)"
        case .operationFailed(let operation, let detail):
            return "OpenSSL failed to \(operation): \(detail)"
        }
    }
}
