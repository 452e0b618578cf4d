import Foundation
@testable import Provisioning
@testable import PushModel
import Testing

@testable import Doctor

/// The findings engine behind `pushcheck doctor`, on values (no files): it must say what the simulated
/// device says, because it runs the device's rules.
struct DoctorDiagnosisTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    static func profile(
        devices: [String]? = ["UDID-1"], aps: APSEnvironment? = .development,
        appID: String = "ABCDE12345.com.example.app"
    )
        -> ProvisioningProfile
    {
        ProvisioningProfile(
            name: "Example Dev", uuid: "u", teamID: "ABCDE12345", appID: AppID(applicationIdentifier: appID),
            apsEnvironment: aps, getTaskAllow: true, provisionedDevices: devices, provisionsAllDevices: false,
            creationDate: now.addingTimeInterval(-86_400), expirationDate: now.addingTimeInterval(200 * 86_400),
            entitlements: ["keychain-access-groups": .array([.string("ABCDE12345.*")])])
    }

    static func inputs(profile: ProvisioningProfile, entitlements: [String: PlistValue], info: [String: PlistValue])
        -> DoctorInputs
    {
        var inputs = DoctorInputs()
        inputs.profile = DoctorFile(
            path: "Dev.mobileprovision",
            content: .success(ProfileFile(profile: profile, signatureVerifies: true, signers: [])))
        inputs.entitlements = DoctorFile(path: "App.entitlements", content: .success(entitlements))
        inputs.infoPlist = DoctorFile(path: "Info.plist", content: .success(info))
        return inputs
    }

    /// The seed's case: a development profile without the test device, an app without the Push
    /// Notifications and Background Modes capabilities. Doctor reports exactly what the device reports.
    @Test func seedCaseMatchesTheSimulatedDevicesFindings() {
        let profile = Self.profile()
        let info: [String: PlistValue] = ["CFBundleIdentifier": .string("com.example.app")]
        var context = DoctorContext()
        context.udid = "UDID-2"
        context.expectsSilentPush = true
        let checks = Doctor.diagnose(
            Self.inputs(profile: profile, entitlements: [:], info: info), context: context, now: Self.now)
        let doctorIDs = Set(checks.flatMap(\.findings).map(\.id))

        let app = AppSigningConfiguration(bundleID: "com.example.app", teamID: "", entitlements: [:])
        let device = ProvisioningChecks.allFindings(
            profile: profile, app: app, udid: "UDID-2", now: Self.now, implementsFetchHandler: true,
            firebaseSenderID: nil, forwardsAPNsTokenToFirebase: false)
        #expect(doctorIDs == Set(device.map(\.code)))
        #expect(doctorIDs == ["udid-not-provisioned", "missing-aps-entitlement", "background-mode-missing"])
        let missing = checks.flatMap(\.findings).first { $0.id == "missing-aps-entitlement" }
        #expect(missing?.symptom.contains(ProvisioningFinding.apsEntitlementErrorMessage) == true)
        #expect(missing?.file == "App.entitlements")
    }

    @Test func allowlistFollowsWildcardsArraysAndXcodeVariables() {
        let profile: [String: PlistValue] = [
            "keychain-access-groups": .array([.string("ABCDE12345.*")]),
            "com.apple.developer.associated-domains": .string("*"),
            "get-task-allow": .bool(true),
        ]
        let ok: [String: PlistValue] = [
            "keychain-access-groups": .array([.string("ABCDE12345.com.example.shared")]),
            "com.apple.developer.associated-domains": .array([.string("applinks:example.com")]),
            "get-task-allow": .bool(true),
            "com.apple.developer.usernotifications.critical-alerts": .bool(false),
            "com.apple.security.application-groups": .array([.string("$(TeamIdentifierPrefix)group")]),
        ]
        #expect(EntitlementAllowlist.violations(app: ok, profile: profile) == [])
        let bad: [String: PlistValue] = [
            "keychain-access-groups": .array([.string("ZZZZZ99999.other")]),
            "com.apple.developer.usernotifications.time-sensitive": .bool(true),
        ]
        #expect(
            EntitlementAllowlist.violations(app: bad, profile: profile).map(\.code) == [
                "entitlement-not-allowed", "entitlement-not-allowed",
            ])
    }

    @Test func environmentMismatchNamesBadDeviceToken() {
        var context = DoctorContext()
        context.environment = .production
        let checks = Doctor.diagnose(
            Self.inputs(
                profile: Self.profile(), entitlements: ["aps-environment": .string("development")],
                info: ["CFBundleIdentifier": .string("com.example.app")]),
            context: context, now: Self.now)
        let finding = checks.flatMap(\.findings).first { $0.id == "environment-mismatch" }
        #expect(finding?.symptom.contains("BadDeviceToken") == true)
        #expect(checks.flatMap(\.findings).count == 1)
    }

    /// A source Info.plist says `$(PRODUCT_BUNDLE_IDENTIFIER)`: the entitlement and Info.plist rules still run, and
    /// the checks that need the bundle id say they were not made (they were skipped silently: 0 checks, exit 0).
    @Test func withoutABundleIDTheAppChecksStillRunAndTheSkippedOnesAreNamed() {
        var inputs = DoctorInputs()
        inputs.entitlements = DoctorFile(path: "App.entitlements", content: .success([:]))
        inputs.infoPlist = DoctorFile(
            path: "Info.plist",
            content: .success([
                "CFBundleIdentifier": .string("$(PRODUCT_BUNDLE_IDENTIFIER)"),
                "FirebaseAppDelegateProxyEnabled": .bool(false),
            ]))
        var context = DoctorContext()
        context.expectsSilentPush = true
        let ids = Doctor.diagnose(inputs, context: context, now: Self.now).flatMap(\.findings).map(\.id)
        #expect(
            ids.sorted() == [
                "apns-token-not-forwarded", "background-mode-missing", "bundle-id-unknown", "missing-aps-entitlement",
            ])

        var alone = DoctorInputs()
        alone.entitlements = DoctorFile(path: "App.entitlements", content: .success([:]))
        let findings = Doctor.diagnose(alone, context: DoctorContext(), now: Self.now).flatMap(\.findings)
        #expect(findings.map(\.id) == ["missing-aps-entitlement", "bundle-id-unknown"])
        #expect(findings.last?.fix.contains("--bundle-id") == true)
    }

    /// A project's source `.entitlements` keeps aps-environment=development; signed with an ad hoc profile the app
    /// gets the profile's production (device.md §3.2, "Xcode writes aps-environment from the current profile"). So no
    /// entitlement-not-allowed, and the tokens' gateway is the profile's. A signed `.xcent` that disagrees is refused.
    @Test func aSourceEntitlementsEnvironmentIsTheProfiles() {
        let source = Self.inputs(
            profile: Self.profile(aps: .production), entitlements: ["aps-environment": .string("development")],
            info: ["CFBundleIdentifier": .string("com.example.app")])
        var context = DoctorContext()
        context.udid = "UDID-1"
        context.environment = .production
        #expect(Doctor.diagnose(source, context: context, now: Self.now).flatMap(\.findings).map(\.id) == [])

        context.environment = .sandbox
        let mismatch = Doctor.diagnose(source, context: context, now: Self.now).flatMap(\.findings)
        #expect(mismatch.map(\.id) == ["environment-mismatch"])
        #expect(mismatch.first?.file == "App.entitlements")
        #expect(mismatch.first?.cause.contains("the profile grants aps-environment=production") == true)

        var signed = source
        signed.entitlementsAreSigned = true
        context.environment = nil
        let refused = Doctor.diagnose(signed, context: context, now: Self.now).flatMap(\.findings)
        #expect(refused.map(\.id) == ["entitlement-not-allowed"])
    }

    /// An App Store/TestFlight profile lists no devices: a --udid is not "not provisioned", the build comes from
    /// TestFlight or the App Store (device.md §3.2).
    @Test func anAppStoreProfileHasNoDeviceToProvision() {
        let inputs = Self.inputs(
            profile: Self.profile(devices: nil, aps: .production),
            entitlements: ["aps-environment": .string("production")],
            info: ["CFBundleIdentifier": .string("com.example.app")])
        var context = DoctorContext()
        context.udid = "UDID-2"
        let checks = Doctor.diagnose(inputs, context: context, now: Self.now)
        #expect(checks.flatMap(\.findings).map(\.id) == [])
        #expect(checks.first { $0.id == "profile.device" }?.title.contains("TestFlight") == true)
    }

    /// A CMS signature that is there and fails is an error (the device refuses the profile); a bare plist, which only
    /// has none, stays a warning.
    @Test func aFailingCMSSignatureIsAnErrorABarePlistAWarning() {
        func severity(isCMS: Bool) -> DoctorFinding.Severity? {
            var inputs = DoctorInputs()
            inputs.profile = DoctorFile(
                path: "Dev.mobileprovision",
                content: .success(
                    ProfileFile(profile: Self.profile(), signatureVerifies: false, signers: [], isCMS: isCMS)))
            return Doctor.diagnose(inputs, context: DoctorContext(), now: Self.now).flatMap(\.findings)
                .first { $0.id == "profile-signature-invalid" }?.severity
        }
        #expect(severity(isCMS: true) == .error)
        #expect(severity(isCMS: false) == .warning)
    }

    @Test func keyIDComesFromApplesFileName() {
        #expect(Doctor.keyIDFromFileName("/x/AuthKey_ABCDE12345.p8") == "ABCDE12345")
        #expect(Doctor.keyIDFromFileName("/x/key.p8") == nil)
        #expect(Doctor.isAppleIdentifier("ABCDE12345"))
        #expect(!Doctor.isAppleIdentifier("abcde12345"))
    }
}
