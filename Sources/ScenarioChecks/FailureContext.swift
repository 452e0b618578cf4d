import APNsGateway
import Foundation
import PushModel
import SuiteFormat
import YAMLSource

/// Extra words for a failed check: the actual userInfo beside a missing path (with a did-you-mean for a
/// close key), a run step's stderr tail, and a gateway request written out as the transcript shows it.
package enum FailureContext {
    /// For a `user_info.<path>` check that found nothing: the whole userInfo and the closest key.
    static func userInfoHint(path: String, userInfo: JSONValue?) -> String {
        // Without one, the `[read: …]` note says that nothing carried one.
        guard let userInfo else { return "" }
        var hint = " — userInfo is \(clip(userInfo.serialized(), 400))"
        // Compare with keys at the level the path's parent reaches (the top level for a plain key).
        var parent = userInfo
        var last = path
        if let dot = path.lastIndex(of: "."), let p = lookup(String(path[..<dot]), in: userInfo) {
            parent = p
            last = String(path[path.index(after: dot)...])
        }
        if case .object(let o) = parent,
            let close = Spelling.closest(to: last, in: Array(o.keys)) ?? looseMatch(last, Array(o.keys))
        {
            hint += "; did you mean '\(close)'?"
        }
        return hint
    }

    /// `order_id` vs `orderId`: the same letters once case and separators are ignored.
    static func looseMatch(_ key: String, _ keys: [String]) -> String? {
        func norm(_ s: String) -> String { s.lowercased().filter { $0.isLetter || $0.isNumber } }
        return keys.first { norm($0) == norm(key) && $0 != key }
    }

    /// The last `lines` lines of a command's stderr, for the console.
    static func tail(_ text: String, lines: Int = 15) -> String {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false)
        let trimmed = all.last == "" ? all.dropLast() : all[...]
        let kept = trimmed.suffix(lines)
        let prefix = trimmed.count > lines ? "… (\(trimmed.count - lines) earlier lines in the transcript)\n" : ""
        return prefix + kept.joined(separator: "\n")
    }

    /// A gateway request with its headers, payload and answer (and why it was refused).
    static func describe(_ e: APNsLogEntry) -> String {
        var lines = [
            "gateway \(e.endpoint.rawValue) \(e.method) \(e.path) → \(e.status)" + (e.reason.map { " \($0)" } ?? "")
        ]
        for h in e.headers where !h.name.hasPrefix(":") {
            let value = h.name == "authorization" ? clip(h.value, 40) : h.value
            lines.append("    \(h.name): \(value)")
        }
        if !e.payload.isEmpty { lines.append("    payload: \(clip(String(decoding: e.payload, as: UTF8.self), 300))") }
        if let d = e.detail { lines.append("    \(e.status == 200 ? "warning" : "why"): \(d)") }
        return lines.joined(separator: "\n")
    }

    static func clip(_ s: String, _ n: Int) -> String { s.count > n ? String(s.prefix(n)) + "…" : s }
}
