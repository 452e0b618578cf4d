import Foundation
import PushModel

/// One failed check: what was expected, what happened, where it is written, and the events around it.
public struct AssertionFailure: Sendable, CustomStringConvertible {
    public var message: String
    public var expected: String
    public var actual: String
    public var file: String
    public var line: Int
    public var column: Int
    /// Relevant device and gateway events, rendered one per line.
    public var events: String

    public init(message: String, expected: String, actual: String, file: String, line: Int, column: Int, events: String)
    {
        self.message = message
        self.expected = expected
        self.actual = actual
        self.file = file
        self.line = line
        self.column = column
        self.events = events
    }

    /// `file:line:col: message`, expected/actual, then the events.
    public var description: String {
        var text = "\(file):\(line):\(column): \(message)\n  expected: \(expected)\n  actual:   \(actual)"
        if !events.isEmpty {
            text += "\n  events:\n" + events.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }
}

/// How one scenario ended.
public struct ScenarioResult: Sendable {
    public enum Status: Sendable {
        case passed
        case failed([AssertionFailure])
        /// A harness fault, classified by `kind` (written as the report's `type`).
        case error(kind: HarnessErrorKind, message: String, detail: String)
        case skipped(String)
    }

    public var status: Status
    /// Requests, responses, delivered payloads, callbacks, navigation, pages — for JUnit system-out.
    public var transcript: String
    public var duration: Duration

    public init(status: Status, transcript: String, duration: Duration) {
        self.status = status
        self.transcript = transcript
        self.duration = duration
    }
}
