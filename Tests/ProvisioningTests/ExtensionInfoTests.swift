import Foundation
import Testing

@testable import Provisioning

@Suite struct ExtensionInfoTests {
    static func plist(_ ext: String) -> Data {
        Data(
            ("""
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.example.app.content</string>
            <key>NSExtension</key><dict>\(ext)</dict></dict></plist>
            """).utf8)
    }

    @Test func contentExtensionWithCategoryArray() throws {
        let info = try NotificationExtensionInfo(
            infoPlist: Self.plist(
                """
                <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>
                <key>NSExtensionAttributes</key><dict>
                <key>UNNotificationExtensionCategory</key><array><string>Kanmoba</string><string>Map</string></array>
                <key>UNNotificationExtensionInitialContentSizeRatio</key><real>0.75</real>
                <key>UNNotificationExtensionDefaultContentHidden</key><true/></dict>
                """), source: "Info.plist")
        #expect(info.kind == .content)
        #expect(info.categories == ["Kanmoba", "Map"])
        #expect(info.initialContentSizeRatio == 0.75)
        #expect(info.defaultContentHidden)
        #expect(!info.overridesDefaultTitle)
    }

    @Test func categoryAsSingleString() throws {
        let info = try NotificationExtensionInfo(
            infoPlist: Self.plist(
                """
                <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>
                <key>NSExtensionAttributes</key><dict>
                <key>UNNotificationExtensionCategory</key><string>Kanmoba</string>
                <key>UNNotificationExtensionInitialContentSizeRatio</key><integer>1</integer></dict>
                """), source: "Info.plist")
        #expect(info.categories == ["Kanmoba"])
        #expect(info.initialContentSizeRatio == 1)
    }

    @Test func requiredKeysAreNamed() {
        #expect(
            throws: ProvisioningError.missingKey(
                source: "I", key: "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory")
        ) {
            try NotificationExtensionInfo(
                infoPlist: Self.plist(
                    """
                    <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>
                    <key>NSExtensionAttributes</key><dict>
                    <key>UNNotificationExtensionInitialContentSizeRatio</key><real>1</real></dict>
                    """), source: "I")
        }
        #expect(
            throws: ProvisioningError.missingKey(
                source: "I", key: "NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio")
        ) {
            try NotificationExtensionInfo(
                infoPlist: Self.plist(
                    """
                    <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string>
                    <key>NSExtensionAttributes</key><dict><key>UNNotificationExtensionCategory</key><string>A</string></dict>
                    """), source: "I")
        }
    }

    @Test func serviceExtensionNeedsNoCategory() throws {
        let info = try NotificationExtensionInfo(
            infoPlist: Self.plist(
                """
                <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.service</string>
                <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).NotificationService</string>
                """), source: "I")
        #expect(info.kind == .service)
        #expect(info.categories.isEmpty)
    }

    @Test func allFindingsOrdersInstallRegistrationCapability() {
        let profile = ProvisioningProfile(
            name: "P", uuid: "u", teamID: "T", appID: AppID(applicationIdentifier: "T.*"), apsEnvironment: nil,
            getTaskAllow: true, provisionedDevices: ["OTHER"], provisionsAllDevices: false,
            creationDate: Date(timeIntervalSince1970: 0), expirationDate: Date(timeIntervalSince1970: 10))
        let app = AppSigningConfiguration(
            bundleID: "a.b", teamID: "T", apsEnvironment: nil, firebaseAppDelegateProxyEnabled: false)
        let codes = ProvisioningChecks.allFindings(
            profile: profile, app: app, udid: "U1", now: Date(timeIntervalSince1970: 100), implementsFetchHandler: true,
            firebaseSenderID: "1", forwardsAPNsTokenToFirebase: false
        ).map(\.code)
        #expect(
            codes == [
                "udid-not-provisioned", "profile-expired", "wildcard-app-id", "profile-lacks-push",
                "missing-aps-entitlement", "background-mode-missing", "apns-token-not-forwarded",
            ])
        let noDevice = ProvisioningChecks.allFindings(
            profile: profile, app: app, udid: nil, now: Date(timeIntervalSince1970: 100), implementsFetchHandler: false,
            firebaseSenderID: nil, forwardsAPNsTokenToFirebase: false
        ).map(\.code)
        #expect(noDevice == ["profile-expired", "wildcard-app-id", "profile-lacks-push", "missing-aps-entitlement"])
    }
}
