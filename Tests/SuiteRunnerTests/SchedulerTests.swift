import Foundation
@testable import PushModel
import PushcheckTestSupport
@testable import Reports
import Synchronization
import Testing
@testable import SuiteRunner

@Suite struct SchedulerTests {
    @Test func runsEverythingWithBoundedParallelism() async {
        let names = (1...12).map { "s\($0)" }
        let fake = FakeExecutor(
            Dictionary(uniqueKeysWithValues: names.map { ($0, FakeExecutor.Behaviour.slow(.milliseconds(30))) }))
        let scheduler = ScenarioScheduler(policy: RunPolicy(jobs: 3), execute: fake.closure)
        let outcome = await scheduler.run(items(names), recorder: RunRecorder(report: nil, console: nil))
        #expect(outcome.finished.count == 12)
        #expect(!outcome.interrupted)
        #expect(fake.peakConcurrency <= 3)
        #expect(fake.peakConcurrency >= 2)
        #expect(outcome.finished.allSatisfy { $0.outcome == .passed })
    }

    /// Finished scenarios are rendered into the report off the scenarios' tasks (`RunRecorder`): when `run` returns,
    /// every one of them is in the report and its console line was announced, in finishing order.
    @Test func everyFinishedScenarioIsInTheReportWhenTheRunReturns() async throws {
        let directory = try TempDirectory()
        defer { directory.remove() }
        let names = (1...60).map { "s\($0)" }
        let plan = [PlannedSuite(name: "Suites/a.yaml", cases: names.map { PlannedCase(name: $0) })]
        let report = try IncrementalReport(
            url: directory.url.appendingPathComponent("junit.xml"), hostname: "ci", plan: plan,
            policy: .coalesced(minimumInterval: .seconds(3600)))
        // The last one's 8 MB transcript takes a while to render: the run must still not return before it is in.
        let fake = FakeExecutor(["s60": .verbose(bytes: 8 << 20)])
        let scheduler = ScenarioScheduler(policy: RunPolicy(jobs: 2), execute: fake.closure)
        let outcome = await scheduler.run(items(names), recorder: RunRecorder(report: report, console: nil))
        #expect(outcome.finished.count == 60)
        let final = try report.finish()
        #expect(final.totals.tests == 60 && final.totals.passed == 60, "\(final.totals)")
    }

    @Test func anInterruptedAttemptIsNeverRetriedButOtherHarnessErrorsAre() async {
        let fake = FakeExecutor(["stopped": .harness(.interrupted), "crashed": .harness(.command)])
        let scheduler = ScenarioScheduler(policy: RunPolicy(jobs: 1, retries: 2), execute: fake.closure)
        let cases = await scheduler.run(
            items(["stopped", "crashed"]), recorder: RunRecorder(report: nil, console: nil)
        ).finished
        #expect(fake.callLog.filter { $0.hasPrefix("stopped#") } == ["stopped#1"])
        #expect(fake.callLog.filter { $0.hasPrefix("crashed#") }.count == 3)
        let stopped = cases.first { $0.name == "stopped" }!
        #expect(stopped.retries.isEmpty)
        #expect(stopped.outcome == .error(ProblemReport(message: "harness interrupted", type: "interrupted")))
        #expect(cases.first { $0.name == "crashed" }!.retries.map(\.problem.harnessKind) == [.command, .command])
    }

