import Foundation
@testable import Provisioning
@testable import PushModel
import Testing

@testable import Doctor

/// `--bundle-id` is the app's bundle id and `--topic` the backend's apns-topic: a mismatch is a
/// DeviceTokenNotForTopic finding that says which of the two is wrong, from what else names the app.
@Suite struct TopicDiagnosisTests {
    /// Only a profile (no Info.plist): the command-line case of issue #23.
    static func profileOnly(appID: String = "ABCDE12345.com.example.app") -> DoctorInputs {
        var inputs = DoctorInputs()
        inputs.profile = DoctorFile(
            path: "Dev.mobileprovision",
            content: .success(
                ProfileFile(profile: DoctorDiagnosisTests.profile(appID: appID), signatureVerifies: true, signers: [])))
        return inputs
    }

    static func context(bundleID: String?, topic: String?) -> DoctorContext {
        var c = DoctorContext()
        c.bundleID = bundleID
        c.topic = topic
        return c
    }

    static func topicFinding(_ inputs: DoctorInputs, _ context: DoctorContext) -> DoctorFinding? {
        let checks = Doctor.diagnose(inputs, context: context, now: DoctorDiagnosisTests.now)
        return checks.first { $0.id == "bundle-id.topic" }?.findings.first
    }

    static func findingIDs(_ inputs: DoctorInputs, _ context: DoctorContext) -> Set<String> {
        Set(Doctor.diagnose(inputs, context: context, now: DoctorDiagnosisTests.now).flatMap(\.findings).map(\.id))
    }

    @Test func theProfileAgreesWithTheBundleIDSoTheTopicIsWrong() throws {
        let context = Self.context(bundleID: "com.example.app", topic: "com.example.other")
        let f = try #require(Self.topicFinding(Self.profileOnly(), context))
        #expect(f.id == "bundle-id-mismatch" && f.severity == .error && f.symptom.contains("DeviceTokenNotForTopic"))
        #expect(f.cause.contains("the topic is wrong") && f.cause.contains("the profile's App ID"), "\(f.cause)")
        #expect(f.fix.contains("apns-topic com.example.app"))
        #expect(f.file == Doctor.commandLine)
        #expect(Self.findingIDs(Self.profileOnly(), context) == ["bundle-id-mismatch"], "the app itself installs")
    }

    @Test func theProfileNamesTheTopicsAppSoTheBundleIDIsWrong() throws {
        let context = Self.context(bundleID: "com.example.other", topic: "com.example.app")
        let f = try #require(Self.topicFinding(Self.profileOnly(), context))
        #expect(f.cause.contains("the app's bundle id is wrong") && f.cause.contains("names com.example.app"))
        #expect(f.fix.contains("--bundle-id"))
        // The bundle id does not match the profile either: the install rule says so too.
        #expect(Self.findingIDs(Self.profileOnly(), context) == ["bundle-id-mismatch", "app-id-mismatch"])
    }

    @Test func withNothingElseNamingTheAppTheFindingSaysSo() throws {
        var inputs = DoctorInputs()
        inputs.profile = Self.profileOnly(appID: "ABCDE12345.*").profile  // a wildcard App ID names no app
        let f = try #require(Self.topicFinding(inputs, Self.context(bundleID: "com.a", topic: "com.b")))
        #expect(f.cause.contains("nothing else given says which"), "\(f.cause)")
    }

    @Test func anInfoPlistIsTheAppAsBuilt() throws {
        var inputs = Self.profileOnly()
        inputs.infoPlist = DoctorFile(
            path: "Info.plist", content: .success(["CFBundleIdentifier": .string("com.example.app")]))
        let f = try #require(Self.topicFinding(inputs, Self.context(bundleID: nil, topic: "com.example.other")))
        #expect(f.cause.contains("(CFBundleIdentifier) is com.example.app: the topic is wrong"), "\(f.cause)")
        #expect(f.file == "Info.plist")
    }

    @Test func aTopicWithThePushTypesSuffixIsTheAppsTopic() {
        let inputs = Self.profileOnly()
        for topic in ["com.example.app", "com.example.app.voip", "com.example.app.push-type.liveactivity"] {
            let checks = Doctor.diagnose(
                inputs, context: Self.context(bundleID: "com.example.app", topic: topic), now: DoctorDiagnosisTests.now)
            let check = checks.first { $0.id == "bundle-id.topic" }
            #expect(check != nil && check?.passed == true, "\(topic)")
        }
    }

    /// Without --topic, --bundle-id alone is the app's bundle id: no topic check, only the profile's App ID rule.
    @Test func withoutTopicTheBundleIDIsTheApps() {
        let ids = Self.findingIDs(Self.profileOnly(), Self.context(bundleID: "com.example.other", topic: nil))
        #expect(ids == ["app-id-mismatch"])
    }
}
