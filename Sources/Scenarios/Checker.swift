import APNsGateway
import DeviceSimulator
import Foundation
import PushModel

/// Evaluates `expect:` blocks.
enum Checker {
    static func check(_ expectation: Expectation, step: Step, world: ScenarioWorld, context: inout RunContext)
        throws(StepStop)
        -> [AssertionFailure]
    {
        var lastSend = context.lastSend
        if let selector = expectation.request {
            guard let picked = try BackendRequests.select(selector, context: context, world: world) else {
                return [RequestSelection.missing(selector, expectation: expectation, context: context)]
            }
            lastSend = picked
        }
        guard let d = world.device(step.device ?? lastSend?.device) else {
            throw .harness(kind: .world, message: "no device '\(step.device ?? "")'", detail: "")
        }
        var sentApp: String?
        if case .send(let s) = step.action { sentApp = s.app }
        let bundle =
            step.app ?? sentApp ?? (step.device == nil ? lastSend?.bundleID : nil) ?? world.bundleID(on: d, nil)
            ?? ""
        let events = d.device.events
        let start = min(context.windowStart[d.name] ?? 0, events.count)
        var window = events[start...].filter { $0.bundleID == bundle || $0.bundleID == nil }
        if expectation.request != nil, let id = lastSend?.apnsID {
            // The picked push's own events, wherever they fall (a standalone expect after the step included).
            window = BackendRequests.events(of: id, in: events.filter { $0.bundleID == bundle || $0.bundleID == nil })
        }
        let observation = Observation(
            device: d.device, snapshot: d.device.snapshot, bundleID: bundle, window: Array(window),
            lastSend: lastSend, lastRun: context.lastRun, host: world.host,
            gatewaySince: context.gatewayWindowStart)
        var failures: [AssertionFailure] = []
        let ctx = context
        // A failed `exit` of a run step is the news: the other checks would only fail in its wake.
        var checks = expectation.checks
        var commandFailed = false
        if case .run = step.action, let i = checks.firstIndex(where: { $0.subject == .exitCode }) {
            checks.insert(checks.remove(at: i), at: 0)
        }
        for check in checks {
            let actual = observation.value(check.subject)
            let resolve = { (e: ExpectedValue) throws(VariableError) -> JSONValue in
                let text = try e.json.render({ ctx.lookup($0, world: world) }, escape: jsonStringEscape)
                return (try? JSONValue.parse(text)) ?? .string(text)
            }
            let expected: String?
            do { expected = try check.matcher.failure(actual, resolve: resolve) } catch {
                throw .harness(
                    kind: .variable, message: error.description, detail: error.sourceError.rendered(color: false))
            }
            let line = "  expect \(check.label): " + (expected == nil ? "ok" : "FAILED")
            context.transcript.add(line)
            guard let expected else { continue }
            failures.append(
                AssertionFailure(
                    message: "expect \(check.label)", expected: expected,
                    actual: Matcher.show(actual) + hint(check.subject, observation),
                    file: check.range.file, line: check.range.line, column: check.range.column,
                    events: relevantEvents(
                        Array(window), observation: observation, world: world, since: context.gatewayWindowStart,
                        fcmSince: context.fcmWindowStart)))
            if check.subject == .exitCode, case .run = step.action {
                let stderr = context.lastRun?.stderr ?? ""
                failures[failures.count - 1].events =
                    (stderr.isEmpty ? "stderr: (empty)" : "stderr (last lines):\n" + FailureContext.tail(stderr))
                    + "\n" + failures[failures.count - 1].events
                let skipped = checks.count - 1
                if skipped > 0 { context.transcript.add("  (\(skipped) later check(s) skipped: the command failed)") }
                commandFailed = true
                break
            }
        }
        if !commandFailed {
            failures += try wholeObjectsAndSnapshot(
                expectation, observation, step: step, world: world, context: &context)
        }
        for f in failures {
            context.transcript.add("  FAILED \(f.message): expected \(f.expected), actual \(f.actual)")
        }
        context.windowStart[d.name] = events.count
        context.gatewayWindowStart = world.host.lastLogSequence ?? context.gatewayWindowStart
        context.fcmWindowStart = world.fcm?.log().last?.sequence ?? context.fcmWindowStart
        return failures
    }

    /// Why the actual value is what it is, when the events say so.
    static func hint(_ subject: Subject, _ o: Observation) -> String {
        switch subject {
        case .userInfo(let path):
            if let why = o.droppedReason() { return " (push dropped: \(why))" }
            return o.value(subject) == nil ? FailureContext.userInfoHint(path: path, userInfo: o.userInfo()) : ""
        case .delivered, .callbacks, .callback, .notification:
            if let why = o.droppedReason() { return " (push dropped: \(why))" }
            return ""
        case .findings, .install, .registration, .symptoms:
            let f = o.findings()
            return f.isEmpty ? "" : " — " + f.map { "\($0.code): \($0.symptom)" }.joined(separator: "; ")
        case .navigation:
            for e in o.window.reversed() {
                if case .navigation(let n) = e.kind, case .routingFailed = n { return " (\(n))" }
                if case .navigation(let n) = e.kind, case .noRoute = n { return " (\(n))" }
            }
            return ""
        case .fcmErrorCode, .fcmName: return FailureContext.fcmAnswerHint(o.lastSend?.fcm)
        case .status, .reason, .header, .timestamp, .dropped, .stored, .extensions, .page, .openedURLs, .token,
            .state, .badge, .exitCode, .stdout, .stderr:
            return ""
        }
    }

    /// The device events of the window and the gateway's answers since the previous `expect`.
    /// With FCM, the FCM requests since `fcmSince` come first, each with the APNs request(s) it became.
    static func relevantEvents(
        _ window: [DeviceEvent], observation: Observation, world: ScenarioWorld, since: UInt64, fcmSince: UInt64 = 0
    ) -> String {
        var lines = window.map { "device \($0)" }
        for entry in world.fcm?.log() ?? [] where entry.sequence > fcmSince {
            lines.append(FailureContext.describe(entry))
        }
        for entry in world.host.gatewayLog(after: since) {
            lines.append(FailureContext.describe(entry))
        }
        if lines.isEmpty { lines.append("(no device or gateway events since the previous expect)") }
        return lines.joined(separator: "\n")
    }
}
