import Foundation
import Testing

@testable import Provisioning

@Suite struct AppConfigurationTests {
    static let entitlementsXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>aps-environment</key><string>development</string>
        <key>application-identifier</key><string>ABCDE12345.com.example.app</string>
        </dict></plist>
        """

    @Test func readsXMLEntitlementsAndBinaryInfoPlist() throws {
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.example.app",
            "UIBackgroundModes": ["fetch", "remote-notification"],
            "FirebaseAppDelegateProxyEnabled": false,
        ]
        let binary = try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist".utf8)))
        let app = try AppSigningConfiguration(
            entitlements: Data(Self.entitlementsXML.utf8), entitlementsSource: "App.entitlements",
            infoPlist: binary, infoSource: "Info.plist")
        #expect(app.bundleID == "com.example.app")
        #expect(app.teamID == "ABCDE12345")
        #expect(app.apsEnvironment == .development)
        #expect(app.backgroundModes == ["fetch", "remote-notification"])
        #expect(app.hasRemoteNotificationBackgroundMode)
        #expect(app.firebaseAppDelegateProxyEnabled == false)
    }

    @Test func defaultsWhenKeysAbsentAndVariablesNeedOverride() throws {
        let info = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></dict></plist>
            """
        let empty = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#
        #expect(throws: ProvisioningError.missingKey(source: "Info.plist", key: "CFBundleIdentifier")) {
            try AppSigningConfiguration(
                entitlements: Data(empty.utf8), entitlementsSource: "e",
                infoPlist: Data(info.utf8), infoSource: "Info.plist")
        }
        let app = try AppSigningConfiguration(
            entitlements: Data(empty.utf8), entitlementsSource: "e", infoPlist: Data(info.utf8), infoSource: "i",
            bundleID: "com.example.app", teamID: "T1")
        #expect(app.apsEnvironment == nil)
        #expect(app.backgroundModes.isEmpty)
        #expect(app.firebaseAppDelegateProxyEnabled)
        #expect(app.teamID == "T1")
    }

    @Test func firebaseProxyFlagAcceptsStringNO() throws {
        let info = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>a.b</string>
            <key>FirebaseAppDelegateProxyEnabled</key><string>NO</string></dict></plist>
            """
        let app = try AppSigningConfiguration(
            entitlements: Data(Self.entitlementsXML.utf8), entitlementsSource: "e",
            infoPlist: Data(info.utf8), infoSource: "i")
        #expect(!app.firebaseAppDelegateProxyEnabled)
    }
}
