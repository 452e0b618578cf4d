import Foundation
import PushcheckTestSupport
import Testing
@testable import PushCrypto

@Suite struct PKCS12Tests {
    static func apnsIdentity() throws -> (CertificateAuthority, IssuedCertificate) {
        let ca = try CertificateAuthority.generate(commonName: "Fake WWDR")
        return (
            ca,
            try ca.issueAPNsClientCertificate(
                .init(bundleID: "com.example.app", teamID: "ABCDE12345", keyType: .rsa2048))
        )
    }

    @Test(arguments: [false, true])
    func p12FromOpenSSLExportLoads(legacy: Bool) throws {
        let (ca, cert) = try Self.apnsIdentity()
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        try cert.write(certificateTo: dir.file("c.pem"), privateKeyTo: dir.file("c.key"))
        try ca.write(certificateTo: dir.file("ca.pem"))
        var args = [
            "pkcs12", "-export", "-in", dir.file("c.pem"), "-inkey", dir.file("c.key"),
            "-certfile", dir.file("ca.pem"), "-passout", "pass:s3cret", "-out", dir.file("c.p12"),
        ]
        if legacy { args.append("-legacy") }
        let export = try runTool("openssl", args)
        #expect(export.status == 0, "\(export.stderr)")
        let bundle = try PKCS12Bundle(der: try dir.read("c.p12"), password: "s3cret")
        #expect(bundle.identity == cert)
        #expect(try bundle.info.apnsTopics.first == "com.example.app")
        #expect(bundle.caCertificatesDER == [ca.certificate.der])
        #expect(throws: CertificateError.pkcs12(detail: "wrong password (MAC check failed)")) {
            try PKCS12Bundle(der: try dir.read("c.p12"), password: "wrong")
        }
    }

    @Test func ourP12ReadsInOpenSSLAndBack() throws {
        let (ca, cert) = try Self.apnsIdentity()
        let der = try PKCS12Bundle.create(identity: cert, password: "pw", caCertificatesPEM: [ca.certificatePEM])
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        try dir.write("ours.p12", der)
        let out = try runTool(
            "openssl", ["pkcs12", "-in", dir.file("ours.p12"), "-passin", "pass:pw", "-nokeys", "-clcerts"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try CertificateInfo(pem: out.stdout).der == cert.der)
        #expect(try PKCS12Bundle(der: der, password: "pw").identity == cert)
        let empty = try PKCS12Bundle.create(identity: cert, password: "")
        #expect(try PKCS12Bundle(der: empty, password: "").identity == cert)
        #expect(throws: CertificateError.self) { try PKCS12Bundle(der: [1, 2, 3], password: "") }
    }
}

@Suite struct CMSTests {
    static let plist = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>Name</key><string>Test Profile</string></dict></plist>
        """.utf8)

    @Test func ourCMSRoundTripsAndVerifiesWithOpenSSL() throws {
        let ca = try CertificateAuthority.generate(commonName: "Fake Apple Root")
        let signer = try ca.issueServerCertificate(
            commonName: "iPhone Distribution: Fake", dnsNames: [], ipAddresses: [])
        let der = try CMSSignedData.sign(content: Self.plist, signer: signer, extraCertificatesPEM: [ca.certificatePEM])
        let parsed = try CMSSignedData(der: der)
        #expect(parsed.content == Self.plist)
        #expect(try CMSSignedData.content(der: der) == Self.plist)
        #expect(parsed.signerSubjects.map(\.commonName) == ["iPhone Distribution: Fake"])
        #expect(Set(parsed.certificates.map(\.subject.commonName)) == ["iPhone Distribution: Fake", "Fake Apple Root"])

        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        try dir.write("p.mobileprovision", der)
        try ca.write(certificateTo: dir.file("ca.pem"))
        let out = try runTool(
            "openssl",
            [
                "cms", "-verify", "-inform", "DER", "-in", dir.file("p.mobileprovision"), "-CAfile", dir.file("ca.pem"),
                "-purpose", "any", "-binary",
            ])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdoutBytes == Self.plist)
    }

    @Test func contentFromOpenSSLCmsSign() throws {
        let ca = try CertificateAuthority.generate(commonName: "Root")
        let signer = try ca.issueServerCertificate(
            commonName: "Signer", dnsNames: [], ipAddresses: [], keyType: .rsa2048)
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        try signer.write(certificateTo: dir.file("s.pem"), privateKeyTo: dir.file("s.key"))
        try dir.write("plist.xml", Self.plist)
        let made = try runTool(
            "openssl",
            [
                "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", dir.file("plist.xml"),
                "-signer", dir.file("s.pem"), "-inkey", dir.file("s.key"), "-out", dir.file("p.der"),
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let parsed = try CMSSignedData(der: try dir.read("p.der"))
        #expect(parsed.content == Self.plist)
        #expect(parsed.signers.first?.der == signer.der)
    }

    @Test func tamperedOrNonCMSInput() throws {
        let ca = try CertificateAuthority.generate(commonName: "Root")
        let signer = try ca.issueServerCertificate(commonName: "Signer", dnsNames: [], ipAddresses: [])
        var der = try CMSSignedData.sign(content: Self.plist, signer: signer)
        // Flip a byte inside the plist: the content still extracts, but no signer verifies.
        let range = der.firstRange(of: Array("Test Profile".utf8))!
        der[range.lowerBound] ^= 0x20
        let parsed = try CMSSignedData(der: der)
        #expect(parsed.signers.isEmpty)
        #expect(parsed.certificates.count == 1)
        #expect(throws: CertificateError.self) { try CMSSignedData.content(der: Self.plist) }
    }
}
