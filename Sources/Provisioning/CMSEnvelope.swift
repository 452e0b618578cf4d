import COpenSSL
import Foundation

/// Unwraps the content of a DER-encoded CMS SignedData message, as found in a `.mobileprovision`.
///
/// The signature is not verified: profiles are signed by Apple and a test harness has no reason to
/// trust or distrust that chain; it only needs the embedded plist (TN3125).
public enum CMSEnvelope {
    /// Returns the encapsulated content bytes of `der`.
    /// - Throws: `ProvisioningError.notCMS` or `.detachedContent`.
    public static func content(of der: Data, source: String) throws(ProvisioningError) -> Data {
        let result: Result<Data, ProvisioningError> = der.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0, raw.count <= Int(Int32.max) else {
                return .failure(.notCMS(source: source, reason: "empty input"))
            }
            guard let bio = BIO_new_mem_buf(base, Int32(raw.count)) else {
                return .failure(.notCMS(source: source, reason: "out of memory"))
            }
            defer { BIO_free(bio) }
            ERR_clear_error()
            guard let cms = d2i_CMS_bio(bio, nil) else {
                return .failure(.notCMS(source: source, reason: opensslError()))
            }
            defer { CMS_ContentInfo_free(cms) }
            guard let slot = CMS_get0_content(cms), let octets = slot.pointee,
                let bytes = ASN1_STRING_get0_data(octets)
            else {
                return .failure(.detachedContent(source: source))
            }
            let length = Int(ASN1_STRING_length(octets))
            return .success(Data(bytes: bytes, count: length))
        }
        return try result.get()
    }

    private static func opensslError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown OpenSSL error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
