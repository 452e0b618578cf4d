import Foundation
import Testing
@testable import PushCrypto

@Suite struct TrustTests {
    @Test func chainVerificationChecksIssuerAndDates() throws {
        let ca = try CertificateAuthority.generate(commonName: "Root")
        let now = Date()
        let good = try ca.issueAPNsClientCertificate(.init(bundleID: "com.x", teamID: "T")).info
        try good.verifyChain(trustedPEM: ca.certificatePEM, at: now)

        let stranger = try CertificateAuthority.generate(commonName: "Root")
        #expect(throws: CertificateTrustError.self) {
            try good.verifyChain(trustedPEM: stranger.certificatePEM, at: now)
        }

        let expired = try ca.issueAPNsClientCertificate(
            .init(
                bundleID: "com.x", teamID: "T", notBefore: now.addingTimeInterval(-3000),
                notAfter: now.addingTimeInterval(-600))
        ).info
        do {
            try expired.verifyChain(trustedPEM: ca.certificatePEM, at: now)
            Issue.record("expired certificate verified")
        } catch let error as CertificateTrustError {
            #expect(error.reason == "certificate has expired")
        }
        // The same certificate verifies at a time inside its (and the CA's, from -3600 s) validity.
        try expired.verifyChain(trustedPEM: ca.certificatePEM, at: now.addingTimeInterval(-1800))
    }
}
