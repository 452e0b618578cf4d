import Foundation
import PushModel

/// One name/value pair in a `<properties>` block (seed, shard, versions, …).
public struct ReportProperty: Sendable, Equatable, Hashable {
    /// Property name; must not be empty (the schema requires a non-empty token).
    public var name: String
    /// Property value, any text.
    public var value: String

    /// Creates a property.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What a failed or errored attempt reported: a one-line message, a type, and a detail block
/// (the expected-vs-actual text, a caret snippet, or a stack-trace-like transcript).
public struct ProblemReport: Sendable, Equatable {
    /// One-line summary, written as the `message` attribute.
    public var message: String
    /// A short classifier, written as the `type` attribute (e.g. `assertion`, `timeout`, `interrupted`).
    public var type: String
    /// Multi-line detail, written as the element text.
    public var detail: String

    /// Creates a problem description.
    public init(message: String, type: String, detail: String = "") {
        self.message = message
        self.type = type
        self.detail = detail
    }

    /// Creates the report of a harness error; `type` is the kind's stable `rawValue`.
    public init(message: String, kind: HarnessErrorKind, detail: String = "") {
        self.init(message: message, type: kind.rawValue, detail: detail)
    }

    /// The harness error kind `type` names, or nil for other classifiers (`assertion`, doctor finding ids).
    public var harnessKind: HarnessErrorKind? { HarnessErrorKind(rawValue: type) }
}

/// The final result of one scenario.
public enum CaseOutcome: Sendable, Equatable {
    /// Every assertion held.
    case passed
    /// An assertion did not hold (`<failure>`): the product misbehaved.
    case failure(ProblemReport)
    /// The scenario could not run to its end (`<error>`): a harness, setup or runtime fault.
    case error(ProblemReport)
    /// The scenario did not run (`<skipped>`), with the reason.
    case skipped(message: String)
}

/// One earlier attempt of a retried scenario, written Surefire-style.
///
/// For a case whose final outcome is `.passed`, attempts become `<flakyFailure>`/`<flakyError>`;
/// for a case whose final outcome is `.failure`/`.error`, they become `<rerunFailure>`/`<rerunError>`.
public struct RetryAttempt: Sendable, Equatable {
    /// Whether the attempt failed an assertion or errored.
    public enum Kind: Sendable, Equatable {
        /// An assertion failed on that attempt.
        case failure
        /// The attempt errored.
        case error
    }

    /// Failure or error.
    public var kind: Kind
    /// What went wrong on that attempt (`detail` becomes `<stackTrace>`).
    public var problem: ProblemReport
    /// Transcript of that attempt.
    public var systemOut: String
    /// Standard error of that attempt.
    public var systemErr: String

    /// Creates a record of an earlier attempt.
    public init(kind: Kind, problem: ProblemReport, systemOut: String = "", systemErr: String = "") {
        self.kind = kind
        self.problem = problem
        self.systemOut = systemOut
        self.systemErr = systemErr
    }
}

/// One scenario's result (`<testcase>`).
public struct TestCaseReport: Sendable, Equatable {
    /// The suite path, e.g. `Suites/checkout.yaml` (the `classname` attribute).
    public var classname: String
    /// The scenario name (the `name` attribute).
    public var name: String
    /// The suite file the scenario lives in (the `file` attribute), if known.
    public var file: String?
    /// The 1-based line of the scenario in `file` (the `line` attribute), if known.
    public var line: Int?
    /// Wall time of the final attempt, in seconds.
    public var time: Double
    /// The final outcome.
    public var outcome: CaseOutcome
    /// Earlier attempts, oldest first; empty when the scenario ran once.
    public var retries: [RetryAttempt]
    /// Transcript of the final attempt (event log as text).
    public var systemOut: String
    /// Standard error of the final attempt.
    public var systemErr: String

    /// Creates a scenario result.
    public init(
        classname: String, name: String, file: String? = nil, line: Int? = nil, time: Double,
        outcome: CaseOutcome, retries: [RetryAttempt] = [], systemOut: String = "", systemErr: String = ""
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
    }

    /// True when the final outcome passed but earlier attempts did not.
    public var isFlaky: Bool {
        if case .passed = outcome { return !retries.isEmpty }
        return false
    }
}

/// Counts derived from cases; never stored, always recomputed.
public struct ReportTotals: Sendable, Equatable {
    /// Number of cases.
    public var tests = 0
    /// Cases whose final outcome is `.failure`.
    public var failures = 0
    /// Cases whose final outcome is `.error`.
    public var errors = 0
    /// Cases whose final outcome is `.skipped`.
    public var skipped = 0
    /// Cases that passed after earlier failed attempts (counted in `passed` too).
    public var flaky = 0
    /// Sum of case times, seconds.
    public var time: Double = 0

    /// Cases that passed (`tests - failures - errors - skipped`).
    public var passed: Int { tests - failures - errors - skipped }

    /// Creates zero totals.
    public init() {}

    /// Totals of the given cases.
    public init(cases: [TestCaseReport]) {
        for testCase in cases { add(testCase) }
    }

    /// Adds one case.
    public mutating func add(_ testCase: TestCaseReport) {
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
    public mutating func add(_ other: ReportTotals) {
        tests += other.tests
        failures += other.failures
        errors += other.errors
        skipped += other.skipped
        flaky += other.flaky
        time += other.time
    }
}

/// One suite file's results (`<testsuite>`).
public struct TestSuiteReport: Sendable, Equatable {
    /// The suite path, e.g. `Suites/checkout.yaml`.
    public var name: String
    /// The suite file, if it differs from or should be stated besides `name`.
    public var file: String?
    /// When the suite started.
    public var timestamp: Date
    /// Host the suite ran on.
    public var hostname: String
    /// Suite properties (seed, shard, versions).
    public var properties: [ReportProperty]
    /// Scenario results in run order.
    public var cases: [TestCaseReport]
    /// Suite-level output not tied to a scenario.
    public var systemOut: String
    /// Suite-level standard error not tied to a scenario.
    public var systemErr: String

    /// Creates a suite result.
    public init(
        name: String, file: String? = nil, timestamp: Date, hostname: String,
        properties: [ReportProperty] = [], cases: [TestCaseReport] = [], systemOut: String = "", systemErr: String = ""
    ) {
        self.name = name
        self.file = file
        self.timestamp = timestamp
        self.hostname = hostname
        self.properties = properties
        self.cases = cases
        self.systemOut = systemOut
        self.systemErr = systemErr
    }

    /// Counts recomputed from `cases`.
    public var totals: ReportTotals { ReportTotals(cases: cases) }
}

/// A whole run (`<testsuites>`): one or more suites plus run-wide facts.
public struct TestReport: Sendable, Equatable {
    /// Report name (e.g. `pushcheck`).
    public var name: String
    /// When the run started.
    public var timestamp: Date
    /// Host the run happened on.
    public var hostname: String
    /// Run-wide properties (seed, shard, versions); written into every suite's `<properties>`,
    /// before the suite's own, since the strict schema has no run-level properties.
    public var properties: [ReportProperty]
    /// Suites in run order.
    public var suites: [TestSuiteReport]

    /// Creates a report.
    public init(
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
    public var totals: ReportTotals {
        var totals = ReportTotals()
        for suite in suites { totals.add(suite.totals) }
        return totals
    }

    /// Every case, suite by suite.
    public var allCases: [TestCaseReport] { suites.flatMap(\.cases) }

    /// This machine's host name for `hostname`, or `localhost` when it cannot be determined.
    public static func currentHostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}
