import Foundation
import PushCrypto
import PushModel

extension APNsClientCertificate {
    /// Reads the facts from an X.509 certificate (PushCrypto): UID (falling back to CN), the …6.3.6
    /// topics, and the environments from …6.3.1 (sandbox) / …6.3.2 (production). A certificate with
    /// neither environment OID is valid for no endpoint (BadCertificateEnvironment).
    /// `isTrusted`: issued by one of `trustedCAPEMs`, or always true when the list is empty (the TLS
    /// layer already verified the chain).
    package init?(der: [UInt8], trustedCAPEMs: [String]) {
        guard let info = try? CertificateInfo(der: der), let uid = info.subject.userID ?? info.subject.commonName else {
            return nil
        }
        var environments: Set<APNsEnvironment> = []
        if info.apnsEnvironments.contains(.sandbox) { environments.insert(.sandbox) }
        if info.apnsEnvironments.contains(.production) { environments.insert(.production) }
        self.init(
            uid: uid, extensionTopics: info.apnsTopicsExtension ?? [], environments: environments,
            notBefore: info.notBefore, notAfter: info.notAfter,
            isTrusted: trustedCAPEMs.isEmpty || trustedCAPEMs.contains { info.isIssued(by: $0) })
    }

    /// An inspector for `APNsGatewayConfiguration.certificateInspector` backed by PushCrypto.
    static func inspector(trustedCAPEMs: [String] = []) -> @Sendable ([UInt8]) -> APNsClientCertificate? {
        { der in APNsClientCertificate(der: der, trustedCAPEMs: trustedCAPEMs) }
    }
}
