import Foundation
import PushModel
import ScenarioChecks

/// How one scenario ended.
package struct ScenarioResult: Sendable {
    package enum Status: Sendable {
        case passed
        case failed([AssertionFailure])
        /// A harness fault, classified by `kind` (written as the report's `type`).
        case error(kind: HarnessErrorKind, message: String, detail: String)
        case skipped(String)
    }

    package var status: Status
    /// Requests, responses, delivered payloads, callbacks, navigation, pages — for JUnit system-out.
    package var transcript: String
    package var duration: Duration
    /// The HTML report's hops, from the same records the transcript prints (empty unless
    /// `RunEnvironment.recordsTrace`).
    package var trace: [TraceEvent]

    package init(status: Status, transcript: String, duration: Duration, trace: [TraceEvent] = []) {
        self.status = status
        self.transcript = transcript
        self.duration = duration
        self.trace = trace
    }
}
