import Foundation
import PushModel

/// Replaces values that differ from run to run (or machine to machine) so a snapshot compares what
/// matters: by key name anywhere in the tree (`apns-id`, tokens, timestamps, `gcm.message_id`; the value's JSON type
/// is kept: `<masked>` for a string, `<masked number>` …), loopback
/// ports inside strings (`127.0.0.1:43117` → `127.0.0.1:<port>`), device tokens inside strings, and the
/// paths a `snapshot: { ignore: […] }` names.
package struct SnapshotMask: Sendable {
    /// Keys whose values are always masked.
    static let volatileKeys: Set<String> = [
        "apns-id", "apns-unique-id", "apns_id", "apns_unique_id", "apns-expiration", "token", "device_token",
        "fcm_token", "timestamp", "sent_at", "received_at", "answered_at", "gcm.message_id", "google.message_id",
        "google.sent_time", "message_id",
    ]
    /// What a masked string becomes.
    static let masked: JSONValue = "<masked>"

    /// What a masked value becomes: `<masked>` for a string (what snapshot files have always held), and the JSON type
    /// kept for the others (`<masked number>`, `<masked object>`, …), so a value that changes type fails.
    static func masked(_ value: JSONValue) -> JSONValue {
        // A stored snapshot is masked again before the comparison: its placeholders stay as they are.
        if case .string(let s) = value { return s.hasPrefix("<masked") && s.hasSuffix(">") ? value : masked }
        return .string("<masked \(JSONDiff.typeName(value))>")
    }

    /// A stored `<masked>` where the value now masks as `<masked number>` (…): the entry was written before masks
    /// kept the type.
    static func isUntypedMaskOfNonString(stored: JSONValue?, now: JSONValue?) -> Bool {
        guard stored == masked, case .string(let s)? = now else { return false }
        return s.hasPrefix("<masked ") && s.hasSuffix(">")
    }
    package static let ignored: JSONValue = "<ignored>"

    /// `ignore:` patterns: a path as the diff prints it (`user_info.sent_at`, `callbacks[*].user_info.id`);
    /// it matches that path at the end of a longer one too, so `sent_at` ignores every `sent_at`.
    package let ignore: [String]
    private let patterns: [NSRegularExpression]

    package init(ignore: [String] = []) {
        self.ignore = ignore
        patterns = ignore.compactMap { Self.regex($0) }
    }

    /// The value with volatile and ignored parts replaced.
    package func apply(_ value: JSONValue) -> JSONValue { walk(value, path: "", key: nil) }

    private func walk(_ value: JSONValue, path: String, key: String?) -> JSONValue {
        if !path.isEmpty, matchesIgnore(path) { return Self.ignored }
        if let key, Self.volatileKeys.contains(key), value != .null { return Self.masked(value) }
        switch value {
        case .object(let o):
            var out: [String: JSONValue] = [:]
            for (k, v) in o { out[k] = walk(v, path: JSONDiff.join(path, key: k), key: k) }
            return .object(out)
        case .array(let a):
            return .array(a.enumerated().map { walk($1, path: JSONDiff.join(path, index: $0), key: nil) })
        case .string(let s):
            return .string(Self.maskText(s))
        default:
            return value
        }
    }

    func matchesIgnore(_ path: String) -> Bool {
        let range = NSRange(path.startIndex..., in: path)
        return patterns.contains { $0.firstMatch(in: path, range: range) != nil }
    }

    /// Loopback ports and 64-hex device tokens inside text.
    static func maskText(_ s: String) -> String {
        guard s.contains("127.0.0.1:") || s.contains("localhost:") || s.count >= 64 else { return s }
        var out = s
        for (pattern, template) in textRules {
            out = pattern.stringByReplacingMatches(
                in: out, range: NSRange(out.startIndex..., in: out), withTemplate: template)
        }
        return out
    }

    private static let textRules: [(NSRegularExpression, String)] = [
        (try! NSRegularExpression(pattern: "(127\\.0\\.0\\.1|localhost|\\[::1\\]):[0-9]+"), "$1:<port>"),
        (try! NSRegularExpression(pattern: "\\b[0-9a-fA-F]{64}\\b"), "<token>"),
    ]

    /// `a.b[*].c` → a regex matching the path, or its end after a `.` or `]`.
    static func regex(_ pattern: String) -> NSRegularExpression? {
        var body = NSRegularExpression.escapedPattern(for: pattern)
        body = body.replacingOccurrences(of: "\\[\\*\\]", with: "\\[[0-9]+\\]")
        body = body.replacingOccurrences(of: "\\*", with: "[^.\\[]+")
        let prefix = pattern.hasPrefix("[") ? "(^|.*)" : "(^|.*[.\\]])"
        return try? NSRegularExpression(pattern: "^" + prefix + body + "$")
    }
}
