import Foundation
import Testing

@testable import Provisioning

@Suite struct ProvisioningChecksTests {
    static let udid = "00008110-000A1C2E0E12801E"
    static let now = ProfileFixture.date("2026-06-01T00:00:00Z")
    static let app = AppSigningConfiguration(
        bundleID: "com.example.app", teamID: "ABCDE12345", apsEnvironment: .development)

    static func profile(_ xml: String) throws -> ProvisioningProfile {
        try ProvisioningProfile(mobileprovision: ProfileFixture.sign(xml), source: "t.mobileprovision")
    }

    /// Install rows of device.md §3.4 (plus app id / team), each from a real signed profile.
    struct InstallRow: Sendable, CustomStringConvertible {
        var name: String
        var xml: String
        var app: AppSigningConfiguration
        var codes: [String]
        var description: String { name }
    }

    static let installRows: [InstallRow] = [
        InstallRow(name: "clean development install", xml: ProfileFixture.profileXML(), app: app, codes: []),
        InstallRow(
            name: "udid not provisioned", xml: ProfileFixture.profileXML(devices: ["SOMEONE-ELSE"]), app: app,
            codes: ["udid-not-provisioned"]),
        InstallRow(
            name: "app store profile on a device",
            xml: ProfileFixture.profileXML(aps: "production", getTaskAllow: false, devices: nil),
            app: AppSigningConfiguration(
                bundleID: "com.example.app", teamID: "ABCDE12345", apsEnvironment: .production),
            codes: ["udid-not-provisioned"]),
        InstallRow(
            name: "enterprise provisions all devices",
            xml: ProfileFixture.profileXML(aps: "production", getTaskAllow: false, devices: nil, allDevices: true),
            app: AppSigningConfiguration(
                bundleID: "com.example.app", teamID: "ABCDE12345", apsEnvironment: .production),
            codes: []),
        InstallRow(
            name: "expired", xml: ProfileFixture.profileXML(expires: "2026-05-31T23:59:59Z"), app: app,
            codes: ["profile-expired"]),
        InstallRow(
            name: "app id mismatch", xml: ProfileFixture.profileXML(appID: "ABCDE12345.com.example.other"), app: app,
            codes: ["app-id-mismatch"]),
        InstallRow(
            name: "wildcard covers bundle", xml: ProfileFixture.profileXML(appID: "ABCDE12345.com.example.*"), app: app,
            codes: []),
        InstallRow(
            name: "team mismatch",
            xml: ProfileFixture.profileXML(team: "ZZZZZ99999", appID: "ZZZZZ99999.com.example.app"),
            app: app, codes: ["team-mismatch"]),
        InstallRow(
            name: "entitlement value not allowed", xml: ProfileFixture.profileXML(aps: "production"), app: app,
            codes: ["entitlement-not-allowed"]),
        // The profile's Entitlements are an allowlist (device.md §3.1, TN3125): signing with aps-environment
        // when the profile has none at all (App ID never push-enabled) is refused at install too.
        InstallRow(
            name: "entitlement missing from the profile", xml: ProfileFixture.profileXML(aps: nil), app: app,
            codes: ["entitlement-not-in-profile"]),
        InstallRow(
            name: "neither side has aps-environment",
            xml: ProfileFixture.profileXML(aps: nil),
            app: AppSigningConfiguration(bundleID: "com.example.app", teamID: "ABCDE12345", apsEnvironment: nil),
            codes: []),
        InstallRow(
            name: "several at once",
            xml: ProfileFixture.profileXML(devices: [], expires: "2026-01-02T00:00:00Z"), app: app,
            codes: ["udid-not-provisioned", "profile-expired"]),
    ]

    @Test(arguments: installRows)
    func installChecks(row: InstallRow) throws {
        let findings = ProvisioningChecks.installFindings(
            profile: try Self.profile(row.xml), app: row.app, udid: Self.udid, now: Self.now)
        #expect(findings.map(\.code) == row.codes)
        for f in findings {
            #expect(f.severity == .error)
            #expect(!f.cause.isEmpty && !f.symptom.isEmpty && !f.fix.isEmpty)
        }
    }

    @Test func udidFindingNamesDeviceAndXcodeSymptom() throws {
        let f = ProvisioningChecks.installFindings(
            profile: try Self.profile(ProfileFixture.profileXML(devices: ["X"])), app: Self.app, udid: Self.udid,
            now: Self.now)
        #expect(f.count == 1)
        #expect(f[0].cause.contains(Self.udid))
        #expect(f[0].symptom.contains("A valid provisioning profile for this executable was not found"))
        #expect(f[0].fix.contains(Self.udid))
    }

