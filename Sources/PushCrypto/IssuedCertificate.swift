import COpenSSL
import Foundation

/// Which key a new certificate gets. Apple's real push certificates use RSA-2048; P-256 is faster to make.
package enum CertificateKeyType: Sendable, Equatable {
    case p256
    case rsa2048

    func generate() throws -> EVPKey {
        switch self {
        case .p256: return try EVPKey.privateKey(der: P256PrivateKey.generate().pkcs8DER)
        case .rsa2048: return try EVPKey.privateKey(der: RSAPrivateKey.generate().pkcs8DER)
        }
    }
}

/// A certificate with its private key, as issued by `CertificateAuthority`.
package struct IssuedCertificate: Sendable, Equatable {
    /// Certificate DER.
    package let der: [UInt8]
    /// Private key, PKCS#8 DER.
    let privateKeyDER: [UInt8]

    /// Pairs a certificate with its key, checking they match.
    package init(certificatePEM: String, privateKeyPEM: String) throws {
        let cert = try X509Handle.parse(pem: certificatePEM)
        let key = try EVPKey.privateKey(pem: privateKeyPEM)
        guard X509_check_private_key(cert.pointer, key.pointer) == 1 else {
            OpenSSL.clearErrors()
            throw CertificateError.keyDoesNotMatchCertificate
        }
        der = try cert.der()
        privateKeyDER = try key.pkcs8DER()
    }

    init(der: [UInt8], privateKeyDER: [UInt8]) {
        self.der = der
        self.privateKeyDER = privateKeyDER
    }

    /// "-----BEGIN CERTIFICATE-----" PEM.
    package var pem: String { PEM.encode(der, label: "CERTIFICATE") }
    /// "-----BEGIN PRIVATE KEY-----" (PKCS#8) PEM.
    package var privateKeyPEM: String { PEM.encode(privateKeyDER, label: "PRIVATE KEY") }
    /// Certificate PEM followed by key PEM, the single-file form curl's `--cert` accepts.
    var combinedPEM: String { pem + privateKeyPEM }

    /// Parsed facts about the certificate.
    package var info: CertificateInfo {
        get throws { try CertificateInfo(der: der) }
    }

    /// Writes the certificate PEM and (when given) the key PEM to files, creating parent directories.
    /// Key files get mode 0600.
    package func write(certificateTo certificatePath: String, privateKeyTo keyPath: String? = nil) throws {
        try PEMFiles.write(pem, to: certificatePath, mode: 0o644)
        if let keyPath { try PEMFiles.write(privateKeyPEM, to: keyPath, mode: 0o600) }
    }
}

/// Writing PEM text to disk.
package enum PEMFiles {
    /// Writes `text` to `path` atomically with POSIX permissions `mode`, creating parent directories. The file is
    /// created with `mode` (a temporary file beside it, renamed over `path`), so a private key is never readable by
    /// others, not even for the moment between writing and setting its permissions.
    package static func write(_ text: String, to path: String, mode: Int = 0o644) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CertificateError.file(path: path, detail: "\(error)")
        }
        func failure(_ what: String) -> CertificateError {
            .file(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
        }
        let temporary = path + ".\(getpid()).tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw failure("cannot create") }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let error = failure("cannot write")
                close(fd)
                unlink(temporary)
                throw error
            }
            bytes = bytes.dropFirst(n)
        }
        // The umask may have narrowed `mode`; the file gets exactly `mode`.
        let chmodFailed = fchmod(fd, mode_t(mode)) != 0
        guard close(fd) == 0, !chmodFailed, rename(temporary, path) == 0 else {
            let error = failure("cannot write")
            unlink(temporary)
            throw error
        }
    }

    /// Reads a whole file as UTF-8 text.
    package static func read(_ path: String) throws -> String {
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw CertificateError.file(path: path, detail: "\(error)")
        }
    }
}
