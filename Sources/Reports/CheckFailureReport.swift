import PushModel

/// One failed check as the HTML report shows it: what was expected, what happened, where it is written, and the
/// hop of the sequence diagram it is about.
package struct CheckFailureReport: Sendable, Equatable {
    package var message: String
    package var expected: String
    package var actual: String
    /// Where the check is written in the suite (1-based line and column).
    package var file: String
    package var line: Int
    package var column: Int
    /// The relevant device and gateway events, one per line.
    package var events: String
    /// The lifeline the check is about (`expect.response` → the gateway, `expect.navigation` → the router …);
    /// nil when the runner does not say.
    package var hop: TraceHop?
    /// Index into the scenario's `trace` of the event the check looked at, when the runner knows it.
    package var traceIndex: Int?
    /// A whole-object or snapshot comparison's difference, one `- `/`+ `/`~ ` line per change.
    package var diff: String?

    package init(
        message: String, expected: String = "", actual: String = "", file: String = "", line: Int = 0,
        column: Int = 0, events: String = "", hop: TraceHop? = nil, traceIndex: Int? = nil, diff: String? = nil
    ) {
        self.message = message
        self.expected = expected
        self.actual = actual
        self.file = file
        self.line = line
        self.column = column
        self.events = events
        self.hop = hop
        self.traceIndex = traceIndex
        self.diff = diff
    }
}
