import Foundation
import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `pushcheck doctor` end to end: the built binary on files made by OpenSSL and Python (`DoctorFixtures`),
/// one fault per finding plus a clean set with none.
@Suite(.serialized) struct DoctorCommandTests {
    /// One clean fixture set per test process; faults are written beside it under their own names.
    static let shared: Result<DoctorFixtures, any Error> = Result {
        try DoctorFixtures(in: try TempDirectory.forProcess("pushcheck-doctor-fixtures"))
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: JSONValue?
        var findingIDs: [String] {
            json?["findings"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
    }

    static func doctor(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        let out = try runTool(pushcheckExecutable(), ["doctor"] + arguments, environment: environment, timeout: 60)
        let json = arguments.contains("--json") ? try? JSONValue.parse(out.stdoutBytes) : nil
        return Run(status: out.status, stdout: out.stdout, stderr: out.stderr, json: json)
    }

    /// The clean arguments with `replacing` options swapped in (value options) and `adding` appended.
    static func arguments(replacing: [String: String] = [:], removing: Set<String> = [], adding: [String] = []) throws
        -> [String]
    {
        let clean = try shared.get().cleanArguments
        var result: [String] = []
        var index = 0
        while index < clean.count {
            let option = String(clean[index].dropFirst(2))
            let takesValue = index + 1 < clean.count && !clean[index + 1].hasPrefix("--")
            if !removing.contains(option) {
                result.append(clean[index])
                if takesValue { result.append(replacing[option] ?? clean[index + 1]) }
            }
            index += takesValue ? 2 : 1
        }
        return result + adding + ["--json"]
    }

    @Test func cleanSetHasNoFindingAndExitsZero() throws {
        let f = try Self.shared.get()
        let run = try Self.doctor(try Self.arguments(adding: ["--app", f.path("App.app")]))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.findingIDs == [])
        let checks = run.json?["checks"]?.arrayValue ?? []
        #expect(checks.count >= 20, "expected every area to be checked: \(run.stdout)")
        let ids = Set(checks.compactMap { $0["id"]?.stringValue })
        for id in [
            "profile.signature", "profile.expiry", "profile.certificates", "profile.device", "profile.push",
            "entitlements.aps-environment",
            "entitlements.allowed", "environment.gateway", "info-plist.background-mode", "info-plist.firebase-proxy",
            "apns-key.type", "apns-key.key-id", "apns-key.team", "apns-cert.expiry", "apns-cert.environment",
            "apns-cert.topic", "firebase.sender-id", "firebase.project", "bundle-id.firebase", "service-account.valid",
            "extension.bundle-id", "extension.info", "extension.profile",
        ] {
            #expect(ids.contains(id), "missing check \(id)")
        }
    }

    /// Each fault alone produces its finding (and exit 1 for errors, 0 for warnings).
    @Test(arguments: [
        "profile-expired", "profile-expiring", "udid-not-provisioned", "environment-mismatch",
        "missing-aps-entitlement", "entitlement-not-allowed", "wildcard-app-id", "profile-lacks-push",
        "app-id-mismatch", "bundle-id-mismatch", "firebase-bundle-id-mismatch", "extension-bundle-id-prefix",
        "content-extension-category-missing", "background-mode-missing", "apns-token-not-forwarded",
        "apns-key-not-p256", "apns-key-id-mismatch", "apns-key-team-mismatch", "apns-cert-expired",
        "apns-cert-expiring", "apns-cert-environment", "apns-cert-topic", "firebase-sender-id-mismatch",
        "firebase-project-mismatch", "file-unreadable", "profile-signature-invalid", "service-account-invalid",
        "entitlement-not-in-profile", "signing-certificate-expired", "live-activities-not-supported",
    ])
    func faultProducesFinding(_ id: String) throws {
        let f = try Self.shared.get()
        let day: TimeInterval = 86_400
        let args: [String]
        switch id {
        case "profile-expired":
            args = try Self.arguments(replacing: [
                "profile": try f.writeProfile("expired.mobileprovision", expires: Date(timeIntervalSinceNow: -day))
            ])
        case "profile-expiring":
            args = try Self.arguments(replacing: [
                "profile": try f.writeProfile("expiring.mobileprovision", expires: Date(timeIntervalSinceNow: 10 * day))
            ])
        case "udid-not-provisioned": args = try Self.arguments(replacing: ["udid": "00008030-0000000000000001"])
        case "environment-mismatch":
            args = try Self.arguments(replacing: ["environment": "production"], removing: ["apns-cert"])
        case "missing-aps-entitlement":
            args = try Self.arguments(replacing: [
                "entitlements": try f.writePlist("noaps.entitlements", DoctorFixtures.entitlements(aps: nil))
            ])
        case "entitlement-not-allowed":
            args = try Self.arguments(replacing: [
                "entitlements": try f.writePlist(
                    "timesensitive.entitlements",
                    DoctorFixtures.entitlements(
                        extra: "<key>com.apple.developer.usernotifications.time-sensitive</key><true/>"))
            ])
        case "wildcard-app-id":
            args = try Self.arguments(replacing: [
                "profile": try f.writeProfile("wildcard.mobileprovision", appID: "\(DoctorFixtures.teamID).*")
            ])
        case "signing-certificate-expired":
            args = try Self.arguments(replacing: [
                "profile": try f.writeProfile(
                    "oldcert.mobileprovision",
                    developerCertificates: [try f.developerCertificateDER(notAfter: Date(timeIntervalSinceNow: -day))])
            ])
        case "entitlement-not-in-profile":
            args = try Self.arguments(replacing: ["profile": try f.writeProfile("nopush2.mobileprovision", aps: nil)])
        case "profile-lacks-push":
            args = try Self.arguments(replacing: ["profile": try f.writeProfile("nopush.mobileprovision", aps: nil)])
        case "app-id-mismatch":
            args = try Self.arguments(replacing: [
                "profile": try f.writeProfile(
                    "other.mobileprovision", appID: "\(DoctorFixtures.teamID).com.example.other")
            ])
        case "bundle-id-mismatch": args = try Self.arguments(replacing: ["bundle-id": "com.example.other"])
        case "firebase-bundle-id-mismatch":
            args = try Self.arguments(replacing: [
                "google-service-info": try f.writePlist(
                    "gsi-bundle.plist", DoctorFixtures.googleServiceInfo(bundleID: "com.example.other"))
            ])
        case "extension-bundle-id-prefix":
            args = try Self.arguments(adding: [
                "--app", try f.writeApp("BadExtension.app", serviceBundleID: "com.other.NotificationService"),
            ])
        case "content-extension-category-missing":
            args = try Self.arguments(adding: ["--app", try f.writeApp("NoCategory.app", contentCategory: nil)])
        case "live-activities-not-supported":
            // The fixture's Info.plist has no NSSupportsLiveActivities (Tests/reference/live-activities.md §1.1).
            args = try Self.arguments(adding: ["--expects-live-activities"])
        case "background-mode-missing":
            args = try Self.arguments(replacing: [
                "info-plist": try f.writePlist(
                    "nomodes-Info.plist", DoctorFixtures.infoPlist(backgroundModes: nil), binary: true)
            ])
        case "apns-token-not-forwarded":
            args = try Self.arguments(replacing: [
                "info-plist": try f.writePlist("noproxy-Info.plist", DoctorFixtures.infoPlist(firebaseProxy: false))
            ])
        case "apns-key-not-p256":
            args = try Self.arguments(
                replacing: ["apns-key": try f.writeAPNsKey("AuthKey_RSAKEY0000.p8", rsa: true)], removing: ["key-id"])
        case "apns-key-id-mismatch": args = try Self.arguments(replacing: ["key-id": "OTHER12345"])
        case "apns-key-team-mismatch": args = try Self.arguments(replacing: ["team-id": "ZZZZZ99999"])
        case "apns-cert-expired":
            args = try Self.arguments(replacing: [
                "apns-cert": try f.writeAPNsCertificate("expired.p12", notAfter: Date(timeIntervalSinceNow: -day))
            ])
        case "apns-cert-expiring":
            args = try Self.arguments(replacing: [
                "apns-cert": try f.writeAPNsCertificate("expiring.pem", notAfter: Date(timeIntervalSinceNow: 5 * day))
            ])
        case "apns-cert-environment":
            args = try Self.arguments(replacing: [
                "apns-cert": try f.writeAPNsCertificate("prod.p12", environments: .production)
            ])
        case "apns-cert-topic":
            args = try Self.arguments(replacing: [
                "apns-cert": try f.writeAPNsCertificate("othertopic.p12", bundleID: "com.example.other")
            ])
        case "firebase-sender-id-mismatch":
            args = try Self.arguments(replacing: [
                "google-service-info": try f.writePlist(
                    "gsi-sender.plist", DoctorFixtures.googleServiceInfo(appSender: "999999999999"))
            ])
        case "firebase-project-mismatch":
            args = try Self.arguments(replacing: [
                "service-account": try f.writeServiceAccount("sa-other.json", project: "other-project")
            ])
        case "file-unreadable": args = try Self.arguments(replacing: ["profile": f.path("missing.mobileprovision")])
        case "profile-signature-invalid":
            let bare = try f.directory.write(
                "bare.mobileprovision",
                DoctorFixtures.plistDocument(
                    "<key>Name</key><string>Bare</string><key>CreationDate</key><date>2026-01-01T00:00:00Z</date>"
                        + "<key>ExpirationDate</key><date>2099-01-01T00:00:00Z</date><key>ProvisionedDevices</key>"
                        + "<array><string>\(DoctorFixtures.udid)</string></array><key>TeamIdentifier</key><array><string>"
                        + "\(DoctorFixtures.teamID)</string></array><key>Entitlements</key><dict><key>application-identifier</key>"
                        + "<string>\(DoctorFixtures.teamID).\(DoctorFixtures.bundleID)</string><key>aps-environment</key>"
                        + "<string>development</string><key>keychain-access-groups</key><array><string>\(DoctorFixtures.teamID).*</string></array>"
                        + "<key>get-task-allow</key><true/></dict>"))
            args = try Self.arguments(replacing: ["profile": bare])
        case "service-account-invalid":
            args = try Self.arguments(replacing: [
                "service-account": try f.directory.write(
                    "sa-bad.json", #"{"type": "authorized_user", "project_id": "example-push"}"#)
            ])
        default: Issue.record("no fault for \(id)"); return
        }
        let run = try Self.doctor(args)
        #expect(run.findingIDs.contains(id), "\(id) not reported: \(run.findingIDs)\n\(run.stderr)")
        let severity = run.json?["findings"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["severity"]?
            .stringValue
        let warningsOnly = [
            "profile-expiring", "apns-cert-expiring", "background-mode-missing", "apns-token-not-forwarded",
            "profile-signature-invalid", "content-extension-category-missing",
        ]
        #expect(severity == (warningsOnly.contains(id) ? "warning" : "error"))
        if warningsOnly.contains(id) {
            #expect(run.status == 0, "warnings alone exit 0: \(run.findingIDs)")
            #expect(run.findingIDs.allSatisfy { $0 == id }, "only \(id) expected: \(run.findingIDs)")
        } else {
            #expect(run.status == 1)
        }
        // Every finding says what breaks, the symptom and the fix, and names its file.
        for finding in run.json?["findings"]?.arrayValue ?? [] {
            for key in ["breaks", "symptom", "fix", "file", "cause"] {
                let text = finding[key]?.stringValue ?? ""
                #expect(text.count > 0, "\(id): empty \(key)")
            }
        }
    }

    /// `--topic` beside `--bundle-id`, no Info.plist: the mismatch is reported as DeviceTokenNotForTopic and the
    /// finding says which one is wrong (here the topic: the profile's App ID is the bundle id's).
    @Test func topicAndBundleIDWithoutAnInfoPlist() throws {
        let f = try Self.shared.get()
        let run = try Self.doctor([
            "--profile", f.path("Dev.mobileprovision"), "--bundle-id", DoctorFixtures.bundleID, "--topic",
            "com.example.other", "--json",
        ])
        #expect(run.status == 1)
        #expect(run.findingIDs == ["bundle-id-mismatch"], "\(run.findingIDs) \(run.stderr)")
        let finding = run.json?["findings"]?.arrayValue?.first
        #expect(finding?["symptom"]?.stringValue == "APNs answers 400 DeviceTokenNotForTopic")
        #expect(finding?["cause"]?.stringValue?.contains("the topic is wrong") == true, "\(run.stdout)")
    }

    @Test func extensionsOwnProfileIsCheckedWithTheDevicesInstallRule() throws {
        let f = try Self.shared.get()
        let app = try f.writeApp(
            "ServiceProfile.app", serviceProfileAppID: "\(DoctorFixtures.teamID).com.example.app.Other")
        let run = try Self.doctor(["--app", app, "--udid", DoctorFixtures.udid, "--json"])
        #expect(run.findingIDs == ["app-id-mismatch"], "\(run.findingIDs)")
        let file = run.json?["findings"]?.arrayValue?.first?["file"]?.stringValue ?? ""
        #expect(file.hasSuffix("NotificationService.appex/embedded.mobileprovision"))
    }

    @Test func registrationTextIsTheDevicesExactMessage() throws {
        let f = try Self.shared.get()
        let run = try Self.doctor([
            "--profile", f.path("Dev.mobileprovision"),
            "--entitlements", try f.writePlist("noaps2.entitlements", DoctorFixtures.entitlements(aps: nil)),
        ])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains("no valid \u{201C}aps-environment\u{201D} entitlement string found for application"))
    }

    @Test func garbageFilesAreFindingsNotCrashes() throws {
        let f = try Self.shared.get()
        let garbage = try f.directory.write("garbage.bin", [0x30, 0x82, 0xff, 0xff, 0x00, 0x01, 0x02])
        let run = try Self.doctor([
            "--profile", garbage, "--entitlements", garbage, "--info-plist", garbage, "--apns-key", garbage,
            "--apns-cert", garbage, "--google-service-info", garbage, "--service-account", garbage,
            "--app", f.path("nonexistent.app"), "--json",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let files = run.json?["findings"]?.arrayValue?.filter { $0["id"]?.stringValue == "file-unreadable" } ?? []
        #expect(files.count == 7, "\(run.stdout)")
        #expect(files.allSatisfy { ($0["cause"]?.stringValue ?? "").contains(garbage) })
    }

    /// A certificate whose Apple OIDs were encoded by the openssl CLI, not by PushCrypto.
    @Test func opensslMadeDevelopmentCertificateIsReadForEnvironmentAndTopic() throws {
        let f = try Self.shared.get()
        let cert = try f.writeOpenSSLPushCertificate("openssl-dev.pem")
        let sandbox = try Self.doctor([
            "--apns-cert", cert, "--bundle-id", DoctorFixtures.bundleID, "--environment", "sandbox", "--json",
        ])
        #expect(sandbox.status == 0, "\(sandbox.findingIDs)")
        #expect(sandbox.json?["checks"]?.arrayValue?.count == 3)
        let production = try Self.doctor([
            "--apns-cert", cert, "--bundle-id", DoctorFixtures.bundleID, "--environment", "production", "--json",
        ])
        #expect(production.findingIDs == ["apns-cert-environment"])
        let other = try Self.doctor([
            "--apns-cert", cert, "--bundle-id", "com.example.other", "--environment", "sandbox", "--json",
        ])
        #expect(other.findingIDs == ["apns-cert-topic"])
    }

    /// A PEM exported with its chain, the intermediate CA first: the push certificate is the one with Apple's push
    /// extensions, not the first (the CA gave apns-cert-not-push and apns-cert-topic).
    @Test func aPEMWithTheIntermediateFirstIsReadForItsPushCertificate() throws {
        let f = try Self.shared.get()
        let ca = try CertificateAuthority.generate(commonName: "Stand-in Apple Worldwide Developer Relations CA")
        let push = try String(contentsOfFile: try f.writeAPNsCertificate("chain-leaf.pem"), encoding: .utf8)
        let chain = try f.directory.write("chain-first.pem", ca.certificatePEM + push)
        let run = try Self.doctor([
            "--apns-cert", chain, "--bundle-id", DoctorFixtures.bundleID, "--environment", "sandbox", "--json",
        ])
        #expect(run.status == 0, "\(run.findingIDs)")
        #expect(run.findingIDs == [])
    }

    @Test func wrongP12PasswordIsAFindingNamingTheFile() throws {
        let f = try Self.shared.get()
        let run = try Self.doctor(["--apns-cert", f.path("push.p12"), "--password", "wrong", "--json"])
        #expect(run.status == 1)
        let finding = run.json?["findings"]?.arrayValue?.first
        #expect(finding?["id"]?.stringValue == "file-unreadable")
        #expect(finding?["cause"]?.stringValue?.contains("wrong password") == true, "\(run.stdout)")
        #expect(finding?["file"]?.stringValue == f.path("push.p12"))
    }

    @Test func xmlExternalEntitiesAreNeverResolved() throws {
        let f = try Self.shared.get()
        let secret = try f.directory.write("secret.txt", "TOP-SECRET-VALUE")
        let evil = try f.directory.write(
            "evil-Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>&xxe;</string></dict></plist>
            """)
        let run = try Self.doctor([
            "--info-plist", evil, "--bundle-id", "com.example.app", "--expects-silent-push", "--json",
        ])
        #expect(!run.stdout.contains("TOP-SECRET-VALUE"))
        #expect(!run.stderr.contains("TOP-SECRET-VALUE"))
        #expect(run.status == 0 || run.status == 1, "no crash: \(run.status) \(run.stderr)")
    }

    @Test func junitHasOneTestcasePerCheckAndValidatesAgainstTheSchema() throws {
        let f = try Self.shared.get()
        let report = f.directory.file("doctor-junit.xml")
        let args = try Self.arguments(replacing: ["udid": "00008030-0000000000000001"]) + ["--junit", report]
        let run = try Self.doctor(args)
        #expect(run.status == 1)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReportsTests/Schema/junit-pushcheck.xsd").path
        let lint = try runTool("xmllint", ["--noout", "--schema", schema, report])
        #expect(lint.succeeded, "\(lint.output)")
        let xml = String(decoding: try f.directory.read("doctor-junit.xml"), as: UTF8.self)
        let checks = run.json?["checks"]?.arrayValue?.count ?? -1
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == checks)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 1)
        #expect(xml.contains("udid-not-provisioned"))
    }

    /// `--junit out/doctor.xml` without `out/` (README's own `--junit Reports/doctor.xml` on a fresh checkout): the
    /// directory is made, as `run --junit` does. A report that cannot be written is exit 3, which the help says.
    @Test func junitMakesMissingDirectoriesAndAnUnwritableReportIsExitThree() throws {
        let f = try Self.shared.get()
        let report = f.directory.file("missing-\(UUID().uuidString.prefix(8))/out/doctor.xml")
        let args = try Self.arguments(replacing: ["udid": "00008030-0000000000000001"])
        let run = try Self.doctor(args + ["--junit", report])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: report), "\(run.stderr)")
        let refused = try Self.doctor(args + ["--junit", f.directory.path])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("cannot write the report"), "\(refused.stderr)")
        let help = try runTool(pushcheckExecutable(), ["doctor", "--help"])
        #expect(help.stdout.contains("3 the --junit report could not be written"), "\(help.stdout)")
    }

    @Test func humanReportGroupsByFileMostSeriousFirstWithoutColourWhenPiped() throws {
        let f = try Self.shared.get()
        let run = try Self.doctor([
            "--profile", f.path("Dev.mobileprovision"), "--udid", "00008030-0000000000000001",
            "--info-plist", try f.writePlist("nomodes2-Info.plist", DoctorFixtures.infoPlist(backgroundModes: nil)),
            "--expects-silent-push", "--apns-key", f.path("AuthKey_\(DoctorFixtures.keyID).p8"),
        ])
        #expect(run.status == 1)
        #expect(!run.stdout.contains("\u{1B}["), "no ANSI when not a terminal")
        let profile = run.stdout.range(of: "Dev.mobileprovision\n")
        let info = run.stdout.range(of: "nomodes2-Info.plist\n")
        let key = run.stdout.range(of: "✓ \(f.path("AuthKey_\(DoctorFixtures.keyID).p8"))")
        #expect(profile != nil && info != nil && key != nil, "\(run.stdout)")
        if let profile, let info, let key {
            #expect(
                profile.lowerBound < info.lowerBound && info.lowerBound < key.lowerBound,
                "errors, then warnings, then clean files")
        }
        #expect(run.stdout.contains("✗ error udid-not-provisioned"))
        #expect(run.stdout.contains("! warning background-mode-missing"))
        #expect(run.stdout.contains("symptom: "))
    }

    @Test func verboseListsWhatWasVerifiedIncludingTheProfileSignature() throws {
        let f = try Self.shared.get()
        let run = try Self.doctor(["--profile", f.path("Dev.mobileprovision"), "--verbose"])
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "✓ the CMS signature over the profile verifies (signer /CN=Apple iPhone OS Provisioning Profile Signing; Apple's chain not required)"
            ),
            "\(run.stdout)")
        let bare = try Self.doctor(["--profile", f.path("Dev.mobileprovision")])
        #expect(!bare.stdout.contains("CMS signature"))
    }

    @Test func colourOnlyOnATerminalAndNoColorHonoured() throws {
        let f = try Self.shared.get()
        let command =
            "\(pushcheckExecutable()) doctor --profile \(f.path("Dev.mobileprovision")) --udid 00008030-0000000000000001"
        let tty = try runTool(
            "script", ["-qec", command, "/dev/null"], environment: ["TERM": "xterm", "NO_COLOR": "", "CI": ""])
        #expect(tty.stdout.contains("\u{1B}[31m"), "colour on a terminal: \(tty.stdout)")
        let noColor = try runTool(
            "script", ["-qec", command, "/dev/null"], environment: ["TERM": "xterm", "NO_COLOR": "1", "CI": ""])
        #expect(noColor.stdout.contains("udid-not-provisioned"))
        #expect(!noColor.stdout.contains("\u{1B}[31m"), "NO_COLOR: \(noColor.stdout)")
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try Self.doctor([]).status == 2)
        let typo = try Self.doctor(["--profle", "x"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean '--profile'"))
        #expect(try Self.doctor(["--profile", "x", "--environment", "staging"]).status == 2)
    }

    @Test func configFileTakesTheSuiteAppKeysAndReportsPositions() throws {
        let f = try Self.shared.get()
        let config = try f.directory.write(
            "doctor.yaml",
            """
            bundle_id: com.example.app
            team_id: ABCDE12345
            provisioning_profile_file: Dev.mobileprovision
            entitlements_file: App.entitlements
            info_plist_file: Info.plist
            apns_key_file: AuthKey_KEY1234567.p8
            key_id: KEY1234567
            udid: 00008030-0000000000000001
            environment: sandbox
            firebase: { sender_id: "123456789012", project_id: example-push }
            google_service_info_file: GoogleService-Info.plist
            """)
        let run = try Self.doctor(["--config", config, "--json"])
        #expect(run.status == 1)
        #expect(run.findingIDs == ["udid-not-provisioned"], "\(run.findingIDs)")
        let overridden = try Self.doctor(["--config", config, "--udid", DoctorFixtures.udid, "--json"])
        #expect(overridden.status == 0, "\(overridden.findingIDs)")
        let bad = try f.directory.write("bad-doctor.yaml", "bundle_id: com.example.app\nudi: 123\n")
        let badRun = try Self.doctor(["--config", bad])
        #expect(badRun.status == 2)
        #expect(badRun.stderr.contains("bad-doctor.yaml:2:1"), "\(badRun.stderr)")
        #expect(badRun.stderr.contains("udid"), "\(badRun.stderr)")
    }
}

@Suite struct DoctorRequestTests {
    /// `--config` shares the suite world's app key names for the app's files.
    @Test func configUsesTheSuiteAppKeys() {
        #expect(DoctorRequest.appKeys.count == 6)
    }

    /// Every text setting is read from `--config` (files resolved against its directory) and overridden by its
    /// command-line option; a setting given in neither place keeps its default.
    @Test func everySettingComesFromTheConfigAndTheCommandLine() throws {
        let dir = try TempDirectory("pushcheck-doctor-request")
        defer { dir.remove() }
        let config = try dir.write(
            "doctor.yaml",
            """
            provisioning_profile_file: p.mobileprovision
            entitlements_file: e.entitlements
            info_plist_file: Info.plist
            app: App.app
            apns_key_file: k.p8
            apns_cert_file: c.p12
            password: secret
            google_service_info_file: g.plist
            service_account_file: sa.json
            bundle_id: com.example.app
            topic: com.example.app.voip
            team_id: ABCDE12345
            key_id: KEY1234567
            udid: U1
            """)
        var r = try DoctorRequest.load(path: config)
        let at = { (name: String) in dir.path + "/" + name }
        #expect(r.paths.profile == at("p.mobileprovision") && r.paths.entitlements == at("e.entitlements"))
        #expect(r.paths.infoPlist == at("Info.plist") && r.paths.app == at("App.app") && r.paths.apnsKey == at("k.p8"))
        #expect(r.paths.apnsCertificate == at("c.p12") && r.paths.certificatePassword == "secret")
        #expect(r.paths.googleServiceInfo == at("g.plist") && r.paths.serviceAccount == at("sa.json"))
        #expect(r.context.bundleID == "com.example.app" && r.context.teamID == "ABCDE12345")
        #expect(r.context.keyID == "KEY1234567" && r.context.udid == "U1")
        #expect(r.context.topic == "com.example.app.voip")

        let options = [
            "profile", "entitlements", "info-plist", "app", "apns-key", "apns-cert", "password", "google-service-info",
            "service-account", "bundle-id", "topic", "team-id", "key-id", "udid",
        ]
        try r.apply(
            try ParsedArguments.parse(options.flatMap { ["--\($0)", "cli-\($0)"] }, options: DoctorCommand.options))
        #expect(r.paths.profile == "cli-profile" && r.paths.entitlements == "cli-entitlements")
        #expect(r.paths.infoPlist == "cli-info-plist" && r.paths.app == "cli-app" && r.paths.apnsKey == "cli-apns-key")
        #expect(r.paths.apnsCertificate == "cli-apns-cert" && r.paths.certificatePassword == "cli-password")
        #expect(
            r.paths.googleServiceInfo == "cli-google-service-info" && r.paths.serviceAccount == "cli-service-account")
        #expect(r.context.bundleID == "cli-bundle-id" && r.context.teamID == "cli-team-id")
        #expect(r.context.keyID == "cli-key-id" && r.context.udid == "cli-udid" && r.context.topic == "cli-topic")

        var empty = DoctorRequest()
        try empty.apply(try ParsedArguments.parse([], options: DoctorCommand.options))
        #expect(empty.paths.isEmpty && empty.paths.certificatePassword == "" && empty.context.udid == nil)
    }
}

/// The README's pasted diagnosis of the seed's case is what the command prints for the same files.
@Suite struct DoctorReadmeTests {
    @Test func readmeSeedDiagnosisIsTheCommandsOutput() throws {
        let dir = try TempDirectory("pushcheck-doctor-readme")
        defer { dir.remove() }
        let f = try DoctorFixtures(in: dir)
        try f.writeProfile("Example_Development.mobileprovision", profileName: "Example Development")
        try f.writePlist("App.entitlements", DoctorFixtures.entitlements(aps: nil))
        try f.writePlist("Info.plist", DoctorFixtures.infoPlist(backgroundModes: nil))
        let command = [
            pushcheckExecutable(), "doctor", "--profile", "Example_Development.mobileprovision", "--entitlements",
            "App.entitlements", "--info-plist", "Info.plist", "--google-service-info", "GoogleService-Info.plist",
            "--udid", "00008110-000B5D1A3C91002E", "--bundle-id", "com.example.app", "--environment", "sandbox",
            "--expects-silent-push",
        ]
        let run = try runTool("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", dir.path] + command)
        #expect(run.status == 1)
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "--bundle-id com.example.app --environment sandbox --expects-silent-push\n"),
            let end = text.range(of: "\n$ echo $?", range: start.upperBound..<text.endIndex)
        else {
            Issue.record("README has no doctor seed diagnosis block")
            return
        }
        let pasted = String(text[start.upperBound..<end.lowerBound])
        #expect(pasted == run.stdout.trimmingCharacters(in: .newlines))
    }
}
