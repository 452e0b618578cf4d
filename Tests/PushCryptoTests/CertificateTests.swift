import Foundation
import PushcheckTestSupport
import Testing
@testable import PushCrypto

@Suite struct CertificateTests {
    @Test func serverCertificateVerifiesWithOpenSSLAndHasSANs() throws {
        let ca = try CertificateAuthority.generate(commonName: "pushcheck test CA")
        let server = try ca.issueServerCertificate()
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        try ca.write(certificateTo: dir.file("ca.pem"))
        try server.write(certificateTo: dir.file("server.pem"), privateKeyTo: dir.file("server.key"))

        let verify = try runTool("openssl", ["verify", "-CAfile", dir.file("ca.pem"), dir.file("server.pem")])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        let text = try runTool("openssl", ["x509", "-in", dir.file("server.pem"), "-noout", "-text"]).stdout
        #expect(text.contains("DNS:localhost"))
        #expect(text.contains("DNS:api.sandbox.push.apple.com"))
        #expect(text.contains("IP Address:127.0.0.1"))
        #expect(text.contains("IP Address:0:0:0:0:0:0:0:1"))
        #expect(text.contains("TLS Web Server Authentication"))
        let keyCheck = try runTool(
            "sh",
            [
                "-c",
                "openssl x509 -in '\(dir.file("server.pem"))' -noout -pubkey; openssl pkey -in '\(dir.file("server.key"))' -pubout",
            ])
        let blocks = keyCheck.stdout.components(separatedBy: "-----END PUBLIC KEY-----")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(blocks.count == 3 && blocks[0] == blocks[1])

        let info = try server.info
        #expect(
            info.dnsNames == [
                "localhost", "api.development.push.apple.com", "api.sandbox.push.apple.com", "api.push.apple.com",
                "api-manage-broadcast.sandbox.push.apple.com", "api-manage-broadcast.push.apple.com",
                "api-broadcast.sandbox.push.apple.com", "api-broadcast.push.apple.com",
            ])
        #expect(info.ipAddresses == ["127.0.0.1", "::1"])
        #expect(info.issuer.commonName == "pushcheck test CA")
        #expect(info.isIssued(by: ca))
        #expect(!info.isIssued(by: try CertificateAuthority.generate(commonName: "pushcheck test CA")))
        #expect(!info.isCertificateAuthority)
        #expect(try ca.certificate.info.isCertificateAuthority)
        #expect(info.apnsEnvironments.isEmpty && info.apnsTopicsExtension == nil)
    }

    @Test func apnsClientCertificateLooksLikeApples() throws {
        let ca = try CertificateAuthority.generate(commonName: "Fake WWDR")
        let cert = try ca.issueAPNsClientCertificate(.init(bundleID: "com.example.app", teamID: "ABCDE12345"))
        let info = try cert.info
        #expect(info.subject.userID == "com.example.app")
        #expect(info.subject.commonName == "Apple Push Services: com.example.app")
        #expect(info.subject.organizationalUnit == "ABCDE12345")
        #expect(info.subject.country == "US")
        #expect(info.apnsEnvironments == .both)
        #expect(
            info.apnsTopicsExtension == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(info.apnsTopics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])

        // Cross-check with OpenSSL's own view of the extensions and subject.
        let dir = try TempDirectory("pushcrypto")
        defer { dir.remove() }
        try cert.write(certificateTo: dir.file("c.pem"))
        let text = try runTool("openssl", ["x509", "-in", dir.file("c.pem"), "-noout", "-text", "-nameopt", "RFC2253"])
            .stdout
        #expect(text.contains("1.2.840.113635.100.6.3.1"))
        #expect(text.contains("1.2.840.113635.100.6.3.2"))
        #expect(text.contains("1.2.840.113635.100.6.3.6"))
        #expect(text.contains("UID=com.example.app"))
        #expect(text.contains("TLS Web Client Authentication"))
        // Independent decode: Python's `cryptography` extracts the raw extension value, OpenSSL parses it.
        let script = """
            import sys
            from cryptography import x509
            c = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read())
            v = c.extensions.get_extension_for_oid(x509.ObjectIdentifier('1.2.840.113635.100.6.3.6')).value.value
            sys.stdout.buffer.write(v)
            """
        let raw = try runTool("python3", ["-c", script, dir.file("c.pem")])
        #expect(raw.status == 0, "\(raw.stderr)")
        let parsed = try runTool("openssl", ["asn1parse", "-inform", "DER"], stdin: raw.stdoutBytes).stdout
        let strings = parsed.split(separator: "\n").filter { $0.contains("UTF8STRING") }.map {
            $0.split(separator: ":").last.map(String.init) ?? ""
        }
        #expect(
            strings == [
                "com.example.app", "app", "com.example.app.voip", "voip", "com.example.app.complication",
                "complication",
            ])
    }

    @Test func singleEnvironmentCertificatesUseApplesOlderNames() throws {
        let ca = try CertificateAuthority.generate(commonName: "Fake WWDR")
        let dev = try ca.issueAPNsClientCertificate(.init(bundleID: "com.x", teamID: "T", environments: .sandbox)).info
        #expect(dev.subject.commonName == "Apple Development IOS Push Services: com.x")
        #expect(dev.apnsEnvironments == .sandbox)
        let prod = try ca.issueAPNsClientCertificate(
            .init(bundleID: "com.x", teamID: "T", environments: .production, topics: nil)
        ).info
        #expect(prod.subject.commonName == "Apple Production IOS Push Services: com.x")
        #expect(prod.apnsEnvironments == .production)
    }

    @Test func validityDatesAllowExpiredAndFutureCertificates() throws {
        let ca = try CertificateAuthority.generate(commonName: "CA")
        let now = Date()
        let expired = try ca.issueAPNsClientCertificate(
            .init(
                bundleID: "com.x", teamID: "T", notBefore: now.addingTimeInterval(-86400 * 30),
                notAfter: now.addingTimeInterval(-86400))
        ).info
        #expect(!expired.isValid(at: now))
        #expect(expired.isValid(at: now.addingTimeInterval(-86400 * 2)))
        #expect(abs(expired.notAfter.timeIntervalSince(now.addingTimeInterval(-86400))) < 2)
        let future = try ca.issueServerCertificate(
            notBefore: now.addingTimeInterval(3600), notAfter: now.addingTimeInterval(7200)
        ).info
        #expect(!future.isValid(at: now))
        // A date past 2049 needs GeneralizedTime; check it round-trips.
        let far = Date(timeIntervalSince1970: 2_600_000_000)
        #expect(try ca.issueServerCertificate(notAfter: far).info.notAfter == far)
    }

    @Test func caReloadsFromPEMAndRejectsMismatchedKey() throws {
        let ca = try CertificateAuthority.generate(commonName: "CA")
        let reloaded = try CertificateAuthority(
            certificatePEM: ca.certificatePEM, privateKeyPEM: ca.certificate.privateKeyPEM)
        #expect(reloaded == ca)
        let leaf = try reloaded.issueServerCertificate(dnsNames: ["a.test"], ipAddresses: [])
        #expect(try leaf.info.isIssued(by: ca.certificatePEM))
        let other = try P256PrivateKey.generate()
        #expect(throws: CertificateError.keyDoesNotMatchCertificate) {
            try CertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: other.pkcs8PEM)
        }
        #expect(throws: CertificateError.self) { try ca.issueServerCertificate(ipAddresses: ["300.1.1.1"]) }
    }

    @Test func fingerprintAndSerialMatchOpenSSL() throws {
        let ca = try CertificateAuthority.generate(commonName: "CA")
        let cert = try ca.issueServerCertificate()
        let out = try runTool(
            "openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-serial"], stdin: Array(cert.pem.utf8)
        ).stdout
        let info = try cert.info
        #expect(out.contains("=" + info.sha256FingerprintHex))
        #expect(out.contains("serial=" + info.serialNumberHex))
    }

    @Test func rsaClientCertificateLikeApples() throws {
        let ca = try CertificateAuthority.generate(commonName: "CA")
        let cert = try ca.issueAPNsClientCertificate(.init(bundleID: "com.x", teamID: "T", keyType: .rsa2048))
        #expect(try RSAPrivateKey(pem: cert.privateKeyPEM).publicKey.spkiDER == cert.info.publicKeyDER)
    }
}

