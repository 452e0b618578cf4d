import Foundation
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `pushcheck doctor` on an Android app's files (the fixtures of Tests/DoctorTests/Fixtures/android): the built
/// binary, the command-line options and the `--config` keys.
@Suite struct DoctorAndroidCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DoctorTests/Fixtures/android").path

    @Test func binaryNamesTheAndroidFindingsAndExitsByTheWorst() throws {
        let clean = try DoctorCommandTests.doctor([
            "--google-services", Self.fixtures + "/google-services.json", "--android-manifest",
            Self.fixtures + "/AndroidManifest.xml", "--channels", "news, quiet", "--click-action",
            "com.example.news.OPEN_ARTICLE", "--json",
        ])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.findingIDs == [])
        let bad = try DoctorCommandTests.doctor([
            "--android-manifest", Self.fixtures + "/AndroidManifest-misconfigured.xml", "--click-action",
            "com.example.news.OPEN_LIVE", "--json",
        ])
        #expect(bad.status == 1)
        #expect(
            bad.findingIDs.contains("click-action-no-activity") && bad.findingIDs.contains("post-notifications-removed")
        )
        let usage = try DoctorCommandTests.doctor([
            "--android-manifest", Self.fixtures + "/AndroidManifest.xml", "--target-sdk", "x",
        ])
        #expect(usage.status == 2 && usage.stderr.contains("--target-sdk"))
    }

    /// libxml2 reads the manifest without resolving external entities.
    @Test func manifestExternalEntitiesAreNeverResolved() throws {
        let dir = try TempDirectory("doctor-android-xxe")
        defer { dir.remove() }
        let secret = try dir.write("secret.txt", "TOP-SECRET-VALUE")
        let evil = try dir.write(
            "AndroidManifest.xml",
            """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="&xxe;"><application/></manifest>
            """)
        let run = try DoctorCommandTests.doctor([
            "--android-manifest", evil, "--google-services", Self.fixtures + "/google-services.json", "--json",
        ])
        #expect(!run.stdout.contains("TOP-SECRET-VALUE") && !run.stderr.contains("TOP-SECRET-VALUE"))
        #expect(run.status == 0 || run.status == 1, "no crash: \(run.status) \(run.stderr)")
    }

    /// The Android settings come from `--config` (files resolved against its directory, lists as YAML lists) and
    /// the command line overrides them.
    @Test func configKeysAndOptions() throws {
        let dir = try TempDirectory("doctor-android-request")
        defer { dir.remove() }
        let config = try dir.write(
            "doctor.yaml",
            """
            google_services_file: app/google-services.json
            android_manifest_file: app/src/main/AndroidManifest.xml
            package_name: com.example.news
            target_sdk: 34
            android_channels: [news, quiet]
            click_actions: [com.example.news.OPEN_ARTICLE]
            """)
        var r = try DoctorRequest.load(path: config)
        #expect(r.paths.googleServices == dir.path + "/app/google-services.json")
        #expect(r.paths.androidManifest == dir.path + "/app/src/main/AndroidManifest.xml")
        #expect(r.context.packageName == "com.example.news" && r.context.targetSdk == 34)
        #expect(
            r.context.androidChannels == ["news", "quiet"]
                && r.context.clickActions == ["com.example.news.OPEN_ARTICLE"])
        try r.apply(
            try ParsedArguments.parse(
                [
                    "--package-name", "com.example.beta", "--target-sdk", "33", "--channels", "", "--click-action",
                    "A,B",
                ],
                options: DoctorCommand.options))
        #expect(r.context.packageName == "com.example.beta" && r.context.targetSdk == 33)
        #expect(r.context.androidChannels == [] && r.context.clickActions == ["A", "B"])
        let bad = try dir.write("bad.yaml", "target_sdk: 0\n")
        #expect(throws: (any Error).self) { try DoctorRequest.load(path: bad) }
    }
}
