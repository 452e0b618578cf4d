import Foundation
import PushModel

/// One name/value pair in a `<properties>` block (seed, shard, versions, …).
package struct ReportProperty: Sendable, Equatable, Hashable {
    /// Property name; must not be empty (the schema requires a non-empty token).
    package var name: String
    /// Property value, any text.
    package var value: String

    /// Creates a property.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What a failed or errored attempt reported: a one-line message, a type, and a detail block
/// (the expected-vs-actual text, a caret snippet, or a stack-trace-like transcript).
package struct ProblemReport: Sendable, Equatable {
    /// One-line summary, written as the `message` attribute.
    package var message: String
    /// A short classifier, written as the `type` attribute (e.g. `assertion`, `timeout`, `interrupted`).
    package var type: String
    /// Multi-line detail, written as the element text.
    package var detail: String

    /// Creates a problem description.
    package init(message: String, type: String, detail: String = "") {
        self.message = message
        self.type = type
        self.detail = detail
    }

    /// Creates the report of a harness error; `type` is the kind's stable `rawValue`.
    package init(message: String, kind: HarnessErrorKind, detail: String = "") {
        self.init(message: message, type: kind.rawValue, detail: detail)
    }

    /// The harness error kind `type` names, or nil for other classifiers (`assertion`, doctor finding ids).
    package var harnessKind: HarnessErrorKind? { HarnessErrorKind(rawValue: type) }
}

/// The final result of one scenario.
package enum CaseOutcome: Sendable, Equatable {
    /// Every assertion held.
    case passed
    /// An assertion did not hold (`<failure>`): the product misbehaved. (The problem is behind a reference, as is
    /// `error`'s: an outcome takes 17 bytes, not 56, in every case a report holds, and most cases pass.)
    indirect case failure(ProblemReport)
    /// The scenario could not run to its end (`<error>`): a harness, setup or runtime fault.
    indirect case error(ProblemReport)
    /// The scenario did not run (`<skipped>`), with the reason.
    case skipped(message: String)
}

/// One earlier attempt of a retried scenario, written Surefire-style.
///
/// For a case whose final outcome is `.passed`, attempts become `<flakyFailure>`/`<flakyError>`;
/// for a case whose final outcome is `.failure`/`.error`, they become `<rerunFailure>`/`<rerunError>`.
package struct RetryAttempt: Sendable, Equatable {
    /// Whether the attempt failed an assertion or errored.
    package enum Kind: Sendable, Equatable {
        /// An assertion failed on that attempt.
        case failure
        /// The attempt errored.
        case error
    }

    /// Failure or error.
    package var kind: Kind
    /// What went wrong on that attempt (`detail` becomes `<stackTrace>`).
    package var problem: ProblemReport
    /// Transcript of that attempt.
    package var systemOut: String
    /// Standard error of that attempt.
    var systemErr: String

    /// Creates a record of an earlier attempt.
    package init(kind: Kind, problem: ProblemReport, systemOut: String = "", systemErr: String = "") {
        self.kind = kind
        self.problem = problem
        self.systemOut = systemOut
        self.systemErr = systemErr
    }
}

/// One scenario's result (`<testcase>`).
package struct TestCaseReport: Sendable, Equatable {
    /// The suite path, e.g. `Suites/checkout.yaml` (the `classname` attribute).
    package var classname: String
    /// The scenario name (the `name` attribute).
    package var name: String
    /// The suite file the scenario lives in (the `file` attribute), if known.
    package var file: String?
    /// The 1-based line of the scenario in `file` (the `line` attribute), if known.
    package var line: Int?
    /// Wall time of the final attempt, in seconds.
    package var time: Double
    /// The final outcome.
    package var outcome: CaseOutcome
    /// Earlier attempts, oldest first; empty when the scenario ran once.
    package var retries: [RetryAttempt]
    /// Transcript of the final attempt (event log as text).
    package var systemOut: String
    /// Standard error of the final attempt.
    var systemErr: String
    /// The scenario's tags (HTML report filters; JUnit has no place for them).
    package var tags: [String]
    /// The final attempt's failed checks, one by one (the `failure` element holds them as text).
    package var checks: [CheckFailureReport]
    /// The final attempt's hops, in order, for the HTML report's sequence diagram (empty until the runner emits them).
    package var trace: [TraceEvent]

    /// Creates a scenario result.
    package init(
        classname: String, name: String, file: String? = nil, line: Int? = nil, time: Double,
        outcome: CaseOutcome, retries: [RetryAttempt] = [], systemOut: String = "", systemErr: String = "",
        tags: [String] = [], checks: [CheckFailureReport] = [], trace: [TraceEvent] = []
    ) {
        self.classname = classname
        self.name = name
        self.file = file
        self.line = line
        self.time = time
        self.outcome = outcome
        self.retries = retries
        self.systemOut = systemOut
        self.systemErr = systemErr
        self.tags = tags
        self.checks = checks
        self.trace = trace
    }

    /// This case without what only the report files hold — its transcripts, standard error and trace — as a run keeps
    /// it in memory once the case is rendered (`IncrementalReport`): totals, the console's failures and flaky line, and
    /// the exit code read nothing else, and a run's memory then does not grow with every scenario's transcript.
    package var summary: TestCaseReport {
        var summary = self
        summary.systemOut = ""
        summary.systemErr = ""
        summary.trace = []
        for index in summary.retries.indices {
            summary.retries[index].systemOut = ""
            summary.retries[index].systemErr = ""
        }
        return summary
    }

    /// True when the final outcome passed but earlier attempts did not.
    var isFlaky: Bool {
        if case .passed = outcome { return !retries.isEmpty }
        return false
    }
}

/// Counts derived from cases; never stored, always recomputed.
package struct ReportTotals: Sendable, Equatable {
    /// Number of cases.
    package var tests = 0
    /// Cases whose final outcome is `.failure`.
    package var failures = 0
    /// Cases whose final outcome is `.error`.
    package var errors = 0
    /// Cases whose final outcome is `.skipped`.
    package var skipped = 0
    /// Cases that passed after earlier failed attempts (counted in `passed` too).
    var flaky = 0
    /// Sum of case times, seconds.
    package var time: Double = 0

    /// Cases that passed (`tests - failures - errors - skipped`).
    package var passed: Int { tests - failures - errors - skipped }

    /// Creates zero totals.
    package init() {}

    /// Totals of the given cases.
    package init(cases: [TestCaseReport]) {
        for testCase in cases { add(testCase) }
    }

    /// Adds one case.
    package mutating func add(_ testCase: TestCaseReport) {
        tests += 1
        time += testCase.time
        switch testCase.outcome {
        case .passed: if testCase.isFlaky { flaky += 1 }
        case .failure: failures += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        }
    }

    /// Adds other totals.
    package mutating func add(_ other: ReportTotals) {
        tests += other.tests
        failures += other.failures
        errors += other.errors
        skipped += other.skipped
        flaky += other.flaky
        time += other.time
    }
}

/// One suite file's results (`<testsuite>`).
package struct TestSuiteReport: Sendable, Equatable {
    /// The suite path, e.g. `Suites/checkout.yaml`.
    package var name: String
    /// The suite file, if it differs from or should be stated besides `name`.
    package var file: String?
    /// When the suite started.
    package var timestamp: Date
    /// Host the suite ran on.
    package var hostname: String
    /// Suite properties (seed, shard, versions).
    package var properties: [ReportProperty]
    /// Scenario results in run order.
    package var cases: [TestCaseReport]
    /// Suite-level output not tied to a scenario.
    package var systemOut: String
    /// Suite-level standard error not tied to a scenario.
    var systemErr: String
    /// The suite's `name:` (the HTML report's heading for it; JUnit keeps the path as the testsuite's name).
    package var title: String?

    /// Creates a suite result.
    package init(
        name: String, file: String? = nil, timestamp: Date, hostname: String,
        properties: [ReportProperty] = [], cases: [TestCaseReport] = [], systemOut: String = "", systemErr: String = "",
        title: String? = nil
    ) {
        self.name = name
        self.title = title
        self.file = file
        self.timestamp = timestamp
        self.hostname = hostname
        self.properties = properties
        self.cases = cases
        self.systemOut = systemOut
        self.systemErr = systemErr
    }

    /// Counts recomputed from `cases`.
    package var totals: ReportTotals { ReportTotals(cases: cases) }
}

/// A whole run (`<testsuites>`): one or more suites plus run-wide facts.
package struct TestReport: Sendable, Equatable {
    /// Report name (e.g. `pushcheck`).
    package var name: String
    /// When the run started.
    package var timestamp: Date
    /// Host the run happened on.
    package var hostname: String
    /// Run-wide properties (seed, shard, versions); written into every suite's `<properties>`,
    /// before the suite's own, since the strict schema has no run-level properties.
    package var properties: [ReportProperty]
    /// Suites in run order.
    package var suites: [TestSuiteReport]

    /// Creates a report.
    package init(
        name: String, timestamp: Date, hostname: String, properties: [ReportProperty] = [],
        suites: [TestSuiteReport] = []
    ) {
        self.name = name
        self.timestamp = timestamp
        self.hostname = hostname
        self.properties = properties
        self.suites = suites
    }

    /// Counts recomputed from every case of every suite.
    package var totals: ReportTotals {
        var totals = ReportTotals()
        for suite in suites { totals.add(suite.totals) }
        return totals
    }

    /// Every case, suite by suite.
    package var allCases: [TestCaseReport] { suites.flatMap(\.cases) }

    /// This machine's host name for `hostname`, or `localhost` when it cannot be determined.
    package static func currentHostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}
