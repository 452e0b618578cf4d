import Foundation
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import YAMLSource

@testable import FCMGateway

/// The `fcm:` section: what it decodes to, and mistakes at their line and column.
@Suite struct ConfigurationTests {
    let dir = try! TempDirectory("fcm-config")

    func decode(_ yaml: String, apnsKeys: [String: (teamID: String, key: P256PrivateKey)] = [:]) throws(SourceError)
        -> FCMGatewayConfiguration
    {
        let path = try! dir.write("c.yaml", yaml)
        let root = try YAMLLoader.load(path: path)
        return try FCMGatewayConfiguration.decode(try YAMLMapping(root), file: path, apnsKeys: apnsKeys)
    }

    @Test func fullSection() throws {
        let sa = try RSAPrivateKey.generate()
        try dir.write("sa.pub.pem", sa.publicKey.pem)
        let other = try RSAPrivateKey.generate()
        let json: JSONValue = [
            "type": "service_account", "project_id": "demo-project", "private_key_id": "abc",
            "private_key": .string(other.pkcs8PEM),
            "client_email": "robot@demo-project.iam.gserviceaccount.com",
        ]
        try dir.write("service-account.json", json.serialized())
        let p8 = try P256PrivateKey.generate()
        let c = try decode(
            """
            service_accounts:
              - { client_email: sa@demo-project.iam.gserviceaccount.com, public_key: sa.pub.pem, projects: [demo-project] }
              - { credentials_file: service-account.json }
            projects:
              - id: demo-project
                number: "123456789012"
                apns: { team_id: TEAM123456, key_id: KEY1234567, environment: sandbox }
                tokens:
                  - { token: "tok-1", apns_token: "\(String(repeating: "ab", count: 32))", topic: com.example.app, fid: fid1 }
                  - { token: "tok-2", unregistered: true }
                quota: { per_device_per_minute: 240 }
            faults: [{ error: UNAVAILABLE, count: 2, retry_after: 30 }]
            access_token_lifetime: 600
            """, apnsKeys: ["KEY1234567": ("TEAM123456", p8)])
        #expect(c.serviceAccounts.count == 2)
        #expect(c.serviceAccounts[0].publicKey == sa.publicKey && c.serviceAccounts[0].privateKey == nil)
        #expect(c.serviceAccounts[1].clientEmail == "robot@demo-project.iam.gserviceaccount.com")
        #expect(c.serviceAccounts[1].privateKey == other && c.serviceAccounts[1].projects == ["demo-project"])
        let p = try #require(c.projects.first)
        #expect(
            p.number == "123456789012" && p.apns?.environment == .sandbox
                && p.apns?.auth == .token(teamID: "TEAM123456", keyID: "KEY1234567", privateKey: p8))
        #expect(p.tokens.map(\.token) == ["tok-1", "tok-2"] && p.tokens[0].fid == "fid1" && p.tokens[1].unregistered)
        #expect(p.quota.perDevicePerMinute == 240)
        #expect(c.faults == [FCMFault(.unavailable, count: 2, retryAfter: 30)])
        #expect(c.accessTokenLifetime == 600)
    }

    @Test func certificateCredentials() throws {
        let ca = try CertificateAuthority.generate(commonName: "Apple WWDR (test)")
        let cert = try ca.issueAPNsClientCertificate(
            APNsClientCertificateRequest(bundleID: "com.example.app", teamID: "TEAM123456"))
        try dir.write("push.pem", cert.pem)
        let c = try decode(
            "projects:\n  - { id: p, number: \"1\", apns: { certificate: push.pem, environment: sandbox } }\n")
        #expect(c.projects[0].apns?.certificateDER == cert.der)
        #expect(throws: SourceError.self) {
            try decode("projects:\n  - { id: p, number: \"1\", apns: { certificate: push.pem, key_id: K } }\n")
        }
        try dir.write("junk.pem", "not a certificate")
        #expect(throws: SourceError.self) {
            try decode("projects:\n  - { id: p, number: \"1\", apns: { certificate: junk.pem } }\n")
        }
    }

    @Test func mistakesAtTheirPlace() throws {
        func error(_ yaml: String) -> SourceError? {
            do { _ = try decode(yaml); return nil } catch { return error }
        }
        let typo = try #require(error("projects:\n  - { id: p, numbr: \"1\" }\n"))
        #expect(typo.line == 2 && typo.suggestion?.contains("did you mean 'number'?") == true)
        let fault = try #require(error("faults: [{ error: UNAVAILABLE_NOW }]\n"))
        #expect(fault.line == 1 && fault.column == 19)
        // `retry_after` only where Google sends Retry-After (429 QUOTA_EXCEEDED, 503 UNAVAILABLE; reference/fcm.md
        // §1.5, §6), at the key.
        for code in ["INTERNAL", "INVALID_ARGUMENT", "UNREGISTERED", "SENDER_ID_MISMATCH", "THIRD_PARTY_AUTH_ERROR"] {
            let retry = try #require(error("faults:\n  - { error: \(code), retry_after: 30 }\n"), "\(code)")
            #expect(retry.line == 2 && retry.column == 29 + code.count, "\(code): \(retry)")
            #expect(retry.expected?.contains("QUOTA_EXCEEDED and UNAVAILABLE") == true, "\(retry)")
        }
        for code in ["QUOTA_EXCEEDED", "UNAVAILABLE"] {
            #expect(error("faults:\n  - { error: \(code), retry_after: 30 }\n") == nil)
        }
        let apns = try #require(error("projects:\n  - id: p\n    number: \"1\"\n    apns: { team_id: T, key_id: K }\n"))
        #expect(apns.line == 4)
        let token = try #require(
            error("projects:\n  - id: p\n    number: \"1\"\n    tokens: [{ token: t, apns_token: zz, topic: x }]\n"))
        #expect(token.line == 4 && token.message.contains("apns_token") || token.expected?.contains("hex") == true)
        let both = try #require(error("service_accounts: [{ client_email: a, public_key: x, credentials_file: y }]\n"))
        #expect(both.line == 1)
        let dup = try #require(error("projects: [{ id: p, number: \"1\" }, { id: p, number: \"2\" }]\n"))
        #expect(dup.expected?.contains("unique project id") == true)
    }

    /// An Android instance in the config: `package_name` (and `app_id`), never beside `apns_token`.
    @Test func androidTokens() throws {
        let c = try decode(
            """
            projects:
              - id: p
                number: "1"
                tokens:
                  - { token: "droid-1", package_name: com.example.news, app_id: "1:1:android:ab" }
                  - { token: "droid-2", package_name: com.example.news }
            """)
        #expect(
            c.projects[0].tokens.map(\.android) == [
                FCMAndroidInstance(packageName: "com.example.news", appID: "1:1:android:ab"),
                FCMAndroidInstance(packageName: "com.example.news"),
            ])
        func error(_ entry: String) -> SourceError? {
            do { _ = try decode("projects:\n  - id: p\n    number: \"1\"\n    tokens: [\(entry)]\n"); return nil } catch
            {
                return error
            }
        }
        let both = try #require(
            error("{ token: t, apns_token: \(String(repeating: "ab", count: 32)), topic: x, package_name: com.x }"))
        #expect(both.line == 4 && both.expected?.contains("package_name (Android)") == true)
        let appOnly = try #require(error("{ token: t, app_id: \"1:1:android:ab\" }"))
        #expect(appOnly.message.contains("package_name"))
    }
}
