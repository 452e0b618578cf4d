import PushModel
import Reports

/// How one attempt of a scenario ended, in report terms.
package struct AttemptResult: Sendable, Equatable {
    /// Passed, failure (assertion), error (harness fault) or skipped.
    package var outcome: CaseOutcome
    /// The attempt's transcript (JUnit `system-out`).
    package var transcript: String
    /// Wall time of the attempt in seconds.
    package var seconds: Double
    /// The failed checks one by one (for the HTML report; `outcome` holds them as one text).
    package var checks: [CheckFailureReport]
    /// The attempt's hops for the HTML report's sequence diagram.
    package var trace: [TraceEvent]

    /// Creates an attempt result.
    package init(
        outcome: CaseOutcome, transcript: String = "", seconds: Double = 0, checks: [CheckFailureReport] = [],
        trace: [TraceEvent] = []
    ) {
        self.outcome = outcome
        self.transcript = transcript
        self.seconds = seconds
        self.checks = checks
        self.trace = trace
    }

    /// The problem of a failed or errored attempt.
    package var problem: ProblemReport? {
        switch outcome {
        case let .failure(problem), let .error(problem): problem
        case .passed, .skipped: nil
        }
    }
}

/// How the runner schedules scenarios.
package struct RunPolicy: Sendable, Equatable {
    /// Scenarios run at the same time (at least 1).
    package var jobs: Int
    /// Extra attempts for a scenario that failed or errored (0: run once).
    package var retries: Int
    /// Upper bound for one attempt; the attempt is cancelled and reported as `error type="timeout"`.
    package var scenarioTimeout: Duration?
    /// After the first failed or errored scenario, start no more (they are reported as skipped).
    package var failFast: Bool
    /// How long a cancelled attempt may take to return its transcript before the runner stops waiting.
    var cancellationGrace: Duration

    /// Creates a policy.
    package init(
        jobs: Int = 1, retries: Int = 0, scenarioTimeout: Duration? = nil, failFast: Bool = false,
        cancellationGrace: Duration = .seconds(2)
    ) {
        self.jobs = max(1, jobs)
        self.retries = max(0, retries)
        self.scenarioTimeout = scenarioTimeout
        self.failFast = failFast
        self.cancellationGrace = cancellationGrace
    }

    /// Skip reason for scenarios not started because of `--fail-fast`.
    static let failFastSkipReason = "not run: --fail-fast stopped the run after a failure"
}

extension Duration {
    /// Seconds as a Double.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }

    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (s, attoseconds) = components
        let (product, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64.max : product &+ attoseconds / 1_000_000_000
    }

    /// `30s`, `1.5s`, `250ms` for messages.
    var shortText: String {
        let value = seconds
        if value < 1 { return "\(Int((value * 1000).rounded()))ms" }
        if value == value.rounded() { return "\(Int(value))s" }
        return "\(value)s"
    }
}
