import COpenSSL

/// Conversion between JOSE's raw P-256 signature (r‖s, 32 bytes each; RFC 7518 §3.4) and
/// the DER `ECDSA-Sig-Value` that OpenSSL and `openssl dgst -sign` produce.
package enum ECDSASignature {
    /// Why a signature could not be converted.
    package enum ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A raw signature must be exactly 64 bytes for ES256.
        case wrongRawLength(Int)
        /// The DER is not an ECDSA-Sig-Value, or r/s do not fit in 32 bytes.
        case invalidDER

        package var description: String {
            switch self {
            case .wrongRawLength(let n):
                return "ES256 signatures are 64 bytes (r‖s), got \(n); do not send DER signatures in a JWT"
            case .invalidDER: return "not a DER ECDSA signature with 32-byte r and s"
            }
        }
    }

    /// DER ECDSA-Sig-Value → 64-byte r‖s.
    static func rawFromDER(_ der: [UInt8]) throws(ConversionError) -> [UInt8] {
        guard let sig = OpenSSL.derDecode(der, { d2i_ECDSA_SIG(nil, $0, $1) }) else {
            OpenSSL.clearErrors()
            throw .invalidDER
        }
        defer { ECDSA_SIG_free(sig) }
        var raw = [UInt8](repeating: 0, count: 64)
        let ok = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
            BN_bn2binpad(ECDSA_SIG_get0_r(sig), buffer.baseAddress, 32) == 32
                && BN_bn2binpad(ECDSA_SIG_get0_s(sig), buffer.baseAddress! + 32, 32) == 32
        }
        guard ok else { throw .invalidDER }
        return raw
    }

    /// 64-byte r‖s → DER ECDSA-Sig-Value.
    static func derFromRaw(_ raw: [UInt8]) throws(ConversionError) -> [UInt8] {
        guard raw.count == 64 else { throw .wrongRawLength(raw.count) }
        guard let sig = ECDSA_SIG_new() else { throw .invalidDER }
        defer { ECDSA_SIG_free(sig) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw .invalidDER
        }
        guard let der = OpenSSL.derEncodeAllocating({ i2d_ECDSA_SIG(sig, $0) }) else { throw .invalidDER }
        return der
    }
}
