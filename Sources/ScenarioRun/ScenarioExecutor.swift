import APNsGateway
import DeviceSimulator
import Foundation
import PushModel
import ScenarioChecks
import SuiteFormat

/// Runs scenarios.
package enum ScenarioExecutor {
    /// Runs one scenario in a fresh world (its own gateway handlers/listeners and device). Never throws:
    /// harness faults (timeouts, crashed commands, unreachable pages, Swift errors) become `.error`.
    /// Honours Task cancellation (the runner cancels on scenario timeout / Ctrl-C) by returning
    /// `.error(kind: .interrupted, …)`; a command step past its own timeout gives `.error(kind: .timeout, …)`.
    /// The first failing `expect` block ends the scenario (all of its failed checks are reported).
    package static func run(_ scenario: Scenario, in suite: Suite, environment: RunEnvironment) async -> ScenarioResult
    {
        let started = ContinuousClock.now
        if let reason = scenario.skipReason {
            return ScenarioResult(status: .skipped(reason), transcript: "", duration: .zero)
        }
        let world: ScenarioWorld
        do {
            world = try ScenarioWorld(suite.world, seed: environment.seed, stepTimeout: environment.stepTimeout)
        } catch {
            return ScenarioResult(
                status: .error(
                    kind: .world, message: "cannot build the scenario's world: \(error)", detail: "\(error)"),
                transcript: "", duration: ContinuousClock.now - started)
        }
        defer { world.shutdown() }
        var context = RunContext(scenario: scenario, suite: suite, environment: environment, start: world.clock.now())
        context.transcript.add(
            "scenario: \(scenario.name) (\(scenario.file):\(scenario.line)) seed \(environment.seed) attempt \(environment.attempt)"
        )
        for d in world.devices { for line in d.addressLines { context.transcript.add(line) } }
        transcribeEvents(world, &context)
        // Checks look at what happens after the world is set up (setup is visible through findings,
        // registration and token checks).
        for d in world.devices { context.windowStart[d.name] = d.lastEventSequence }
        context.setupWindow = context.windowStart
        var status = ScenarioResult.Status.passed
        for step in scenario.steps {
            if Task.isCancelled {
                status = .error(
                    kind: .interrupted, message: "cancelled before the step at line \(step.range.line)", detail: "")
                break
            }
            do {
                // An expect attached to a step looks at what that step did; a standalone `- expect:`
                // looks at everything since the previous expect.
                if step.expectation?.snapshot?.wholeScenario == true {
                    context.windowStart = context.setupWindow
                    context.gatewayWindowStart = 0
                    context.traceWindowStart = 0
                } else if step.expectation != nil, !step.isCheckOnly {
                    for d in world.devices { context.windowStart[d.name] = d.lastEventSequence }
                    context.gatewayWindowStart = world.host.lastLogSequence ?? context.gatewayWindowStart
                    context.traceWindowStart = context.trace.events.count
                }
                context.stepLine = step.range.line
                try await StepRunner.perform(step, world: world, context: &context)
                transcribeEvents(world, &context)
                if let expectation = step.expectation {
                    let failures = try ExpectRunner.check(expectation, step: step, world: world, context: &context)
                    if !failures.isEmpty {
                        status = .failed(failures)
                        break
                    }
                }
            } catch {
                transcribeEvents(world, &context)
                switch error {
                case .failure(let f):
                    context.transcript.add("  FAILED: \(f.message)")
                    status = .failed([context.marked(f, lastSend: context.lastSend)])
                case .harness(let kind, let message, let detail):
                    context.transcript.add("  ERROR (\(kind.rawValue)): \(message)")
                    status = .error(kind: kind, message: message, detail: detail)
                }
                break
            }
            if Task.isCancelled {
                status = .error(
                    kind: .interrupted, message: "cancelled during the step at line \(step.range.line)", detail: "")
                break
            }
        }
        if !context.snapshotFailures.isEmpty {
            let snapshotFailures = SnapshotCheck.combine(context.snapshotFailures)
            switch status {
            case .passed: status = .failed(snapshotFailures)
            case .failed(let later): status = .failed(snapshotFailures + later)
            default: break
            }
        }
        if case .passed = status { context.transcript.add("passed") }
        // A scenario that stopped early did not reach all its snapshots: only a pass makes the rest obsolete.
        var passed = false
        if case .passed = status { passed = true }
        environment.snapshots?.scenarioFinished(suite: suite.path, scenario: scenario.name, passed: passed)
        return ScenarioResult(
            status: status, transcript: context.transcript.text, duration: ContinuousClock.now - started,
            trace: context.trace.events)
    }

    /// Copies device events not yet written into the transcript, and draws them (with the gateways' requests,
    /// the scenario's own sends included) into the trace.
    static func transcribeEvents(_ world: ScenarioWorld, _ context: inout RunContext) {
        for d in world.devices {
            let (lines, count) = d.eventLines(from: context.transcribed[d.name] ?? 0)
            for line in lines { context.transcript.add("  [\(d.name)] \(line)") }
            context.transcribed[d.name] = count
        }
        // Requests the scenario's own sends did not make (e.g. a backend script run as a step).
        let sent = context.sentSequences
        for entry in world.host.gatewayEntries(after: context.transcribedGateway) {
            context.transcribedGateway = entry.sequence
            guard !sent.contains(entry.sequence) else { continue }
            var line = "  [gateway] \(entry.endpoint.rawValue) \(entry.method) \(entry.path) → \(entry.status)"
            if let r = entry.reason { line += " \(r)" }
            context.transcript.add(line)
        }
        context.collectTrace(world)
    }
}
