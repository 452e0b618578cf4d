import Foundation
import PushCrypto

/// Unwraps the content of a DER-encoded CMS SignedData message, as found in a `.mobileprovision`.
///
/// One implementation for the whole project: this delegates to PushCrypto's `CMSSignedData` and maps
/// its errors to `ProvisioningError` naming the file. The signature is not trusted or distrusted:
/// profiles are signed by Apple and a test harness only needs the embedded plist (TN3125).
package enum CMSEnvelope {
    /// Returns the encapsulated content bytes of `der`.
    /// - Throws: `ProvisioningError.notCMS` or `.detachedContent`.
    package static func content(of der: Data, source: String) throws(ProvisioningError) -> Data {
        guard !der.isEmpty else { throw .notCMS(source: source, reason: "empty input") }
        do {
            return Data(try CMSSignedData.content(der: [UInt8](der)))
        } catch CertificateError.cms(let detail) where detail.contains("detached") {
            throw .detachedContent(source: source)
        } catch {
            throw .notCMS(source: source, reason: "\(error)")
        }
    }
}
