import Foundation

/// What an app's own files say about push: its `.entitlements` and `Info.plist` (device.md §3.3).
package struct AppSigningConfiguration: Sendable, Equatable {
    /// `CFBundleIdentifier`.
    package var bundleID: String
    /// The team the app is signed by.
    package var teamID: String
    /// The entitlements the app is signed with.
    package var entitlements: [String: PlistValue]
    /// `UIBackgroundModes`.
    package var backgroundModes: [String]
    /// `FirebaseAppDelegateProxyEnabled` (absent = true: the Firebase SDK swizzles and forwards the token).
    package var firebaseAppDelegateProxyEnabled: Bool

    package init(
        bundleID: String, teamID: String, entitlements: [String: PlistValue] = [:],
        backgroundModes: [String] = [], firebaseAppDelegateProxyEnabled: Bool = true
    ) {
        self.bundleID = bundleID
        self.teamID = teamID
        self.entitlements = entitlements
        self.backgroundModes = backgroundModes
        self.firebaseAppDelegateProxyEnabled = firebaseAppDelegateProxyEnabled
    }

    /// Convenience for declared apps: sets `aps-environment` when given.
    package init(
        bundleID: String, teamID: String, apsEnvironment: APSEnvironment?, backgroundModes: [String] = [],
        firebaseAppDelegateProxyEnabled: Bool = true
    ) {
        var ents: [String: PlistValue] = [:]
        if let env = apsEnvironment { ents["aps-environment"] = .string(env.rawValue) }
        self.init(
            bundleID: bundleID, teamID: teamID, entitlements: ents, backgroundModes: backgroundModes,
            firebaseAppDelegateProxyEnabled: firebaseAppDelegateProxyEnabled)
    }

    /// Reads an `.entitlements` plist and an `Info.plist` (XML or binary).
    /// - Parameters:
    ///   - bundleID: overrides `CFBundleIdentifier` (needed when it is a `$(PRODUCT_BUNDLE_IDENTIFIER)` variable).
    ///   - teamID: overrides the team taken from the entitlements.
    package init(
        entitlements entitlementsBytes: Data, entitlementsSource: String,
        infoPlist infoBytes: Data, infoSource: String, bundleID: String? = nil, teamID: String? = nil
    ) throws(ProvisioningError) {
        let ents = try PlistValue.parse(entitlementsBytes, source: entitlementsSource)
        guard let entsDict = ents.dictionaryValue else {
            throw .wrongType(source: entitlementsSource, key: "(root)", expected: "a dictionary", found: ents.typeName)
        }
        let info = PlistReader(try PlistValue.parse(infoBytes, source: infoSource), source: infoSource)
        let rawBundle = try info.optionalString("CFBundleIdentifier")
        guard let bundle = bundleID ?? rawBundle, !bundle.contains("$(") else {
            throw .missingKey(source: infoSource, key: "CFBundleIdentifier")
        }
        let entReader = PlistReader(ents, source: entitlementsSource)
        let declaredTeam = try entReader.optionalString("com.apple.developer.team-identifier")
        var team = teamID ?? declaredTeam
        if team == nil, let appID = try entReader.optionalString("application-identifier") {
            team = AppID(applicationIdentifier: appID).prefix
        }
        self.init(
            bundleID: bundle, teamID: team ?? "", entitlements: entsDict,
            backgroundModes: try info.optionalStrings("UIBackgroundModes") ?? [],
            firebaseAppDelegateProxyEnabled: try info.optionalBool("FirebaseAppDelegateProxyEnabled") ?? true)
    }

    /// The signed `aps-environment`, if any (an unknown spelling counts as absent: iOS rejects it too).
    package var apsEnvironment: APSEnvironment? {
        entitlements["aps-environment"]?.stringValue.flatMap(APSEnvironment.init(rawValue:))
    }

    /// Whether `UIBackgroundModes` contains `remote-notification`.
    package var hasRemoteNotificationBackgroundMode: Bool { backgroundModes.contains("remote-notification") }
}
