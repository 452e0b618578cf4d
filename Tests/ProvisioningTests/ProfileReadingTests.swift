import Foundation
import PushcheckTestSupport
import Testing

@testable import Provisioning

@Suite struct ProfileReadingTests {
    static let udid = "00008110-000A1C2E0E12801E"

    /// device.md §3.2: one row per profile type, each read back from a real CMS-signed file.
    struct TypeRow: Sendable, CustomStringConvertible {
        var xml: String
        var type: ProfileType
        var aps: APSEnvironment?
        var description: String { type.rawValue }
    }

    static let typeRows: [TypeRow] = [
        TypeRow(
            xml: ProfileFixture.profileXML(aps: "development", getTaskAllow: true), type: .development,
            aps: .development),
        TypeRow(xml: ProfileFixture.profileXML(aps: "production", getTaskAllow: false), type: .adHoc, aps: .production),
        TypeRow(
            xml: ProfileFixture.profileXML(aps: "production", getTaskAllow: false, devices: nil), type: .appStore,
            aps: .production),
        TypeRow(
            xml: ProfileFixture.profileXML(aps: "production", getTaskAllow: false, devices: nil, allDevices: true),
            type: .enterprise, aps: .production),
    ]

    @Test(arguments: typeRows)
    func profileTypeAndEnvironmentFromRealMobileprovision(row: TypeRow) throws {
        let der = try ProfileFixture.sign(row.xml)
        #expect(!der.starts(with: Array("<?xml".utf8)))
        let profile = try ProvisioningProfile(mobileprovision: der, source: "test.mobileprovision")
        #expect(profile.type == row.type)
        #expect(profile.apsEnvironment == row.aps)
        #expect(profile.type.expectedAPSEnvironment == row.aps)
    }

    @Test func readsIdentityDatesAndDevices() throws {
        let der = try ProfileFixture.sign(
            ProfileFixture.profileXML(
                name: "Team Dev", uuid: "UUID-1", team: "TEAM000001", appID: "TEAM000001.com.example.shop",
                devices: [Self.udid, "OTHER"], created: "2026-02-03T04:05:06Z", expires: "2027-02-03T04:05:06Z"))
        let p = try ProvisioningProfile(mobileprovision: der, source: "x")
        #expect(p.name == "Team Dev")
        #expect(p.uuid == "UUID-1")
        #expect(p.teamID == "TEAM000001")
        #expect(p.appID == AppID(prefix: "TEAM000001", bundlePattern: "com.example.shop"))
        #expect(!p.appID.isWildcard)
        #expect(p.provisionedDevices == [Self.udid, "OTHER"])
        #expect(p.creationDate == ProfileFixture.date("2026-02-03T04:05:06Z"))
        #expect(p.expirationDate == ProfileFixture.date("2027-02-03T04:05:06Z"))
        #expect(p.getTaskAllow)
        #expect(p.entitlements["aps-environment"] == .string("development"))
        #expect(p.apsEnvironment?.apnsEnvironment == .sandbox)
    }

    @Test func readsFromDisk() throws {
        let dir = try TempDirectory("pushcheck-prov")
        defer { dir.remove() }
        let profile = try ProfileFixture.sign(ProfileFixture.profileXML(name: "On Disk"))
        let path = try dir.write("on-disk.mobileprovision", Array(profile))
        #expect(try ProvisioningProfile(contentsOf: path).name == "On Disk")
        #expect(throws: ProvisioningError.self) { try ProvisioningProfile(contentsOf: path + ".missing") }
    }

    @Test func acceptsAlreadyDecodedPlist() throws {
        let p = try ProvisioningProfile(mobileprovision: Data(ProfileFixture.profileXML().utf8), source: "x.plist")
        #expect(p.type == .development)
    }

    /// A bare plist is read as --info-plist reads it: after a blank line, behind a BOM, without `<?xml …?>` (they
    /// were refused as "not DER CMS").
    @Test func acceptsABarePlistWithLeadingNewlineBOMOrNoDeclaration() throws {
        let xml = ProfileFixture.profileXML()
        let noDeclaration = String(xml[xml.range(of: "?>")!.upperBound...])
        for text in ["\n" + xml, "\u{FEFF}" + xml, noDeclaration] {
            let p = try ProvisioningProfile(mobileprovision: Data(text.utf8), source: "x.plist")
            #expect(p.type == .development)
        }
    }

    @Test func garbageIsNotCMS() {
        #expect {
            try ProvisioningProfile(
                mobileprovision: Data([0x30, 0x03, 0x01, 0x02, 0x03]), source: "bad.mobileprovision")
        } throws: { error in
            guard case .notCMS(let source, _) = error as? ProvisioningError else { return false }
            return source == "bad.mobileprovision"
        }
    }

    @Test func detachedSignatureIsReported() throws {
        let der = try ProfileFixture.sign(ProfileFixture.profileXML(), detached: true)
        #expect(throws: ProvisioningError.detachedContent(source: "d")) {
            try ProvisioningProfile(mobileprovision: der, source: "d")
        }
    }

    @Test func signedNonPlistIsReported() throws {
        let der = try ProfileFixture.sign("hello, not a plist")
        #expect {
            try ProvisioningProfile(mobileprovision: der, source: "np")
        } throws: { error in
            if case .notAPropertyList(let source, _) = error as? ProvisioningError { return source == "np" }
            return false
        }
    }

    @Test func missingAndIllTypedKeysNameTheKey() throws {
        let noEnts = ProfileFixture.profileXML().replacingOccurrences(
            of: "<key>Entitlements</key>", with: "<key>X</key>")
        #expect(throws: ProvisioningError.missingKey(source: "s", key: "Entitlements")) {
            try ProvisioningProfile(mobileprovision: Data(noEnts.utf8), source: "s")
        }
        let badEnv = ProfileFixture.profileXML(aps: "sandbox")
        #expect {
            try ProvisioningProfile(mobileprovision: Data(badEnv.utf8), source: "s")
        } throws: { error in
            guard case .wrongType(_, let key, _, _) = error as? ProvisioningError else { return false }
            return key == "Entitlements.aps-environment"
        }
        let badDevices = ProfileFixture.profileXML(devices: nil)
            .replacingOccurrences(
                of: "<key>Version</key>", with: "<key>ProvisionedDevices</key><string>x</string><key>Version</key>")
        #expect(
            throws: ProvisioningError.wrongType(
                source: "s", key: "ProvisionedDevices",
                expected: "an array of strings", found: "string")
        ) {
            try ProvisioningProfile(mobileprovision: Data(badDevices.utf8), source: "s")
        }
    }

    @Test func wildcardAppIDs() {
        let w = AppID(applicationIdentifier: "ABCDE12345.com.example.*")
        #expect(w.isWildcard)
        #expect(w.matches(bundleID: "com.example.app"))
        #expect(!w.matches(bundleID: "org.other.app"))
        #expect(AppID(applicationIdentifier: "ABCDE12345.*").matches(bundleID: "anything"))
        #expect(!AppID(applicationIdentifier: "ABCDE12345.com.example.app").matches(bundleID: "com.example.app2"))
    }
}
