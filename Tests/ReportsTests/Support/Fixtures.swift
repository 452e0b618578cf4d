import Foundation
@testable import Reports

/// Sample reports shared by the golden, merge and console tests.
enum Fixtures {
    static let checkout = "Suites/checkout.yaml"
    static let routing = "Suites/routing.yaml"

    static func passed(_ suite: String, _ name: String, line: Int, time: Double = 0.25, out: String = "")
        -> TestCaseReport
    {
        TestCaseReport(
            classname: suite, name: name, file: suite, line: line, time: time, outcome: .passed, systemOut: out)
    }

    static let assertionFailure = ProblemReport(
        message: "expected the alert to open /orders/42",
        type: "assertion",
        detail: """
            Suites/checkout.yaml:31:9: expect.navigation
               |
            31 |         path: /orders/42
               |         ^ expected path /orders/42
               |
            expected: /orders/42
            actual:   /orders
            """)

    static let gatewayError = ProblemReport(
        message: "mock APNs did not answer within 5.000s", type: "timeout",
        detail: "step 3 (send) to https://127.0.0.1:41235/3/device/abc: no response")

    /// Two suites, every outcome, a transcript, properties; no retries.
    static func mixed() -> TestReport {
        let checkoutSuite = TestSuiteReport(
            name: checkout, file: checkout, timestamp: Support.noon, hostname: "ci-runner-1",
            properties: [ReportProperty("suite.tags", "payments")],
            cases: [
                passed(
                    checkout, "order confirmation opens the order", line: 12, time: 0.4,
                    out: "12:00:00.010 send apns 200\n12:00:00.050 delivered alert\n"),
                TestCaseReport(
                    classname: checkout, name: "tap on alert routes to order", file: checkout, line: 27, time: 1.2345,
                    outcome: .failure(assertionFailure), systemOut: "12:00:01.000 tap\n"),
                TestCaseReport(
                    classname: checkout, name: "refund <silent> push & badge", file: checkout, line: 40, time: 0,
                    outcome: .skipped(message: "tag 'refunds' excluded")),
            ])
        let routingSuite = TestSuiteReport(
            name: routing, file: routing, timestamp: Support.noon.addingTimeInterval(2), hostname: "ci-runner-1",
            cases: [
                TestCaseReport(
                    classname: routing, name: "deep link \"settings\"", file: routing, line: 5, time: 5.0004,
                    outcome: .error(gatewayError), systemErr: "warning: retrying connection\n")
            ])
        return TestReport(
            name: "pushcheck", timestamp: Support.noon, hostname: "ci-runner-1",
            properties: [ReportProperty("seed", "1234"), ReportProperty("pushcheck.version", "0.1.0")],
            suites: [checkoutSuite, routingSuite])
    }

    /// One flaky case (passed on the third attempt) and one that failed all three attempts.
    static func retried() -> TestReport {
        let flaky = TestCaseReport(
            classname: checkout, name: "badge count updates", file: checkout, line: 50, time: 0.3, outcome: .passed,
            retries: [
                RetryAttempt(
                    kind: .failure,
                    problem: ProblemReport(
                        message: "badge was 0", type: "assertion",
                        detail: "expected: 1\nactual:   0"),
                    systemOut: "attempt 1 transcript\n"),
                RetryAttempt(
                    kind: .error,
                    problem: ProblemReport(
                        message: "connection reset", type: "transport",
                        detail: "ECONNRESET"),
                    systemErr: "reset by peer\n"),
            ],
            systemOut: "attempt 3 transcript\n")
        let broken = TestCaseReport(
            classname: checkout, name: "silent push wakes the app", file: checkout, line: 61, time: 0.9,
            outcome: .failure(ProblemReport(message: "app did not wake", type: "assertion", detail: "attempt 3")),
            retries: [
                RetryAttempt(
                    kind: .failure,
                    problem: ProblemReport(
                        message: "app did not wake", type: "assertion",
                        detail: "attempt 1")),
                RetryAttempt(kind: .error, problem: ProblemReport(message: "gateway crashed", type: "harness")),
            ])
        let suite = TestSuiteReport(
            name: checkout, file: checkout, timestamp: Support.noon, hostname: "ci-runner-1", cases: [flaky, broken])
        return TestReport(
            name: "pushcheck", timestamp: Support.noon, hostname: "ci-runner-1",
            properties: [ReportProperty("retries", "2")], suites: [suite])
    }
}
