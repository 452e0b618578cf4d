import Foundation
import PushModel
import YAMLSource

/// Which kind of phone a device is: an iPhone (the default) or an Android phone (`platform: android`). The platform
/// chooses the delivery rules; suites, checks and `serve` address both through the same device.
package enum DevicePlatform: String, Sendable, Equatable, CaseIterable {
    case ios, android
}

/// A simulated phone as declared in a suite or in `serve`'s config: an iPhone, or with `platform: android` an
/// Android phone (`api_level`, `serial`; its `apps` name `package_name`s).
///
/// ```yaml
/// devices:
///   - name: Test iPhone
///     udid: 00008110-000A1C2E0E12801E
///     ios: "17.5"
///     seed: 42                          # tokens and log are reproducible from it
///     online: true
///     background_wakes_per_day: 3       # optional; absent = unlimited (as when run from Xcode)
///     background_wakes_per_hour: 2      # default 3 (Apple: "two or three per hour"); unlimited: no hourly budget
///     fetch_budget: 30s
///     service_extension_budget: 30s
///     apps: [com.example.app]           # bundle ids of `apps:` entries installed on this device
///   - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop] }
/// ```
package struct DeviceDeclaration: Sendable, Equatable {
    package var name: String
    /// The iPhone's UDID; an Android phone's serial (`ro.serialno`).
    package var udid: String
    package var platform: DevicePlatform = .ios
    /// Android only: the API level (33+: POST_NOTIFICATIONS; 26+: channels).
    package var apiLevel: Int = 34
    package var iosVersion: String
    package var seed: UInt64
    package var online: Bool
    package var rules: DeviceRules
    /// Bundle ids of the apps to set up on it.
    package var apps: [String]

    package init(
        name: String, udid: String, iosVersion: String = "17.5", seed: UInt64 = 0, online: Bool = true,
        rules: DeviceRules = DeviceRules(), apps: [String] = []
    ) {
        self.name = name
        self.udid = udid
        self.iosVersion = iosVersion
        self.seed = seed
        self.online = online
        self.rules = rules
        self.apps = apps
    }

    /// Decodes one device mapping (its keys: `keyTable`, DeviceDeclaration+Keys.swift). `knownApps` are the declared bundle ids (an unknown one is an error at it).
    package static func decode(_ m: YAMLMapping, knownApps: [String]) throws(SourceError) -> DeviceDeclaration {
        try m.checkKeys(keyTable)
        let platform = DevicePlatform(
            rawValue: try m.optional("platform", oneOf: DevicePlatform.allCases.map(\.rawValue)) ?? "ios")!
        if platform == .android {
            for key in ["ios", "udid", "background_wakes_per_day", "fetch_budget", "service_extension_budget"] {
                if let n = m.keyNode(key) {
                    throw n.invalidValue(expected: "no '\(key)' on an Android device (iOS only)")
                }
            }
            if let n = m.keyNode("notification_center_limit") {
                throw n.invalidValue(
                    expected:
                        "no 'notification_center_limit' on an Android device (an iPhone's; Android's tray shows at "
                        + "most 50 notifications per app, its own rule)")
            }
        } else if let n = m.keyNode("api_level") ?? m.keyNode("serial") {
            throw n.invalidValue(expected: "platform: android for api_level and serial (an iPhone has ios: and udid:)")
        }
        var rules = DeviceRules()
        if let d = try m.optional("fetch_budget", as: Duration.self) { rules.fetchBudget = AppDeclaration.seconds(d) }
        if let d = try m.optional("service_extension_budget", as: Duration.self) {
            rules.serviceExtensionBudget = AppDeclaration.seconds(d)
        }
        rules.backgroundWakesPerDay = try m.optional("background_wakes_per_day")
        if let node = m["background_wakes_per_hour"], !node.isNull {
            rules.backgroundWakesPerHour =
                node.scalar?.value == "unlimited" ? nil : try Int.decode(from: node)
        }
        rules.voipUnreportedLimit = try m.optional("voip_unreported_limit", default: rules.voipUnreportedLimit)
        // The simulator's own bounds on what a phone keeps (README "Simulated device limits"), for a suite that
        // looks further back than the defaults do; any positive count (memory grows with it).
        func limit(_ key: String, _ current: PhoneLogLimit) throws(SourceError) -> PhoneLogLimit {
            guard let node = m[key], !node.isNull else { return current }
            let n = try Int.decode(from: node)
            guard n >= 1 else { throw node.invalidValue(expected: "1 or more (default \(current.limit))") }
            return PhoneLogLimit(n)
        }
        rules.eventLogLimit = try limit("event_log_limit", rules.eventLogLimit)
        rules.notificationCenterLimit = try limit("notification_center_limit", rules.notificationCenterLimit)
        let seed: Int = try m.optional("seed", default: 0)
        var apps: [String] = []
        for node in try m.optionalSequence("apps") ?? [] {
            let id = try String.decode(from: node)
            guard knownApps.contains(id) else {
                throw SourceError(
                    .invalidValue, "unknown app '\(id)'", at: node.range,
                    expected:
                        "expected the bundle_id (Android: package_name) of an entry under apps: \(knownApps.joined(separator: ", "))"
                )
            }
            apps.append(id)
        }
        let name: String = try m.required("name")
        var d = DeviceDeclaration(
            name: name,
            udid: platform == .android
                ? try m.optional("serial", default: AndroidDeviceDefaults.serial(name: name)) : try m.required("udid"),
            iosVersion: try m.optional("ios", default: "17.5"),
            seed: UInt64(bitPattern: Int64(seed)), online: try m.optional("online", default: true), rules: rules,
            apps: apps)
        d.platform = platform
        d.apiLevel = try m.optional("api_level", default: 34)
        if platform == .android, !(21...36).contains(d.apiLevel), let n = m["api_level"] {
            throw n.invalidValue(expected: "an API level from 21 (Android 5) to 36 (Android 16)")
        }
        return d
    }

    /// Builds the device and sets up its apps (install, permission answer, registration), in order.
    func makeDevice(apps declarations: [AppDeclaration], clock: any PushClock) -> SimulatedDevice {
        let device = makeBareDevice(clock: clock)
        setUp(device, apps: declarations)
        return device
    }

    /// The declared device with nothing installed yet (attach registration sinks, then `setUp`).
    /// - Parameter seedSalt: XORed into the declared seed (e.g. a per-run seed); 0 keeps it.
    package func makeBareDevice(clock: any PushClock, seedSalt: UInt64 = 0) -> SimulatedDevice {
        SimulatedDevice(
            name: name, udid: udid, iosVersion: iosVersion, seed: seed ^ seedSalt, clock: clock, rules: rules)
    }

    /// Sets up the declared apps on `device` (install, permission answer, registration), in order, and
    /// takes it offline if it is declared so.
    package func setUp(_ device: SimulatedDevice, apps declarations: [AppDeclaration]) {
        for id in apps {
            if let app = declarations.first(where: { $0.bundleID == id }) { device.setUp(app) }
        }
        if !online { device.setOnline(false) }
    }
}