    @Test func retriesKeepEarlierAttempts() async {
        let fake = FakeExecutor(["flaky": .flaky(failures: 2), "broken": .fail("nope"), "ok": .pass])
        let scheduler = ScenarioScheduler(policy: RunPolicy(jobs: 2, retries: 2), execute: fake.closure)
        let cases = await scheduler.run(
            items(["flaky", "broken", "ok"]), recorder: RunRecorder(report: nil, console: nil)
        ).finished
        let flaky = cases.first { $0.name == "flaky" }!
        #expect(flaky.outcome == .passed)
        #expect(flaky.isFlaky)
        #expect(flaky.retries.map(\.problem.message) == ["flake 1", "flake 2"])
        #expect(flaky.retries.first?.systemOut == "transcript of flaky attempt 1")
        let broken = cases.first { $0.name == "broken" }!
        #expect(broken.retries.count == 2)
        guard case .failure = broken.outcome else { Issue.record("broken should fail"); return }
        #expect(cases.first { $0.name == "ok" }!.retries.isEmpty)
        #expect(fake.callLog.filter { $0.hasPrefix("broken#") }.count == 3)
        #expect(fake.callLog.filter { $0.hasPrefix("ok#") } == ["ok#1"])
    }

    @Test func scenarioTimeoutBecomesTimeoutError() async {
        // 5 s: "quick" must finish inside the same timeout, and on a 2-core machine other suites running beside this
        // one in the test process can hold both cooperative threads for over 2 s (it then timed out too).
        let fake = FakeExecutor(["slow": .slow(.seconds(30)), "quick": .pass])
        let scheduler = ScenarioScheduler(
            policy: RunPolicy(jobs: 2, scenarioTimeout: .seconds(5)), execute: fake.closure)
        let cases = await scheduler.run(items(["slow", "quick"]), recorder: RunRecorder(report: nil, console: nil))
            .finished
        guard case let .error(problem)? = outcome("slow", in: cases) else {
            Issue.record("slow should be an error, got \(String(describing: outcome("slow", in: cases)))")
            return
        }
        #expect(problem.type == "timeout")
        #expect(problem.message.contains("5s"))
        #expect(cases.first { $0.name == "slow" }!.systemOut.contains("cut short"))
        #expect(outcome("quick", in: cases) == .passed)
    }

    /// A finished attempt's timeout is disarmed with it: with the default 300 s timeout nothing of a run's scenarios
    /// stays armed (Dispatch's `asyncAfter` kept each scenario's timer, and the attempt state it held, for 300 s).
    @Test func finishedAttemptsLeaveNoTimeoutArmed() async {
        let names = (1...40).map { "s\($0)" }
        let fake = FakeExecutor(["s7": .fail("nope"), "s9": .error("boom")])
        let deadlines = DeadlineWatch()
        let scheduler = ScenarioScheduler(
            policy: RunPolicy(jobs: 2, retries: 1, scenarioTimeout: .seconds(300)), execute: fake.closure,
            deadlines: deadlines)
        let outcome = await scheduler.run(items(names), recorder: RunRecorder(report: nil, console: nil))
        #expect(outcome.finished.count == 40)
        #expect(fake.callLog.count == 42)  // s7 and s9 were retried
        #expect(deadlines.armedCount == 0)
    }

