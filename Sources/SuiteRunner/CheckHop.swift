import PushModel

/// Which lifeline of the report's sequence diagram a failed check is about, from the check's label
/// (`expect navigation.tab` → the router). The label's first key is the check subject of `Suites/README.md`'s
/// table, so the mapping follows that table; a subject without a hop (snapshots, variables) maps to nil.
enum CheckHop {
    /// The hop of a failure message `expect <label>`; nil when the message is not one.
    static func hop(ofMessage message: String) -> TraceHop? {
        guard message.hasPrefix("expect ") else { return nil }
        let label = message.dropFirst("expect ".count)
        let key = label.prefix { $0 != "." && $0 != " " && $0 != "[" && $0 != ":" }
        let rest = label.dropFirst(key.count).drop { $0 == "." }
        switch key {
        case "status", "reason", "headers", "timestamp": return .apns
        case "error_code", "name": return .fcm
        case "delivered", "dropped", "stored", "notification", "install", "registration", "findings", "symptoms",
            "token", "state", "badge":
            return .device
        case "callbacks", "callback", "user_info": return .app
        case "extensions": return rest.hasPrefix("service") ? .serviceExtension : .contentExtension
        case "navigation": return .router
        case "page", "opened_url": return .webView
        case "exit", "stdout", "stderr": return .backend
        default: return nil
        }
    }
}