/// The `apps:` and `devices:` sections together.
package struct DeviceWorld: Sendable, Equatable {
    package var apps: [AppDeclaration]
    /// The Android apps (`apps:` entries with `package_name`).
    package var androidApps: [AndroidAppDeclaration] = []
    package var devices: [DeviceDeclaration]

    /// Decodes a mapping holding `apps:` and `devices:` (other keys are the caller's business).
    package static func decode(_ m: YAMLMapping, file: String) throws(SourceError) -> DeviceWorld {
        try decode(
            apps: (try m.optionalSequence("apps") ?? []).map { ($0, file) },
            devices: try m.optionalSequence("devices") ?? [])
    }

    /// Decodes the entries of `apps:` (each with the file it was written in, for its relative paths; a suite
    /// collects them from its includes) and of `devices:`. The one place of the rules both `serve` and suites
    /// follow: bundle ids are unique, device names are unique (they key `${device.<name>.…}`, the ready line and
    /// `/devices/{name}`), and a device installs only declared apps.
    package static func decode(apps appNodes: [(YAMLNode, String)], devices deviceNodes: [YAMLNode])
        throws(SourceError) -> DeviceWorld
    {
        var apps: [AppDeclaration] = []
        var androidApps: [AndroidAppDeclaration] = []
        // An iOS bundle id and an Android package name may be the same (one app on both platforms): ids are
        // unique per platform, and a device installs apps of its own platform only.
        func taken(_ id: String, android: Bool) -> Bool {
            android ? androidApps.contains { $0.packageName == id } : apps.contains { $0.bundleID == id }
        }
        for (node, file) in appNodes {
            let m = try YAMLMapping(node)
            if m.contains("package_name") {
                let app = try AndroidAppDeclaration.decode(m, file: file)
                if taken(app.packageName, android: true) {
                    throw node.invalidValue(expected: "a unique package_name; \(app.packageName) is declared twice")
                }
                androidApps.append(app)
                continue
            }
            let app = try AppDeclaration.decode(m, file: file)
            if taken(app.bundleID, android: false) {
                throw node.invalidValue(expected: "a unique bundle_id; \(app.bundleID) is declared twice")
            }
            apps.append(app)
        }
        var devices: [DeviceDeclaration] = []
        for node in deviceNodes {
            let m = try YAMLMapping(node)
            let android = m["platform"]?.scalar?.value == DevicePlatform.android.rawValue
            let device = try DeviceDeclaration.decode(
                m, knownApps: android ? androidApps.map(\.packageName) : apps.map(\.bundleID))
            if devices.contains(where: { $0.name == device.name }) {
                throw (node["name"] ?? node).invalidValue(
                    expected: "a unique device name; '\(device.name)' is declared twice")
            }
            devices.append(device)
        }
        var world = DeviceWorld(apps: apps, devices: devices)
        world.androidApps = androidApps
        return world
    }
}
