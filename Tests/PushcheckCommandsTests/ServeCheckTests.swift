import Foundation
@testable import PushCrypto
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `serve --config … --check`, and what loading a config now finds of its TLS: an identity OpenSSL refuses and a
/// client CA file without a certificate are errors at their line (exit 2), with or without `--check`, where a
/// refused identity was "cannot start" (exit 3) once the world was up.
@Suite struct ServeCheckTests {
    /// A directory with a CA, a server certificate it issued and that certificate's key, another certificate's key,
    /// and `serve.yaml` naming `certificate`, `key` and (if any) `cas`.
    struct Files {
        let dir: TempDirectory
        init(key: String = "server.key", cas: [String] = ["ca.pem"]) throws {
            dir = try TempDirectory("serve-check")
            let ca = try CertificateAuthority.generate(commonName: "serve-check CA")
            let leaf = try ca.issueServerCertificate()
            let other = try ca.issueServerCertificate()
            try dir.write("ca.pem", ca.certificatePEM)
            try dir.write("server.pem", leaf.pem)
            try dir.write("server.key", leaf.privateKeyPEM)
            try dir.write("other.key", other.privateKeyPEM)
            let apns = cas.isEmpty ? "" : "apns:\n  client_certificate_cas: [\(cas.joined(separator: ", "))]\n"
            try dir.write("serve.yaml", "tls:\n  certificate: server.pem\n  private_key: \(key)\n" + apns)
        }
        var config: String { dir.file("serve.yaml") }
    }

    @Test func aUsableIdentityAndCAAreOK() throws {
        let files = try Files()
        defer { files.dir.remove() }
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", files.config, "--check"])
        #expect(out.status == 0, "\(out)")
        #expect(
            out.stdout
                == "\(files.config): ok: 0 apps; 0 devices; apns: 0 provider keys; tls: the config's certificate\n",
            "\(out)")
    }

    /// news-app.yaml's `devices:` (an iPhone) beside android-shop.yaml: the Android app is on no device, which the
    /// summary alone ("1 device (iphone)") did not show.
    @Test func anAppOnNoDeviceIsAWarning() throws {
        let apps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Suites/apps").path
        let dir = try TempDirectory("serve-check-hosted")
        defer { dir.remove() }
        try dir.write("serve.yaml", "include: [\(apps)/news-app.yaml, \(apps)/android-shop.yaml]\n")
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", dir.file("serve.yaml"), "--check"])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("1 device (iphone)"), "\(out)")
        #expect(
            out.stderr
                == "warning: app 'com.example.shop' is on no device (devices: iphone): it gets no token and nothing "
                + "pushed to it reaches a phone; list it in a device's apps:\n", "\(out)")
        // Without devices: every app gets the default device of its platform: nothing to warn of.
        try dir.write("alone.yaml", "include: [\(apps)/android-shop.yaml]\n")
        let alone = try runTool(pushcheckExecutable(), ["serve", "--config", dir.file("alone.yaml"), "--check"])
        #expect(alone.status == 0 && alone.stderr.isEmpty, "\(alone)")
    }

    @Test func aKeyThatIsNotTheCertificatesIsAnErrorAtItsLine() throws {
        let files = try Files(key: "other.key")
        defer { files.dir.remove() }
        for arguments in [["--check"], ["--ready-file", files.dir.file("ready.json")]] {
            let out = try runTool(pushcheckExecutable(), ["serve", "--config", files.config] + arguments)
            #expect(out.status == 2, "\(arguments): \(out)")
            #expect(
                out.stderr.contains(
                    "error: OpenSSL refuses this certificate and key: private key does not match the certificate"),
                "\(out)")
            #expect(out.stderr.contains("--> \(files.config):2:3"), "\(out)")
            #expect(!FileManager.default.fileExists(atPath: files.dir.file("ready.json")), "nothing started")
        }
    }

    @Test func aClientCAFileWithoutACertificateIsAnErrorAtItsLine() throws {
        let files = try Files(cas: ["ca.pem", "server.key"])
        defer { files.dir.remove() }
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", files.config, "--check"])
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("error: no certificate in 'server.key'"), "\(out)")
        #expect(out.stderr.contains("--> \(files.config):5:36"), "\(out)")
    }
}
