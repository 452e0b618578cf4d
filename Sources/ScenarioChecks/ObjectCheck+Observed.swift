import Foundation
import PushModel
import SuiteFormat

extension ObjectCheck {
    /// The diff from expected to observed (empty = pass); nil observed is "absent".
    /// `read` is what the object was read from (`Observation.readNote`), said after the actual value.
    func failure(_ observed: JSONValue?, expected: JSONValue, read: String = "") -> AssertionFailure? {
        let kind = mode == .exact ? "exactly" : "at least"
        guard let observed else {
            return AssertionFailure(
                message: "expect \(label)", expected: "\(object.rawValue) with \(kind) \(expected.serialized())",
                actual: "no \(object.rawValue) observed" + read, file: range.file, line: range.line,
                column: range.column, events: "", focus: object.traceFocus)
        }
        let changes = JSONDiff.diff(expected, observed, root: object.rawValue, mode: mode == .exact ? .exact : .subset)
        if changes.isEmpty { return nil }
        let diff = JSONDiff.render(changes)
        return AssertionFailure(
            message: "expect \(label)",
            expected: "\(object.rawValue) with \(kind) the keys and values written (- expected, + observed)",
            actual: "\n" + diff.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
                + (read.isEmpty ? "" : "\n   " + read),
            file: range.file, line: range.line, column: range.column, events: "", focus: object.traceFocus, diff: diff)
    }
}

extension Observation {
    /// The whole object an `ObjectCheck` names.
    func object(_ whole: WholeObject) -> JSONValue? {
        if let android { return android.object(whole, fcmRequests: fcmRequests) }
        switch whole {
        case .userInfo: return userInfo()
        case .notification: return object(of: latestNotification())
        case .payload:
            // The last push the gateway accepted in the window, else the last send's.
            let entry =
                gatewayRequests.last(where: { $0.status == 200 }) ?? gatewayRequests.last ?? lastSendEntry
            return entry.flatMap { try? JSONValue.parse($0.payload) }
        }
    }
}
