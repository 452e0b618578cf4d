import Foundation
@testable import PushModel
import Testing

@testable import Doctor

/// `doctor` on an Android app's real files (Tests/DoctorTests/Fixtures/android): google-services.json and a
/// plain-XML AndroidManifest.xml read with libxml2, binary AXML refused, every Android misconfiguration named.
@Suite struct AndroidDoctorTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/android").path

    static func run(
        googleServices: String? = "google-services.json", manifest: String? = "AndroidManifest.xml",
        serviceAccount: String? = nil, _ configure: (inout DoctorContext) -> Void = { _ in }
    ) -> [DoctorCheck] {
        var paths = DoctorFilePaths()
        paths.googleServices = googleServices.map { fixtures + "/" + $0 }
        paths.androidManifest = manifest.map { fixtures + "/" + $0 }
        paths.serviceAccount = serviceAccount
        var context = DoctorContext()
        configure(&context)
        return Doctor.diagnose(DoctorInputLoader.load(paths), context: context, now: Date())
    }

    static func ids(_ checks: [DoctorCheck]) -> [String] { checks.flatMap(\.findings).map(\.id) }

    @Test func aWellConfiguredAppHasNoFinding() {
        let checks = Self.run {
            $0.androidChannels = ["news", "quiet"]
            $0.clickActions = ["com.example.news.OPEN_ARTICLE"]
            $0.firebaseSenderID = "123456789012"
        }
        #expect(Self.ids(checks) == [])
        #expect(
            Set(checks.map(\.id)).isSuperset(of: [
                "google-services.keys", "google-services.sender-id", "google-services.package",
                "android-manifest.messaging-service", "android-manifest.default-channel",
                "android-manifest.post-notifications", "android-manifest.click-action", "android-manifest.launcher",
                "android-manifest.default-icon",
            ]))
    }

    /// The misconfigurations the issue lists, each with the file, what breaks, the symptom and the fix.
    @Test func everyManifestMisconfigurationIsNamed() throws {
        let checks = Self.run(manifest: "AndroidManifest-misconfigured.xml") {
            $0.clickActions = ["com.example.news.OPEN_ARTICLE", "com.example.news.OPEN_LIVE"]
        }
        #expect(
            Self.ids(checks) == [
                "no-firebase-messaging-service", "default-notification-channel-missing", "post-notifications-removed",
                "click-action-no-default-category", "click-action-no-activity", "no-launcher-activity",
                "default-notification-icon-missing", "fcm-auto-init-disabled",
            ])
        let all = checks.flatMap(\.findings)
        #expect(all.allSatisfy { $0.file.hasSuffix("AndroidManifest-misconfigured.xml") })
        #expect(all.allSatisfy { !$0.cause.isEmpty && !$0.breaks.isEmpty && !$0.symptom.isEmpty && !$0.fix.isEmpty })
        let channel = try #require(all.first { $0.id == "default-notification-channel-missing" })
        #expect(channel.symptom.contains("Missing Default Notification Channel metadata in AndroidManifest"))
        #expect(all.first { $0.id == "post-notifications-removed" }?.severity == .error)
        #expect(all.first { $0.id == "click-action-no-activity" }?.cause.contains("OPEN_LIVE") == true)
    }

    /// A source manifest: no package (Gradle's applicationId from --package-name), targetSdk from the context, a
    /// default channel the app does not create, POST_NOTIFICATIONS left to the merge.
    @Test func sourceManifestWithContext() {
        let checks = Self.run(manifest: "AndroidManifest-source.xml") {
            $0.packageName = "com.example.news"
            $0.targetSdk = 34
            $0.androidChannels = ["news"]
        }
        #expect(Self.ids(checks) == ["default-notification-channel-not-created", "post-notifications-not-declared"])
        #expect(checks.flatMap(\.findings).first?.symptom.contains("has not been created by the app") == true)
        // targetSdk unknown: the permission check is not made, and said so; channels unknown: the channel check is
        // not made.
        #expect(
            Self.ids(Self.run(manifest: "AndroidManifest-source.xml") { $0.packageName = "com.example.news" }) == [
                "post-notifications-not-checked"
            ])
    }

    /// A source manifest has no <uses-sdk>: a tools:node="remove" of POST_NOTIFICATIONS is still an error (it keeps
    /// the permission out of the merged manifest whatever the targetSdk); it was skipped with the targetSdk unknown.
    @Test func aRemovedPostNotificationsIsAnErrorWithoutATargetSdk() {
        let checks = Self.run(manifest: "AndroidManifest-source-removed.xml") { $0.packageName = "com.example.news" }
        let permission = checks.first { $0.id == "android-manifest.post-notifications" }?.findings ?? []
        #expect(permission.map(\.id) == ["post-notifications-removed"])
        #expect(permission.first?.severity == .error)
    }

    /// google-services.json of another project and package: sender and package mismatches, and the backend's
    /// service account of a third project.
    @Test func googleServicesMismatches() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-android-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sa = dir.appendingPathComponent("sa.json").path
        try #"{"type":"service_account","project_id":"example-push","client_email":"a@b","private_key":"x"}"#.write(
            toFile: sa, atomically: true, encoding: .utf8)
        let checks = Self.run(googleServices: "google-services-other-project.json", serviceAccount: sa) {
            $0.firebaseSenderID = "123456789012"
        }
        let ids = Self.ids(checks)
        #expect(ids.contains("google-services-incomplete"))  // no api_key
        #expect(ids.contains("firebase-sender-id-mismatch"))  // app id of sender 999…
        #expect(ids.contains("google-services-package-missing"))
        #expect(ids.contains("firebase-project-mismatch"))
        let package = try #require(checks.flatMap(\.findings).first { $0.id == "google-services-package-missing" })
        #expect(package.symptom == "Gradle: \"No matching client found for package name 'com.example.news'\"")
        // The same finding id and shape as the iOS plist's sender mismatch.
        #expect(
            checks.flatMap(\.findings).first { $0.id == "firebase-sender-id-mismatch" }?.symptom.contains(
                "SENDER_ID_MISMATCH") == true)
    }

    /// Binary AXML (as inside an APK) is refused with how to get a plain manifest; broken XML names its line.
    @Test func binaryAndBrokenManifests() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-axml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // RES_XML_TYPE chunk header (type 3, header 8, size), then a RES_STRING_POOL_TYPE chunk: an APK's manifest.
        let axml: [UInt8] =
            [0x03, 0x00, 0x08, 0x00, 0x30, 0x00, 0x00, 0x00, 0x01, 0x00, 0x1C, 0x00] + Array(repeating: 0, count: 36)
        let binary = dir.appendingPathComponent("AndroidManifest.xml").path
        _ = FileManager.default.createFile(atPath: binary, contents: Data(axml))
        let broken = dir.appendingPathComponent("broken.xml").path
        try "<manifest>\n<application>\n</manifest>\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let notManifest = dir.appendingPathComponent("other.xml").path
        try "<resources/>".write(toFile: notManifest, atomically: true, encoding: .utf8)
        for (path, words) in [
            (binary, "binary XML (AXML"), (broken, "not well-formed XML at line 4"), (notManifest, "not <manifest>"),
        ] {
            var paths = DoctorFilePaths()
            paths.androidManifest = path
            let checks = Doctor.diagnose(DoctorInputLoader.load(paths), context: DoctorContext(), now: Date())
            let f = try #require(checks.first?.findings.first)
            #expect(f.id == "file-unreadable" && f.cause.contains(words), "\(f.cause)")
        }
    }
}
