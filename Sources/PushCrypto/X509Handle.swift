import COpenSSL
import Foundation

/// Owns one `X509*` for the length of an operation (internal; public types hold DER).
final class X509Handle {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { X509_free(pointer) }

    static func parse(der: [UInt8]) throws -> X509Handle {
        OpenSSL.clearErrors()
        guard let x = OpenSSL.derDecode(der, { d2i_X509(nil, $0, $1) }) else {
            throw CertificateError.invalidDER(detail: OpenSSL.drainErrors())
        }
        return X509Handle(taking: x)
    }

    /// Parses the first certificate in PEM text.
    static func parse(pem: String) throws -> X509Handle {
        guard PEM.labels(in: pem).contains(where: { $0 == "CERTIFICATE" || $0 == "TRUSTED CERTIFICATE" }) else {
            throw CertificateError.invalidPEM(detail: "no CERTIFICATE block")
        }
        OpenSSL.clearErrors()
        guard let x = OpenSSL.withReadBIO(Array(pem.utf8), { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw CertificateError.invalidPEM(detail: OpenSSL.drainErrors())
        }
        return X509Handle(taking: x)
    }

    /// All certificates in PEM text, in order.
    static func parseAll(pem: String) throws -> [X509Handle] {
        var result: [X509Handle] = []
        OpenSSL.withReadBIO(Array(pem.utf8)) { bio in
            while let x = PEM_read_bio_X509(bio, nil, nil, nil) { result.append(X509Handle(taking: x)) }
        }
        OpenSSL.clearErrors()  // the loop ends with a "no start line" error
        guard !result.isEmpty else { throw CertificateError.invalidPEM(detail: "no CERTIFICATE block") }
        return result
    }

    func der() throws -> [UInt8] {
        guard let bytes = OpenSSL.derEncodeAllocating({ i2d_X509(pointer, $0) }) else {
            throw CertificateError.operationFailed(operation: "encode a certificate", detail: OpenSSL.drainErrors())
        }
        return bytes
    }
}

extension Date {
    /// Whole seconds since the epoch, as `time_t`.
    var timeT: time_t { time_t(timeIntervalSince1970.rounded(.down)) }
}
