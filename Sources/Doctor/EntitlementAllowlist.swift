import Provisioning

/// The profile's `Entitlements` dictionary is an allowlist: every entitlement the app signs with must
/// be there, with a value the profile allows (TN3125; device.md §3.1). Pure.
enum EntitlementAllowlist {
    /// The app's entitlements the profile does not allow, as `entitlementNotAllowed` findings.
    /// `skipping` lists keys another rule already owns (the device's install check owns aps-environment).
    /// Values still holding Xcode variables (`$(AppIdentifierPrefix)…`) are skipped: Xcode expands them.
    static func violations(
        app: [String: PlistValue], profile: [String: PlistValue], skipping: Set<String> = []
    ) -> [ProvisioningFinding] {
        app.keys.sorted().compactMap { key -> ProvisioningFinding? in
            guard !skipping.contains(key), let value = app[key], !containsVariable(value) else { return nil }
            if value == .bool(false) { return nil }  // turning a capability off never needs permission
            guard let allowed = profile[key] else {
                return .entitlementNotAllowed(key: key, appValue: value.description, profileValue: "(absent)")
            }
            return allows(allowed, value)
                ? nil : .entitlementNotAllowed(key: key, appValue: value.description, profileValue: allowed.description)
        }
    }

    /// Whether the profile value `allowed` permits the app value `value`.
    static func allows(_ allowed: PlistValue, _ value: PlistValue) -> Bool {
        switch (allowed, value) {
        case (.string(let pattern), .string(let s)): return matches(pattern, s)
        case (.array(let patterns), .string(let s)): return patterns.contains { allows($0, .string(s)) }
        case (.string(let pattern), .array(let items)): return items.allSatisfy { allows(.string(pattern), $0) }
        case (.array, .array(let items)): return items.allSatisfy { allows(allowed, $0) }
        default: return allowed == value
        }
    }

    /// Exact, or a `*` suffix pattern (`TEAM.*`, `*`) as profiles write wildcards.
    static func matches(_ pattern: String, _ value: String) -> Bool {
        pattern == value || (pattern.hasSuffix("*") && value.hasPrefix(String(pattern.dropLast())))
    }

    static func containsVariable(_ value: PlistValue) -> Bool {
        switch value {
        case .string(let s): return s.contains("$(")
        case .array(let items): return items.contains(where: containsVariable)
        default: return false
        }
    }
}
