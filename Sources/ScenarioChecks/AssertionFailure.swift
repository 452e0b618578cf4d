import Foundation
import PushModel

/// One failed check: what was expected, what happened, where it is written, and the events around it.
package struct AssertionFailure: Sendable, CustomStringConvertible {
    package var message: String
    package var expected: String
    package var actual: String
    package var file: String
    package var line: Int
    package var column: Int
    /// Relevant device and gateway events, rendered one per line.
    package var events: String
    /// The hop of the report's sequence diagram the check is about (from its subject's `traceFocus`).
    package var focus: TraceFocus?
    /// The index, in the scenario's trace, of the arrow the check looked at (set when the trace is recorded).
    package var traceIndex: Int?
    /// The `JSONDiff` lines (`- `, `+ `, `~ `) of a whole-object or snapshot comparison, for the report to
    /// colour; the text `actual` holds them too.
    package var diff: String?

    package init(
        message: String, expected: String, actual: String, file: String, line: Int, column: Int, events: String,
        focus: TraceFocus? = nil, diff: String? = nil
    ) {
        self.message = message
        self.expected = expected
        self.actual = actual
        self.file = file
        self.line = line
        self.column = column
        self.events = events
        self.focus = focus
        self.diff = diff
    }

    /// `file:line:col: message`, expected/actual, then the events.
    package var description: String {
        var text = "\(file):\(line):\(column): \(message)\n  expected: \(expected)\n  actual:   \(actual)"
        if !events.isEmpty {
            text += "\n  events:\n" + events.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }
}
