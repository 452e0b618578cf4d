import PushModel

/// The value of the `aps-environment` entitlement: which APNs gateway a build's tokens belong to.
package enum APSEnvironment: String, Sendable, Equatable, CaseIterable {
    /// `development` — tokens work only with `api.sandbox.push.apple.com`.
    case development
    /// `production` — tokens work only with `api.push.apple.com`.
    case production
}

/// The kind of a provisioning profile, derived from its keys as in TN3125 (device.md §3.2).
package enum ProfileType: String, Sendable, Equatable, CaseIterable {
    case development
    case adHoc = "ad-hoc"
    case appStore = "app-store"
    case enterprise

    /// The `aps-environment` a profile of this type normally grants.
    package var expectedAPSEnvironment: APSEnvironment {
        self == .development ? .development : .production
    }
}

/// An App ID as written in `application-identifier`: `<prefix>.<bundle id>`, possibly ending in `*`.
package struct AppID: Sendable, Equatable, CustomStringConvertible {
    /// The team / App ID prefix (e.g. `ABCDE12345`).
    package var prefix: String
    /// The bundle id part (e.g. `com.example.app`, `com.example.*` or `*`).
    package var bundlePattern: String

    package init(prefix: String, bundlePattern: String) {
        self.prefix = prefix
        self.bundlePattern = bundlePattern
    }

    /// Parses `<prefix>.<bundle id>`; a value without a dot is taken as a bare bundle pattern.
    package init(applicationIdentifier: String) {
        if let dot = applicationIdentifier.firstIndex(of: ".") {
            prefix = String(applicationIdentifier[..<dot])
            bundlePattern = String(applicationIdentifier[applicationIdentifier.index(after: dot)...])
        } else {
            prefix = ""
            bundlePattern = applicationIdentifier
        }
    }

    /// True when the App ID ends in `*` ("wildcard app IDs can't be used with APNs").
    package var isWildcard: Bool { bundlePattern.hasSuffix("*") }

    /// Whether `bundleID` is covered: equal for explicit IDs, prefix match for wildcards.
    package func matches(bundleID: String) -> Bool {
        guard isWildcard else { return bundlePattern == bundleID }
        return bundleID.hasPrefix(String(bundlePattern.dropLast()))
    }

    package var description: String { prefix.isEmpty ? bundlePattern : "\(prefix).\(bundlePattern)" }
}

extension APSEnvironment {
    /// The APNs gateway this entitlement's tokens belong to (`development` = sandbox).
    package var apnsEnvironment: APNsEnvironment { self == .development ? .sandbox : .production }
}
