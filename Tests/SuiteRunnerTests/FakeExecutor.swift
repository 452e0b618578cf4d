import Foundation
@testable import PushModel
@testable import Reports
import Synchronization
@testable import SuiteRunner

/// A test-only stand-in for the scenario executor: each scenario name maps to a script of attempt results.
final class FakeExecutor: Sendable {
    enum Behaviour: Sendable {
        case pass
        case fail(String)
        case error(String)
        /// Returns a harness error of this kind on every attempt, without being cancelled.
        case harness(HarnessErrorKind)
        /// Fails on the first `failures` attempts, then passes.
        case flaky(failures: Int)
        /// Sleeps (cooperatively) for the duration, then passes; returns `interrupted` when cancelled.
        case slow(Duration)
        /// Ignores cancellation and finishes only after the (whole-second) duration.
        case stubborn(Duration)
        /// Passes at once with a transcript of this many bytes (slow to render into a report).
        case verbose(bytes: Int)
    }

    private let behaviours: [String: Behaviour]
    private let calls = Mutex<[String]>([])
    private let concurrency = Mutex((now: 0, peak: 0))

    init(_ behaviours: [String: Behaviour]) { self.behaviours = behaviours }

    var callLog: [String] { calls.withLock { $0 } }
    var peakConcurrency: Int { concurrency.withLock { $0.peak } }

    func execute(_ item: RunItem, _ attempt: Int) async -> AttemptResult {
        calls.withLock { $0.append("\(item.name)#\(attempt)") }
        concurrency.withLock {
            $0.now += 1; $0.peak = max($0.peak, $0.now)
        }
        defer { concurrency.withLock { $0.now -= 1 } }
        let transcript = "transcript of \(item.name) attempt \(attempt)"
        switch behaviours[item.name] ?? .pass {
        case .pass:
            try? await Task.sleep(for: .milliseconds(5))
            return AttemptResult(outcome: .passed, transcript: transcript, seconds: 0.005)
        case let .fail(message):
            return AttemptResult(
                outcome: .failure(ProblemReport(message: message, type: "assertion", detail: "expected: a\nactual: b")),
                transcript: transcript)
        case let .error(message):
            return AttemptResult(
                outcome: .error(ProblemReport(message: message, type: "internal", detail: "thrown")),
                transcript: transcript)
        case let .harness(kind):
            return AttemptResult(
                outcome: .error(ProblemReport(message: "harness \(kind.rawValue)", kind: kind)), transcript: transcript)
        case let .flaky(failures):
            if attempt <= failures {
                return AttemptResult(
                    outcome: .failure(ProblemReport(message: "flake \(attempt)", type: "assertion")),
                    transcript: transcript)
            }
            return AttemptResult(outcome: .passed, transcript: transcript)
        case let .slow(duration):
            do {
                try await Task.sleep(for: duration)
            } catch {
                return AttemptResult(
                    outcome: .error(ProblemReport(message: "cancelled", kind: .interrupted)),
                    transcript: transcript + " (cut short)")
            }
            return AttemptResult(outcome: .passed, transcript: transcript)
        case let .verbose(bytes):
            return AttemptResult(outcome: .passed, transcript: String(repeating: "x", count: bytes))
        case let .stubborn(duration):
            // Waits on a Dispatch timer and ignores cancellation (without blocking a cooperative thread).
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(duration.components.seconds))) {
                    continuation.resume()
                }
            }
            return AttemptResult(outcome: .passed, transcript: transcript)
        }
    }

    var closure: ScenarioScheduler.Execute { { item, attempt in await self.execute(item, attempt) } }
}

func items(_ names: [String], suite: String = "Suites/a.yaml") -> [RunItem] {
    names.enumerated().map { RunItem(classname: suite, name: $1, line: $0 + 1, handle: $0) }
}

func outcome(_ name: String, in cases: [TestCaseReport]) -> CaseOutcome? {
    cases.first { $0.name == name }?.outcome
}