@Suite struct TopicExtensionTests {
    @Test func encodingMatchesPushysOpenSSLGeneratedValue() {
        // Pushy's ApnsTestCertificates: OpenSSL's encoding of ASN1:SEQUENCE:apns_topics, wrapped in an OCTET STRING.
        let pushy = Array(
            Data(
                base64Encoded:
                    "BHUwcwwUY29tLmVhdHRoZXBhdGgucHVzaHkwBQwDYXBwDBljb20uZWF0dGhlcGF0aC5wdXNoeS52b2lwMAYMBHZvaXAMIWNvbS5lYXR0aGVwYXRoLnB1c2h5LmNvbXBsaWNhdGlvbjAODAxjb21wbGljYXRpb24="
            )!)
        let ours = ApplePushExtensions.encodeTopics(
            ["com.eatthepath.pushy", "com.eatthepath.pushy.voip", "com.eatthepath.pushy.complication"],
            bundleID: "com.eatthepath.pushy")
        #expect(Array(pushy.dropFirst(2)) == ours)
        #expect(
            ApplePushExtensions.decodeTopics(pushy) == [
                "com.eatthepath.pushy", "com.eatthepath.pushy.voip", "com.eatthepath.pushy.complication",
            ])
    }

    @Test func roundTripAndMalformedInput() {
        let long = (0..<20).map { "com.example.app.extension\($0)" }
        let value = ApplePushExtensions.encodeTopics(long, bundleID: "com.example.app")
        #expect(ApplePushExtensions.decodeTopics(value) == long)
        #expect(ApplePushExtensions.decodeTopics(Array(value.dropLast())) == nil)
        #expect(ApplePushExtensions.decodeTopics([0x05, 0x00]) == nil)
        #expect(ApplePushExtensions.kind(ofTopic: "com.a.voip", bundleID: "com.a") == "voip")
        #expect(ApplePushExtensions.kind(ofTopic: "com.a", bundleID: "com.a") == "app")
    }
}
