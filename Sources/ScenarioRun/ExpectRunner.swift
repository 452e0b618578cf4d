import APNsGateway
import DeviceBridge
import DeviceSimulator
import Foundation
import PushModel
import ScenarioChecks
import SuiteFormat

/// Runs an `expect:` block: builds the `Observation` from the world's read API (`WorldHost+Reads.swift`) and
/// the run's windows, has `Checker` evaluate it, compares its `snapshot:`, and moves the windows on.
enum ExpectRunner {
    static func check(_ expectation: Expectation, step: Step, world: ScenarioWorld, context: inout RunContext)
        throws(StepStop)
        -> [AssertionFailure]
    {
        var lastSend = context.lastSend
        if let selector = expectation.request {
            guard let picked = try BackendRequests.select(selector, context: context, world: world) else {
                return [
                    context.marked(
                        RequestSelection.missing(selector, expectation: expectation, context: context),
                        lastSend: context.lastSend)
                ]
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
        guard
            let observation = observe(
                d.name, bundleID: bundle, lastSend: lastSend, picked: expectation.request != nil, host: world.host,
                context: context)
        else { throw .harness(kind: .world, message: "no device '\(d.name)'", detail: "") }
        var lines: [String] = []
        let verdict: Checker.Verdict
        do {
            let ctx = context
            var afterRun = false
            if case .run = step.action { afterRun = true }
            verdict = try Checker.evaluate(
                expectation, observation, afterRun: afterRun, lookup: { ctx.lookup($0, world: world) },
                transcript: &lines)
        } catch {
            for line in lines { context.transcript.add(line) }
            throw .harness(
                kind: .variable, message: error.description, detail: error.sourceError.rendered(color: false))
        }
        for line in lines { context.transcript.add(line) }
        if !verdict.commandFailed, let snapshot = expectation.snapshot {
            try compare(snapshot, observation, stepName: step.name, lastSend: lastSend, context: &context)
        }
        for f in verdict.failures {
            context.transcript.add("  FAILED \(f.message): expected \(f.expected), actual \(f.actual)")
        }
        context.windowStart[d.name] =
            observation.android?.snapshot.events.last?.sequence ?? observation.snapshot.events.last?.sequence ?? 0
        context.gatewayWindowStart = world.host.lastLogSequence ?? context.gatewayWindowStart
        context.fcmWindowStart = world.host.lastFCMSequence ?? context.fcmWindowStart
        let failures = verdict.failures.map { context.marked($0, lastSend: lastSend) }
        context.traceWindowStart = context.trace.events.count
        return failures
    }

    /// What the checks of an `expect:` on `device` see, read through the world's read API: the device's state and
    /// its events since the previous `expect` (for `bundleID` and device-wide; with a `request:` selector,
    /// `picked`, the picked push's own events wherever they fall), the gateways' logs since then, what the gateway
    /// stores for the last send's token. Nil when the world has no such device.
    static func observe(
        _ device: String, bundleID: String, lastSend: SendRecord?, picked: Bool, host: WorldHost,
        context: RunContext
    ) -> Observation? {
        if let android = host.androidSnapshot(device) {
            let start = context.windowStart[device] ?? 0  // an event number: the oldest events may have been dropped
            var window = Array(
                android.events.entries(after: start).filter { $0.packageName == bundleID || $0.packageName == nil })
            if picked, let id = lastSend?.apnsID {
                // The picked message's own events: from its arrival up to the next message's.
                let mine = android.events.filter { $0.packageName == bundleID || $0.packageName == nil }
                func arrived(_ e: AndroidDeviceEvent) -> String? {
                    if case .messageReceived(let m, _, _) = e.kind { m } else { nil }
                }
                if let from = mine.firstIndex(where: { arrived($0) == id }) {
                    let rest = mine[mine.index(after: from)...]
                    window = Array(mine[from..<(rest.firstIndex { arrived($0) != nil } ?? mine.endIndex)])
                } else {
                    window = []
                }
            }
            var o = Observation(
                snapshot: DeviceState(name: device, udid: android.serial, iosVersion: "", seed: 0), bundleID: bundleID,
                window: [], gatewayRequests: host.gatewayEntries(after: context.gatewayWindowStart),
                fcmRequests: host.fcmLog(after: context.fcmWindowStart), lastSend: lastSend, lastRun: context.lastRun)
            o.android = AndroidObservation(snapshot: android, packageName: bundleID, window: window)
            if lastSend == nil { o.lastSendNote = context.lastSendNote }
            return o
        }
        guard let snapshot = host.deviceSnapshot(device) else { return nil }
        let events = snapshot.events
        let start = context.windowStart[device] ?? 0  // an event number: the oldest events may have been dropped
        let mine = { (e: DeviceEvent) in e.bundleID == bundleID || e.bundleID == nil }
        var window = events.entries(after: start).filter(mine)
        if picked, let id = lastSend?.apnsID {
            // The picked push's own events, wherever they fall (a standalone expect after the step included).
            window = BackendRequests.events(of: id, in: events.filter(mine))
        }
        let token = lastSend.flatMap { DeviceToken(hex: $0.token) }
        var o = Observation(
            snapshot: snapshot, bundleID: bundleID, window: Array(window), pickedPush: picked && lastSend != nil,
            gatewayRequests: host.gatewayEntries(after: context.gatewayWindowStart),
            fcmRequests: host.fcmLog(after: context.fcmWindowStart),
            storedPushes: token.map { host.storedPushes(for: $0) } ?? [],
            lastSendEntry: lastSend.flatMap { s in host.gatewayLog().last { $0.apnsID == s.apnsID } },
            lastSend: lastSend, lastRun: context.lastRun)
        o.now = host.clock.now()
        if lastSend == nil { o.lastSendNote = context.lastSendNote }
        return o
    }

    /// Compares (or records) the block's `snapshot:`; a mismatch is kept for the end of the scenario (the rest
    /// still runs, so its later snapshots show what the change did to the app).
    static func compare(
        _ snapshot: SnapshotCheck, _ observation: Observation, stepName: String?, lastSend: SendRecord?,
        context: inout RunContext
    ) throws(StepStop) {
        guard let store = context.environment.snapshots else {
            throw .harness(
                kind: .world, message: "snapshot checks need a snapshot store (pushcheck run provides one)",
                detail: "step at \(snapshot.range)")
        }
        context.snapshotCount += 1
        let entry = snapshot.name ?? stepName ?? String(context.snapshotCount)
        guard context.snapshotNames.insert(entry).inserted else {
            throw .harness(
                kind: .snapshot,
                message:
                    "two snapshots of scenario '\(context.scenario.name)' are named '\(entry)'; give this one its own name",
                detail: "step at \(snapshot.range): snapshot: { name: … }")
        }
        let verdict: SnapshotVerdict
        do {
            verdict = try snapshot.compare(
                observation, entry: entry, store: store, suite: context.suite.path, scenario: context.scenario.name)
        } catch {
            throw .harness(kind: .snapshot, message: error.why, detail: "step at \(snapshot.range)")
        }
        for line in verdict.lines { context.transcript.add(line) }
        if var found = verdict.failure {
            found.failure.events = Checker.relevantEvents(observation)
            found.failure = context.marked(found.failure, lastSend: lastSend)
            context.snapshotFailures.append(found)
        }
    }
}
