import Foundation

/// The push-relevant facts of a provisioning profile (TN3125; device.md §3.1–3.2).
///
/// Build one from a real `.mobileprovision` (`init(mobileprovision:source:)`), from its decoded plist
/// (`init(plist:source:)`), or from declared values (the memberwise initializer) in scenario files.
package struct ProvisioningProfile: Sendable, Equatable {
    /// `Name`.
    package var name: String
    /// `UUID`.
    package var uuid: String
    /// The team (`TeamIdentifier[0]`).
    package var teamID: String
    /// `Entitlements.application-identifier`.
    package var appID: AppID
    /// `Entitlements.aps-environment`, absent when the App ID has no Push capability.
    package var apsEnvironment: APSEnvironment?
    /// `Entitlements.get-task-allow` (true for development profiles).
    package var getTaskAllow: Bool
    /// `ProvisionedDevices` (nil when the key is absent, as in App Store and enterprise profiles).
    package var provisionedDevices: [String]?
    /// `ProvisionsAllDevices`.
    package var provisionsAllDevices: Bool
    /// `CreationDate`.
    package var creationDate: Date
    /// `ExpirationDate`.
    package var expirationDate: Date
    /// The full `Entitlements` allowlist.
    package var entitlements: [String: PlistValue]

    package init(
        name: String, uuid: String, teamID: String, appID: AppID, apsEnvironment: APSEnvironment?,
        getTaskAllow: Bool, provisionedDevices: [String]?, provisionsAllDevices: Bool,
        creationDate: Date, expirationDate: Date, entitlements: [String: PlistValue] = [:]
    ) {
        self.name = name
        self.uuid = uuid
        self.teamID = teamID
        self.appID = appID
        self.apsEnvironment = apsEnvironment
        self.getTaskAllow = getTaskAllow
        self.provisionedDevices = provisionedDevices
        self.provisionsAllDevices = provisionsAllDevices
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        var allow = entitlements
        allow["application-identifier"] = allow["application-identifier"] ?? .string(appID.description)
        if let env = apsEnvironment, allow["aps-environment"] == nil {
            allow["aps-environment"] = .string(env.rawValue)
        }
        self.entitlements = allow
    }

    /// The profile type: enterprise when all devices are provisioned; otherwise development or ad hoc
    /// when devices are listed (told apart by `aps-environment`, then `get-task-allow`); App Store
    /// when no devices are listed.
    package var type: ProfileType {
        if provisionsAllDevices { return .enterprise }
        guard provisionedDevices != nil else { return .appStore }
        if let env = apsEnvironment { return env == .development ? .development : .adHoc }
        return getTaskAllow ? .development : .adHoc
    }

    /// Whether the profile lets `udid` install.
    func provisions(udid: String) -> Bool {
        if provisionsAllDevices { return true }
        return provisionedDevices?.contains { $0.caseInsensitiveCompare(udid) == .orderedSame } ?? false
    }

    /// Reads a `.mobileprovision` file from disk.
    package init(contentsOf path: String) throws(ProvisioningError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        try self.init(mobileprovision: data, source: path)
    }

    /// Reads a `.mobileprovision` (CMS DER wrapping an XML plist). Also accepts a bare plist, as
    /// produced by `security cms -D` or `openssl cms -verify -noverify`, with or without an XML declaration, a BOM or
    /// leading blank lines: anything that is not DER (a SEQUENCE, 0x30) and parses as a plist.
    package init(mobileprovision bytes: Data, source: String) throws(ProvisioningError) {
        if bytes.first != 0x30, let bare = try? PlistValue.parse(bytes, source: source) {
            try self.init(plist: bare, source: source)
            return
        }
        let plistBytes: Data
        if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("bplist".utf8)) {
            plistBytes = bytes
        } else {
            plistBytes = try CMSEnvelope.content(of: bytes, source: source)
        }
        try self.init(plist: PlistValue.parse(plistBytes, source: source), source: source)
    }

    /// Reads the decoded profile plist.
    package init(plist: PlistValue, source: String) throws(ProvisioningError) {
        let root = PlistReader(plist, source: source)
        let entitlements = try root.dictionary("Entitlements")
        let ents = PlistReader(.dictionary(entitlements), source: source, path: "Entitlements.")
        let appIdentifier = try ents.string("application-identifier")
        let teamIDs = try root.optionalStrings("TeamIdentifier")
        let declaredTeam = try ents.optionalString("com.apple.developer.team-identifier")
        let team = teamIDs?.first ?? declaredTeam ?? ""
        var aps: APSEnvironment?
        if let raw = try ents.optionalString("aps-environment") {
            guard let env = APSEnvironment(rawValue: raw) else {
                throw .wrongType(
                    source: source, key: "Entitlements.aps-environment",
                    expected: "\"development\" or \"production\"", found: "\"\(raw)\"")
            }
            aps = env
        }
        self.init(
            name: try root.optionalString("Name") ?? "",
            uuid: try root.optionalString("UUID") ?? "",
            teamID: team,
            appID: AppID(applicationIdentifier: appIdentifier),
            apsEnvironment: aps,
            getTaskAllow: try ents.optionalBool("get-task-allow") ?? false,
            provisionedDevices: try root.optionalStrings("ProvisionedDevices"),
            provisionsAllDevices: try root.optionalBool("ProvisionsAllDevices") ?? false,
            creationDate: try root.date("CreationDate"),
            expirationDate: try root.date("ExpirationDate"),
            entitlements: entitlements
        )
    }
}