    /// Registration rows: lacks entitlement, profile does not allow it, wildcard → the 3000 error.
    struct RegistrationRow: Sendable, CustomStringConvertible {
        var name: String
        var xml: String
        var appEnv: APSEnvironment?
        var expected: RegistrationCheck
        var description: String { name }
    }

    static let registrationRows: [RegistrationRow] = [
        RegistrationRow(
            name: "development", xml: ProfileFixture.profileXML(), appEnv: .development,
            expected: .allowed(.development)),
        RegistrationRow(
            name: "ad hoc production", xml: ProfileFixture.profileXML(aps: "production", getTaskAllow: false),
            appEnv: .production, expected: .allowed(.production)),
        RegistrationRow(
            name: "app lacks entitlement", xml: ProfileFixture.profileXML(), appEnv: nil,
            expected: .denied([.missingAPSEntitlement(bundleID: "com.example.app")])),
        RegistrationRow(
            name: "profile does not allow push", xml: ProfileFixture.profileXML(name: "NoPush", aps: nil),
            appEnv: .development, expected: .denied([.profileLacksPush(profileName: "NoPush")])),
        RegistrationRow(
            name: "wildcard app id", xml: ProfileFixture.profileXML(appID: "ABCDE12345.*"), appEnv: .development,
            expected: .denied([.wildcardAppID(appID: AppID(prefix: "ABCDE12345", bundlePattern: "*"))])),
    ]

    @Test(arguments: registrationRows)
    func registrationChecks(row: RegistrationRow) throws {
        let app = AppSigningConfiguration(bundleID: "com.example.app", teamID: "ABCDE12345", apsEnvironment: row.appEnv)
        let result = ProvisioningChecks.registration(profile: try Self.profile(row.xml), app: app)
        #expect(result == row.expected)
        if case .denied(let findings) = result {
            for f in findings {
                #expect(f.symptom.contains("Code=3000"))
                #expect(
                    f.symptom.contains(
                        "no valid \u{201C}aps-environment\u{201D} entitlement string found for application"))
            }
        }
    }

    @Test func backgroundModeWarningOnlyWhenFetchHandlerWithoutMode() {
        let without = AppSigningConfiguration(bundleID: "a.b", teamID: "T", apsEnvironment: .development)
        let with = AppSigningConfiguration(
            bundleID: "a.b", teamID: "T", apsEnvironment: .development,
            backgroundModes: ["remote-notification"])
        let f = ProvisioningChecks.capabilityFindings(
            app: without, implementsFetchHandler: true,
            firebaseSenderID: nil, forwardsAPNsTokenToFirebase: false)
        #expect(f.map(\.code) == ["background-mode-missing"])
        #expect(f[0].severity == .warning)
        #expect(
            f[0].symptom.contains(
                "but you still need to add \"remote-notification\" to the list of your supported UIBackgroundModes"))
        #expect(
            ProvisioningChecks.capabilityFindings(
                app: with, implementsFetchHandler: true, firebaseSenderID: nil,
                forwardsAPNsTokenToFirebase: false
            ).isEmpty)
        #expect(
            ProvisioningChecks.capabilityFindings(
                app: without, implementsFetchHandler: false, firebaseSenderID: nil,
                forwardsAPNsTokenToFirebase: false
            ).isEmpty)
    }

    @Test(arguments: [(true, false, false), (false, true, false), (false, false, true), (true, true, false)])
    func firebaseTokenForwarding(proxy: Bool, forwards: Bool, expectWarning: Bool) {
        let app = AppSigningConfiguration(
            bundleID: "a.b", teamID: "T", apsEnvironment: .development,
            firebaseAppDelegateProxyEnabled: proxy)
        let f = ProvisioningChecks.capabilityFindings(
            app: app, implementsFetchHandler: false, firebaseSenderID: "1234",
            forwardsAPNsTokenToFirebase: forwards)
        #expect(f.map(\.code) == (expectWarning ? ["apns-token-not-forwarded"] : []))
        if expectWarning {
            #expect(
                f[0].symptom
                    == "[I-FCM002022] APNS device token not set before retrieving FCM Token for Sender ID '1234'. Notifications to this FCM Token will not be delivered over APNS."
            )
        }
    }
}
