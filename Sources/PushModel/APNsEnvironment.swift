/// The two APNs endpoints.
package enum APNsEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    /// `api.sandbox.push.apple.com` (Development).
    case sandbox
    /// `api.push.apple.com`.
    case production

    /// The real host name Apple uses for this environment.
    package var appleHost: String {
        switch self {
        case .sandbox: return "api.sandbox.push.apple.com"
        case .production: return "api.push.apple.com"
        }
    }

    /// The other environment.
    package var other: APNsEnvironment { self == .sandbox ? .production : .sandbox }
}

/// `apns-priority`: 10 immediately, 5 by the device's power state, 1 power first.
package enum APNsPriority: Int, Sendable, Hashable, CaseIterable, Codable {
    case powerConsiderations = 1
    case conserve = 5
    case immediate = 10

    /// Parses the header value; only the exact strings `1`, `5` and `10` are valid. Matched as strings: an `Int(_:)`
    /// and `String(n)` round trip that did the same (refusing `+10` and `010`) cost a release per push
    /// (`count-bench.sh`).
    package init?(headerValue: String) {
        switch headerValue {
        case "1": self = .powerConsiderations
        case "5": self = .conserve
        case "10": self = .immediate
        default: return nil
        }
    }
}
