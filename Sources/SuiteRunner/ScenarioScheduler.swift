import Foundation
import PushModel
import Reports
import Synchronization

/// Runs selected scenarios: at most `jobs` at a time, each attempt bounded by the scenario timeout,
/// failed attempts retried (earlier attempts kept as Surefire `flaky*`/`rerun*` records), `--fail-fast`,
/// and cancellation (Ctrl-C) that stops scheduling and cancels what runs.
///
/// The executor is a closure so the scheduler knows nothing about suite files: production code passes
/// the scenario executor, tests pass fakes.
package struct ScenarioScheduler: Sendable {
    /// Runs attempt `attempt` (1-based) of a scenario. Should honour Task cancellation; one that does
    /// not is abandoned after `RunPolicy.cancellationGrace`.
    package typealias Execute = @Sendable (_ item: RunItem, _ attempt: Int) async -> AttemptResult

    /// How scheduling works.
    package let policy: RunPolicy
    private let execute: Execute
    /// Where the attempts' timeouts and grace periods are armed (tests give their own, to count what is left armed).
    private let deadlines: DeadlineWatch

    /// A scheduler with `policy` calling `execute` for every attempt.
    package init(policy: RunPolicy, execute: @escaping Execute) {
        self.init(policy: policy, execute: execute, deadlines: .shared)
    }

    /// A scheduler arming its deadlines on `deadlines` (tests: their own watch, to count what stays armed).
    init(policy: RunPolicy, execute: @escaping Execute, deadlines: DeadlineWatch) {
        self.policy = policy
        self.execute = execute
        self.deadlines = deadlines
    }

    /// What happened to the run as a whole.
    package struct Outcome: Sendable {
        /// Scenarios that finished (or were skipped), in finishing order; empty when the recorder keeps none
        /// (`RunRecorder(keepingFinished: false)`, a run's own).
        package var finished: [TestCaseReport]
        /// True when the run was cancelled before every scenario finished.
        package var interrupted: Bool
        /// Scenarios neither finished nor skipped (interrupted before or while running).
        package var unfinished: Int
    }

    /// Runs `items` in order of scheduling, recording every result in `recorder`. Returns when every
    /// scenario has finished, or — after cancellation — when the running ones have stopped. `done` is called for each
    /// item once nothing will run it again (after its last attempt, or when it is skipped).
    package func run(
        _ items: [RunItem], recorder: RunRecorder, done: @escaping @Sendable (RunItem) -> Void = { _ in }
    ) async -> Outcome {
        let progress = Progress()
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            var running = 0
            while true {
                while running < policy.jobs, next < items.count, !Task.isCancelled {
                    let item = items[next]
                    next += 1
                    if let reason = item.skipReason {
                        recorder.finished(Self.skippedCase(item, reason: reason))
                        progress.countFinished()
                        done(item)
                        continue
                    }
                    if progress.stopped {
                        recorder.finished(Self.skippedCase(item, reason: RunPolicy.failFastSkipReason))
                        progress.countFinished()
                        done(item)
                        continue
                    }
                    running += 1
                    group.addTask {
                        let testCase = await runScenario(item, recorder: recorder)
                        done(item)
                        if policy.failFast, Self.isFailed(testCase.outcome) { progress.stop() }
                        progress.countFinished()
                    }
                }
                if running == 0 { break }
                await group.next()
                running -= 1
            }
        }
        let finished = await recorder.finishedCases()
        let count = progress.finishedCount
        return Outcome(finished: finished, interrupted: count < items.count, unfinished: items.count - count)
    }

    /// Runs every attempt of one scenario and records the final result.
    func runScenario(_ item: RunItem, recorder: RunRecorder) async -> TestCaseReport {
        recorder.started(item)
        var earlier: [RetryAttempt] = []
        var attempt = 1
        var result: AttemptResult
        while true {
            result = await runAttempt(item, attempt: attempt)
            guard let problem = result.problem else { break }
            let retryable = problem.harnessKind != .interrupted && !Task.isCancelled
            guard retryable, attempt <= policy.retries else { break }
            earlier.append(
                RetryAttempt(kind: Self.kind(of: result.outcome), problem: problem, systemOut: result.transcript))
            attempt += 1
        }
        let testCase = TestCaseReport(
            classname: item.classname, name: item.name, file: item.file, line: item.line > 0 ? item.line : nil,
            time: result.seconds, outcome: result.outcome, retries: earlier, systemOut: result.transcript,
            tags: item.tags, checks: result.checks, trace: result.trace)
        recorder.finished(testCase)
        return testCase
    }

    /// Shared between the scheduling loop and the scenario tasks.
    private final class Progress: Sendable {
        private let state = Mutex((finished: 0, stopped: false))
        func countFinished() { state.withLock { $0.finished += 1 } }
        func stop() { state.withLock { $0.stopped = true } }
        var stopped: Bool { state.withLock { $0.stopped } }
        var finishedCount: Int { state.withLock { $0.finished } }
    }

    private enum Event: Sendable {
        case finished(AttemptResult)
        case timedOut
        case interrupted
    }

    /// One attempt, raced against the scenario timeout and against cancellation of the run.
    func runAttempt(_ item: RunItem, attempt: Int) async -> AttemptResult {
        let start = ContinuousClock.now
        let execute = self.execute
        let first = FirstOf<Event>()
        // The attempt offers its own result (a second task awaiting it cost a task and a hand-off per scenario).
        let work = Task {
            let result = await execute(item, attempt)
            first.offer(.finished(result))
            return result
        }
        // The timeout runs on the deadline watch's thread, not on the cooperative pool, so an executor that blocks
        // pool threads cannot delay its own timeout; it is disarmed as soon as the attempt is decided.
        let timer = policy.scenarioTimeout.map { deadlines.arm(after: $0) { first.offer(.timedOut) } }
        let event = await withTaskCancellationHandler {
            await first.wait()
        } onCancel: {
            first.offer(.interrupted)
        }
        if let timer { deadlines.disarm(timer) }
        let cause: HarnessErrorKind
        let message: String
        switch event {
        case let .finished(result):
            return result
        case .timedOut:
            cause = .timeout
            message = "scenario exceeded the scenario timeout of \(policy.scenarioTimeout?.shortText ?? "?")"
        case .interrupted:
            cause = .interrupted
            message = "interrupted (pushcheck got SIGINT or SIGTERM) while running"
        }
        work.cancel()
        let late = await lateResult(of: work)
        let elapsed = (ContinuousClock.now - start).seconds
        var detail = "pushcheck cancelled the scenario (\(cause.rawValue)) after \(String(format: "%.3f", elapsed))s."
        if let problem = late?.problem, !problem.message.isEmpty {
            detail += "\nThe scenario reported: \(problem.type): \(problem.message)"
            if !problem.detail.isEmpty { detail += "\n" + problem.detail }
        } else if late == nil {
            detail += "\nIt did not stop within \(policy.cancellationGrace.shortText) and was abandoned."
        }
        return AttemptResult(
            outcome: .error(ProblemReport(message: message, kind: cause, detail: detail)),
            transcript: late?.transcript ?? "", seconds: elapsed)
    }

    /// The cancelled attempt's own result if it returns within the grace period.
    private func lateResult(of work: Task<AttemptResult, Never>) async -> AttemptResult? {
        let late = FirstOf<AttemptResult?>()
        let grace = policy.cancellationGrace
        let waiter = Task { late.offer(await work.value) }
        let timer = deadlines.arm(after: grace) { late.offer(nil) }
        let value = await late.wait()
        deadlines.disarm(timer)
        _ = waiter
        return value
    }

    static func skippedCase(_ item: RunItem, reason: String) -> TestCaseReport {
        TestCaseReport(
            classname: item.classname, name: item.name, file: item.file, line: item.line > 0 ? item.line : nil,
            time: 0, outcome: .skipped(message: reason), tags: item.tags)
    }

    static func isFailed(_ outcome: CaseOutcome) -> Bool {
        switch outcome {
        case .failure, .error: true
        case .passed, .skipped: false
        }
    }

    static func kind(of outcome: CaseOutcome) -> RetryAttempt.Kind {
        if case .failure = outcome { return .failure }
        return .error
    }
}
