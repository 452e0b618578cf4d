import Foundation
import PushModel

extension Checker {
    /// `exactly:` / `at_least:` comparisons and the `snapshot:` of an expect block.
    static func wholeObjectsAndSnapshot(
        _ expectation: Expectation, _ observation: Observation, step: Step, world: ScenarioWorld,
        context: inout RunContext
    ) throws(StepStop) -> [AssertionFailure] {
        var failures: [AssertionFailure] = []
        let ctx = context
        for check in expectation.objects {
            let expected: JSONValue
            do {
                let text = try check.expected.json.render({ ctx.lookup($0, world: world) }, escape: jsonStringEscape)
                expected = (try? JSONValue.parse(text)) ?? .string(text)
            } catch {
                throw .harness(
                    kind: .variable, message: error.description, detail: error.sourceError.rendered(color: false))
            }
            let failure = check.failure(observation.object(check.object), expected: expected)
            context.transcript.add("  expect \(check.label): " + (failure == nil ? "ok" : "FAILED"))
            if var failure {
                failure.events = relevantEvents(
                    observation.window, observation: observation, world: world, since: context.gatewayWindowStart,
                    fcmSince: context.fcmWindowStart)
                failures.append(failure)
            }
        }
        // A snapshot mismatch is kept for the end of the scenario (the rest still runs, so its later
        // snapshots show what the change did to the app).
        if let snapshot = expectation.snapshot,
            let (found, effects) = try snapshot.evaluate(observation, stepName: step.name, context: &context)
        {
            var failure = found
            failure.events = relevantEvents(
                observation.window, observation: observation, world: world, since: context.gatewayWindowStart,
                fcmSince: context.fcmWindowStart)
            context.snapshotFailures.append((failure, effects))
        }
        return failures
    }
}
