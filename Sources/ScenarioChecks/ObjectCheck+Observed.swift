import Foundation
import PushModel
import SuiteFormat

extension ObjectCheck {
    /// The diff from expected to observed (empty = pass); nil observed is "absent".
    func failure(_ observed: JSONValue?, expected: JSONValue) -> AssertionFailure? {
        let kind = mode == .exact ? "exactly" : "at least"
        guard let observed else {
            return AssertionFailure(
                message: "expect \(label)", expected: "\(object.rawValue) with \(kind) \(expected.serialized())",
                actual: "no \(object.rawValue) observed", file: range.file, line: range.line, column: range.column,
                events: "")
        }
        let changes = JSONDiff.diff(expected, observed, root: object.rawValue, mode: mode == .exact ? .exact : .subset)
        if changes.isEmpty { return nil }
        return AssertionFailure(
            message: "expect \(label)",
            expected: "\(object.rawValue) with \(kind) the keys and values written (- expected, + observed)",
            actual: "\n" + JSONDiff.render(changes).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"),
            file: range.file, line: range.line, column: range.column, events: "")
    }
}

extension Observation {
    /// The whole object an `ObjectCheck` names.
    func object(_ object: WholeObject) -> JSONValue? {
        switch object {
        case .userInfo: return userInfo()
        case .notification: return presentedNotification()
        case .payload:
            // The last push the gateway accepted in the window, else the last send's.
            let entry =
                gatewayRequests.last(where: { $0.status == 200 }) ?? gatewayRequests.last ?? lastSendEntry
            return entry.flatMap { try? JSONValue.parse($0.payload) }
        }
    }

    /// The last presented notification as an object (absent fields left out).
    func presentedNotification() -> JSONValue? {
        guard notification(.presented) == .bool(true) else { return nil }
        var o: [String: JSONValue] = [:]
        let fields: [NotificationField] = [
            .title, .subtitle, .body, .badge, .sound, .category, .threadID, .interruptionLevel,
        ]
        for field in fields {
            if let v = notification(field) { o[field.rawValue] = v }
        }
        return .object(o)
    }
}