    /// `done` (where a run lets go of a loaded scenario) comes once per item, after its last attempt: a retried
    /// scenario is not released between its attempts, and skipped ones are released too.
    @Test func doneComesOncePerItemAfterItsLastAttempt() async {
        let fake = FakeExecutor(["flaky": .flaky(failures: 2), "ok": .pass])
        var list = items(["flaky", "ok", "later"])
        list[2].skipReason = "not today"
        let log = Mutex<[String]>([])
        let scheduler = ScenarioScheduler(
            policy: RunPolicy(jobs: 1, retries: 2),
            execute: { item, attempt in
                log.withLock { $0.append("\(item.name)#\(attempt)") }
                return await fake.closure(item, attempt)
            })
        let outcome = await scheduler.run(list, recorder: RunRecorder(report: nil, console: nil)) { item in
            log.withLock { $0.append("done \(item.name)") }
        }
        #expect(outcome.finished.count == 3)
        #expect(
            log.withLock { $0 } == ["flaky#1", "flaky#2", "flaky#3", "done flaky", "ok#1", "done ok", "done later"])
    }

    @Test func timeoutAbandonsAnExecutorThatIgnoresCancellation() async {
        let fake = FakeExecutor(["stuck": .stubborn(.seconds(10))])
        let scheduler = ScenarioScheduler(
            policy: RunPolicy(jobs: 1, scenarioTimeout: .milliseconds(100), cancellationGrace: .milliseconds(100)),
            execute: fake.closure)
        let started = ContinuousClock.now
        let cases = await scheduler.run(items(["stuck"]), recorder: RunRecorder(report: nil, console: nil)).finished
        #expect(ContinuousClock.now - started < .seconds(8), "the runner did not wait for the stuck attempt")
        guard case let .error(problem)? = outcome("stuck", in: cases) else { Issue.record("expected error"); return }
        #expect(problem.type == "timeout")
        #expect(problem.detail.contains("abandoned"))
    }

    @Test func timedOutAttemptsAreRetried() async {
        let fake = FakeExecutor(["slow": .slow(.seconds(20))])
        let scheduler = ScenarioScheduler(
            policy: RunPolicy(retries: 1, scenarioTimeout: .milliseconds(100)), execute: fake.closure)
        let cases = await scheduler.run(items(["slow"]), recorder: RunRecorder(report: nil, console: nil)).finished
        #expect(cases.first?.retries.map(\.problem.type) == ["timeout"])
        #expect(cases.first?.retries.first?.kind == .error)
    }

    @Test func failFastSkipsTheRest() async {
        let names = ["bad"] + (1...6).map { "later\($0)" }
        let fake = FakeExecutor(["bad": .error("boom")])
        let scheduler = ScenarioScheduler(policy: RunPolicy(jobs: 1, failFast: true), execute: fake.closure)
        let outcome = await scheduler.run(items(names), recorder: RunRecorder(report: nil, console: nil))
        #expect(outcome.finished.count == 7)
        #expect(!outcome.interrupted)
        #expect(fake.callLog == ["bad#1"])
        for name in names.dropFirst() {
            #expect(
                SuiteRunnerTests.outcome(name, in: outcome.finished) == .skipped(message: RunPolicy.failFastSkipReason))
        }
    }

    @Test func skipReasonIsReportedWithoutRunning() async {
        var list = items(["a", "b"])
        list[1].skipReason = "needs FCM"
        let fake = FakeExecutor([:])
        let outcome = await ScenarioScheduler(policy: RunPolicy(), execute: fake.closure)
            .run(list, recorder: RunRecorder(report: nil, console: nil))
        #expect(fake.callLog == ["a#1"])
        #expect(SuiteRunnerTests.outcome("b", in: outcome.finished) == .skipped(message: "needs FCM"))
    }

    @Test func cancellationStopsSchedulingAndInterruptsRunning() async throws {
        let names = ["fast"] + (1...5).map { "slow\($0)" }
        var behaviours: [String: FakeExecutor.Behaviour] = ["fast": .pass]
        for name in names.dropFirst() { behaviours[name] = .slow(.seconds(30)) }
        let fake = FakeExecutor(behaviours)
        let recorder = RunRecorder(report: nil, console: nil)
        let scheduler = ScenarioScheduler(policy: RunPolicy(jobs: 2), execute: fake.closure)
        let list = items(names)
        let task = Task { await scheduler.run(list, recorder: recorder) }
        // Wait until the fast one finished and two slow ones are running.
        let deadline = ContinuousClock.now + .seconds(10)
        while await recorder.finishedCases().isEmpty || fake.callLog.count < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        let outcome = await task.value
        #expect(outcome.interrupted)
        #expect(SuiteRunnerTests.outcome("fast", in: outcome.finished) == .passed)
        let interrupted = outcome.finished.filter {
            if case let .error(p) = $0.outcome { return p.type == "interrupted" }
            return false
        }
        #expect(interrupted.count == 2)
        #expect(outcome.unfinished == 3)
        #expect(fake.callLog.count == 3)
    }
}
