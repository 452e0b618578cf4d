import Foundation
import PushModel
@testable import PushCrypto

/// Real input files for `pushcheck doctor`, made the way the real ones are: a stand-in "Apple" CA and
/// profile signer (`openssl req`), CMS-signed profile plists (`openssl cms -sign -nodetach`), `.p8` and
/// service-account keys (`openssl genpkey`, EC P-256 and RSA), push certificates with Apple's OIDs
/// (PushCrypto's CA, so dates can lie in the past) exported with `openssl pkcs12 -export`, and binary
/// plists (Python's `plistlib`, an independent writer).
///
/// `init` writes a clean set with no finding; each `write…` call replaces one file to inject one fault.
package struct DoctorFixtures: Sendable {
    package static let bundleID = "com.example.app"
    package static let teamID = "ABCDE12345"
    package static let keyID = "KEY1234567"
    package static let udid = "00008110-000A1C2E0E12801E"
    package static let senderID = "123456789012"
    package static let projectID = "example-push"
    package static let certificatePassword = "secret"

    package let directory: TempDirectory
    /// The stand-in "Apple iPhone OS Provisioning Profile Signing" certificate and key.
    package let profileSigner: CertificateFiles

    package init(in directory: TempDirectory) throws {
        self.directory = directory
        let maker = OpenSSLCertificateMaker(in: directory, days: 3650)
        let ca = try maker.selfSigned("apple-ca", commonName: "Stand-in Apple Root CA", isCA: true)
        profileSigner = try maker.issue(
            "profile-signer", commonName: "Apple iPhone OS Provisioning Profile Signing", by: ca,
            extensions: ["keyUsage=critical,digitalSignature"])
        try writeProfile("Dev.mobileprovision")
        try writePlist("App.entitlements", Self.entitlements())
        try writePlist("Info.plist", Self.infoPlist(), binary: true)
        try writeAPNsKey("AuthKey_\(Self.keyID).p8")
        try writeAPNsCertificate("push.p12")
        try writePlist("GoogleService-Info.plist", Self.googleServiceInfo())
        try writeServiceAccount("service-account.json")
        try writeApp("App.app")
    }

    package func path(_ name: String) -> String { directory.file(name) }

    /// Every clean file as command-line options (profile, entitlements, Info.plist, key, certificate,
    /// Firebase files) with the context that matches them.
    package var cleanArguments: [String] {
        [
            "--profile", path("Dev.mobileprovision"), "--entitlements", path("App.entitlements"),
            "--info-plist", path("Info.plist"), "--apns-key", path("AuthKey_\(Self.keyID).p8"),
            "--key-id", Self.keyID, "--team-id", Self.teamID, "--apns-cert", path("push.p12"),
            "--password", Self.certificatePassword, "--google-service-info", path("GoogleService-Info.plist"),
            "--service-account", path("service-account.json"), "--udid", Self.udid, "--bundle-id", Self.bundleID,
            "--environment", "sandbox", "--expects-silent-push",
        ]
    }

    // MARK: - profiles

    /// A CMS-signed `.mobileprovision` with the given facts (keys as in TN3125).
    @discardableResult
    package func writeProfile(
        _ name: String, profileName: String = "Example Dev", appID: String = "\(teamID).\(bundleID)",
        team: String = teamID, aps: String? = "development", getTaskAllow: Bool = true,
        devices: [String]? = [udid], allDevices: Bool = false,
        expires: Date = Date(timeIntervalSinceNow: 300 * 86_400), extraEntitlements: String = "",
        developerCertificates: [[UInt8]]? = nil
    ) throws -> String {
        var ents = "<key>application-identifier</key><string>\(appID)</string>"
        ents += "<key>com.apple.developer.team-identifier</key><string>\(team)</string>"
        ents += "<key>get-task-allow</key>" + (getTaskAllow ? "<true/>" : "<false/>")
        ents += "<key>keychain-access-groups</key><array><string>\(team).*</string></array>"
        if let aps { ents += "<key>aps-environment</key><string>\(aps)</string>" }
        ents += extraEntitlements
        var body = """
            <key>AppIDName</key><string>Example</string>
            <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
            <key>CreationDate</key><date>\(Self.iso(expires.addingTimeInterval(-365 * 86_400)))</date>
            <key>ExpirationDate</key><date>\(Self.iso(expires))</date>
            <key>Entitlements</key><dict>\(ents)</dict>
            <key>Name</key><string>\(profileName)</string>
            <key>Platform</key><array><string>iOS</string></array>
            <key>TeamIdentifier</key><array><string>\(team)</string></array>
            <key>TeamName</key><string>Example Team</string>
            <key>UUID</key><string>5B1E0A3C-0000-4000-8000-000000000001</string>
            <key>Version</key><integer>1</integer>
            """
        if let devices {
            body +=
                "<key>ProvisionedDevices</key><array>" + devices.map { "<string>\($0)</string>" }.joined() + "</array>"
        }
        if allDevices { body += "<key>ProvisionsAllDevices</key><true/>" }
        let certificates = try developerCertificates ?? [developerCertificateDER()]
        body +=
            "<key>DeveloperCertificates</key><array>"
            + certificates.map { "<data>\(Data($0).base64EncodedString())</data>" }.joined() + "</array>"
        let plist = try directory.write(name + ".plist", Self.plistDocument(body))
        try runTool(
            "openssl",
            [
                "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plist, "-out", path(name),
                "-signer", profileSigner.cert, "-inkey", profileSigner.key,
            ]
        ).requireSuccess()
        try FileManager.default.removeItem(atPath: plist)
        return path(name)
    }

    /// A stand-in "Apple Development" signing certificate (DER) valid until `notAfter`.
    package func developerCertificateDER(notAfter: Date = Date(timeIntervalSinceNow: 300 * 86_400)) throws -> [UInt8] {
        let ca = try CertificateAuthority.generate(commonName: "Stand-in Apple Worldwide Developer Relations CA")
        return try ca.issueAPNsClientCertificate(
            APNsClientCertificateRequest(
                bundleID: Self.bundleID, teamID: Self.teamID, environments: [], topics: [],
                commonName: "Apple Development: Example Developer (\(Self.teamID))",
                notBefore: notAfter.addingTimeInterval(-365 * 86_400), notAfter: notAfter)
        ).der
    }

    // MARK: - plists

    /// Writes a plist whose root dictionary has `body` (XML key/value elements); binary via `plistlib`.
    @discardableResult
    package func writePlist(_ name: String, _ body: String, binary: Bool = false) throws -> String {
        let target = path(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try directory.write(name, Self.plistDocument(body))
        if binary {
            let script = """
                import plistlib, sys
                p = sys.argv[1]
                with open(p, 'rb') as f: v = plistlib.load(f)
                with open(p, 'wb') as f: plistlib.dump(v, f, fmt=plistlib.FMT_BINARY)
                """
            try runTool("python3", ["-c", script, target]).requireSuccess()
        }
        return target
    }

    package static func plistDocument(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>\(body)</dict></plist>

        """
    }

    package static func entitlements(aps: String? = "development", extra: String = "") -> String {
        (aps.map { "<key>aps-environment</key><string>\($0)</string>" } ?? "") + extra
    }

    package static func infoPlist(
        bundleID: String = bundleID, backgroundModes: [String]? = ["remote-notification"], firebaseProxy: Bool? = nil
    ) -> String {
        var body =
            "<key>CFBundleIdentifier</key><string>\(bundleID)</string><key>CFBundleName</key><string>Example</string>"
        if let backgroundModes {
            body +=
                "<key>UIBackgroundModes</key><array>" + backgroundModes.map { "<string>\($0)</string>" }.joined()
                + "</array>"
        }
        if let firebaseProxy {
            body += "<key>FirebaseAppDelegateProxyEnabled</key>" + (firebaseProxy ? "<true/>" : "<false/>")
        }
        return body
    }

    package static func googleServiceInfo(
        bundleID: String = bundleID, sender: String = senderID, appSender: String = senderID,
        project: String = projectID
    ) -> String {
        """
        <key>API_KEY</key><string>AIzaSyExampleExampleExampleExample000</string>
        <key>GCM_SENDER_ID</key><string>\(sender)</string>
        <key>PLIST_VERSION</key><string>1</string>
        <key>BUNDLE_ID</key><string>\(bundleID)</string>
        <key>PROJECT_ID</key><string>\(project)</string>
        <key>STORAGE_BUCKET</key><string>\(project).appspot.com</string>
        <key>IS_GCM_ENABLED</key><true/>
        <key>GOOGLE_APP_ID</key><string>1:\(appSender):ios:0123456789abcdef</string>
        """
    }

    package static func extensionInfo(bundleID: String, content: Bool, category: String? = "Kanmoba") -> String {
        var attributes = ""
        if content {
            if let category { attributes += "<key>UNNotificationExtensionCategory</key><string>\(category)</string>" }
            attributes += "<key>UNNotificationExtensionInitialContentSizeRatio</key><real>1</real>"
        }
        let point = content ? "com.apple.usernotifications.content-extension" : "com.apple.usernotifications.service"
        return """
            <key>CFBundleIdentifier</key><string>\(bundleID)</string>
            <key>NSExtension</key><dict>
              <key>NSExtensionPointIdentifier</key><string>\(point)</string>
              <key>NSExtensionAttributes</key><dict>\(attributes)</dict>
            </dict>
            """
    }

    // MARK: - keys and certificates

    /// An APNs auth key: EC P-256 PKCS#8 like Apple's, or RSA to inject the wrong-type fault.
    @discardableResult
    package func writeAPNsKey(_ name: String, rsa: Bool = false) throws -> String {
        let algorithm =
            rsa
            ? ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
            : ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try runTool("openssl", ["genpkey"] + algorithm + ["-out", path(name)]).requireSuccess()
        return path(name)
    }

    /// A push certificate with Apple's OIDs; `.p12` names are exported with `openssl pkcs12 -export`.
    @discardableResult
    package func writeAPNsCertificate(
        _ name: String, bundleID: String = bundleID, environments: APNsCertificateEnvironments = .both,
        notAfter: Date = Date(timeIntervalSinceNow: 300 * 86_400)
    ) throws -> String {
        let ca = try CertificateAuthority.generate(commonName: "Stand-in Apple Worldwide Developer Relations CA")
        let cert = try ca.issueAPNsClientCertificate(
            APNsClientCertificateRequest(
                bundleID: bundleID, teamID: Self.teamID, environments: environments,
                notBefore: notAfter.addingTimeInterval(-365 * 86_400), notAfter: notAfter, keyType: .rsa2048))
        let pem = try directory.write(name + ".pem", cert.combinedPEM)
        if name.hasSuffix(".p12") {
            try runTool(
                "openssl",
                ["pkcs12", "-export", "-in", pem, "-out", path(name), "-passout", "pass:\(Self.certificatePassword)"]
            ).requireSuccess()
            try FileManager.default.removeItem(atPath: pem)
        } else {
            try FileManager.default.moveItem(atPath: pem, toPath: path(name))
        }
        return path(name)
    }

    /// A development-only push certificate made entirely by the `openssl` CLI (an independent encoder of
    /// Apple's OIDs: …6.3.1 as DER NULL, …6.3.6 as `SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind } }`).
    @discardableResult
    package func writeOpenSSLPushCertificate(_ name: String, bundleID: String = bundleID) throws -> String {
        let config = try directory.write(
            name + ".cnf",
            """
            [req]
            distinguished_name = dn
            prompt = no
            [dn]
            UID = \(bundleID)
            CN = Apple Development IOS Push Services: \(bundleID)
            OU = \(Self.teamID)
            O = Example Team
            C = US
            [ext]
            1.2.840.113635.100.6.3.1 = DER:05:00
            1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:topics
            [topics]
            t1 = UTF8String:\(bundleID)
            k1 = SEQWRAP,UTF8String:app

            """)
        try runTool(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path(name + ".key"), "-out", path(name),
                "-days", "200", "-config", config, "-extensions", "ext",
            ]
        ).requireSuccess()
        return path(name)
    }

    @discardableResult
    package func writeServiceAccount(_ name: String, project: String = projectID) throws -> String {
        let key = directory.file(name + ".key")
        try runTool("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key])
            .requireSuccess()
        let pem = try String(contentsOfFile: key, encoding: .utf8)
        try FileManager.default.removeItem(atPath: key)
        let escaped = pem.replacingOccurrences(of: "\n", with: "\\n")
        return try directory.write(
            name,
            """
            {
              "type": "service_account",
              "project_id": "\(project)",
              "private_key_id": "0123456789abcdef0123456789abcdef01234567",
              "private_key": "\(escaped)",
              "client_email": "firebase-adminsdk-abcde@\(project).iam.gserviceaccount.com",
              "client_id": "100000000000000000000",
              "token_uri": "https://oauth2.googleapis.com/token"
            }

            """)
    }

    /// A built app bundle: `embedded.mobileprovision`, binary `Info.plist`, a service and a content extension.
    @discardableResult
    package func writeApp(
        _ name: String, serviceBundleID: String = "\(bundleID).NotificationService",
        contentCategory: String? = "Kanmoba",
        serviceProfileAppID: String? = nil
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: path(name), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path("\(name)/embedded.mobileprovision"))
        try FileManager.default.copyItem(
            atPath: path("Dev.mobileprovision"), toPath: path("\(name)/embedded.mobileprovision"))
        try writePlist("\(name)/Info.plist", Self.infoPlist(), binary: true)
        try writePlist(
            "\(name)/PlugIns/NotificationService.appex/Info.plist",
            Self.extensionInfo(bundleID: serviceBundleID, content: false))
        try writeProfile(
            "\(name)/PlugIns/NotificationService.appex/embedded.mobileprovision", profileName: "Example Service Dev",
            appID: serviceProfileAppID ?? "\(Self.teamID).\(serviceBundleID)", aps: nil)
        try writePlist(
            "\(name)/PlugIns/NotificationContent.appex/Info.plist",
            Self.extensionInfo(
                bundleID: "\(Self.bundleID).NotificationContent", content: true, category: contentCategory),
            binary: true)
        return path(name)
    }

    /// Not `ISO8601DateFormatter`: it corrupts the heap on Linux (PushModel's `ISO8601` says how), and the test
    /// process then aborted later, elsewhere.
    static func iso(_ date: Date) -> String {
        ISO8601.string(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }
}
