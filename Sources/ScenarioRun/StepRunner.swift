import APNsGateway
import DeviceSimulator
import Foundation
import HTTPClient
import HTTPTypes
import PushModel
import ScenarioChecks
import SuiteFormat

/// Performs steps against a scenario world.
enum StepRunner {
    static func perform(_ step: Step, world: ScenarioWorld, context: inout RunContext) async throws(StepStop) {
        switch step.action {
        case .send(let send) where send.via == "fcm":
            try await FCMSendRunner.perform(send, step: step, world: world, context: &context)
        case .send(let send): try await perform(send, step: step, world: world, context: &context)
        case .run(let run): try await perform(run, step: step, world: world, context: &context)
        case .device(let action):
            try await DeviceActions.perform(action, step, world: world, run: &context)
            try DeviceCaptures.capture(step, world: world, context: &context)
        case .expect: break
        }
    }

    // MARK: send

    static func perform(_ send: SendStep, step: Step, world: ScenarioWorld, context: inout RunContext)
        async throws(StepStop)
    {
        guard let target = world.device(send.to ?? step.device) else {
            throw .harness(kind: .world, message: "no device '\(send.to ?? step.device ?? "")'", detail: "")
        }
        let bundleID = world.bundleID(on: target, send.app ?? step.app) ?? ""
        guard let device = target.iphone else {
            throw .harness(
                kind: .world, message: "\(target.name) is an Android phone: it has no APNs token",
                detail:
                    "send to it through FCM: send: { via: fcm, to: \(target.name), message: { … } } (step at \(step.range))"
            )
        }
        let app = device.snapshot.apps[bundleID]
        let token: String
        if let t = send.token {
            token = try context.render(t, world: world)
        } else if let t = app?.token {
            token = t.hex
        } else {
            throw .failure(
                AssertionFailure(
                    message: "cannot send: \(bundleID) on \(target.name) has no APNs device token",
                    expected: "the app installed and registered for remote notifications",
                    actual: app == nil ? "not installed" : "registration failed or never happened",
                    file: step.range.file,
                    line: step.range.line, column: step.range.column,
                    events: Observation.render(
                        device.events.filter { $0.bundleID == bundleID || $0.bundleID == nil }),
                    focus: TraceFocus(.device)))
        }
        let environment =
            send.environment
            ?? (app?.environment?.rawValue == "production" ? .production : .sandbox)
        var topic =
            try send.topic.map { (t: Template) throws(StepStop) in try context.render(t, world: world) } ?? bundleID
        let payload = try context.render(send.payload, world: world, json: true)
        var headers = APNsRequestHeaders()
        var extra: [HTTPField] = []
        for h in send.headers {
            let value = try context.render(h.value, world: world)
            switch h.name {
            case "apns-topic": topic = value
            case "apns-push-type": headers.pushType = value
            case "apns-priority": headers.priority = value
            case "apns-expiration": headers.expiration = value
            case "apns-id": headers.id = value
            case "apns-collapse-id": headers.collapseID = value
            default: extra.append(HTTPField(h.name, value))
            }
        }
        headers.topic = topic
        headers.extra = extra
        context.sendCount += 1
        if headers.id == nil {
            headers.id = deterministicUUID(context.environment.seed, context.scenario.id, context.sendCount)
        }
        if headers.pushType == nil, let json = try? JSONValue.parse(payload) {
            let implied = APNsPushType.implied(byPayload: json)
            headers.pushType = implied.rawValue
            // Apple: background pushes "always use priority 5" (reference/apns.md §1.3).
            if implied == .background, headers.priority == nil { headers.priority = "5" }
        }
        var auth = send.auth
        do {
            switch send.auth {
            case .bearer(let t):
                headers.authorizationOverride = try context.render(t, world: world)
            case .token(let keyID, let teamID, let keyFile, let age):
                let jwt =
                    try age.map { try world.agedProviderToken(keyID: keyID, teamID: teamID, keyFile: keyFile, age: $0) }
                    ?? world.providerToken(keyID: keyID, teamID: teamID, keyFile: keyFile)
                headers.authorizationOverride = "bearer \(jwt)"
                auth = .token(keyID: keyID, teamID: teamID, keyFile: keyFile, age: nil)
            default: break
            }
        } catch let stop as StepStop {
            throw stop
        } catch {
            throw .harness(kind: .world, message: "cannot sign the provider token: \(error)", detail: "\(error)")
        }
        let client: APNsClient
        do { client = try world.client(environment, auth: auth, topic: topic) } catch {
            throw .harness(
                kind: .world, message: "cannot reach the \(environment.rawValue) gateway: \(error)", detail: "\(error)"
            )
        }
        let url = (try? world.url(environment)) ?? ""
        context.transcript.step(
            step, "→ POST \(url)/3/device/\(token) (\(environment.rawValue), \(describe(send.auth)))")
        for f in headers.fields { context.transcript.add("    \(f.name): \(f.value)") }
        context.transcript.add("    payload: \(payload)")
        let response: APNsResponse
        do { response = try await client.send(deviceToken: token, json: payload, headers: headers) } catch {
            throw .harness(
                kind: .transport, message: "the send to \(url) failed: \(error)",
                detail: "step at \(step.range): \(error)")
        }
        for entry in world.host.gatewayEntries(after: context.transcribedGateway) {
            context.sentSequences.insert(entry.sequence)
            if context.trace.enabled { context.roundTrips[entry.sequence] = response.http.timings.total }
        }
        var line = "  ← \(response.status)"
        if let r = response.reasonText { line += " \(r)" }
        if let id = response.apnsID { line += " apns-id: \(id)" }
        if let uid = response.apnsUniqueID { line += " apns-unique-id: \(uid)" }
        context.transcript.add(line)
        context.lastSend = SendRecord(
            device: target.name, bundleID: bundleID, environment: environment, token: token,
            apnsID: response.apnsID ?? headers.id ?? "", response: SendResponse(response))
        try captureAll(step, context: &context) { (source: SendCapture?, c) in
            switch source {
            case .status?: String(response.status)
            case .reason?: response.reasonText
            case .apnsID?: response.apnsID
            case .apnsUniqueID?: response.apnsUniqueID
            case .timestamp?: response.timestamp.map { String($0) }
            case nil: response.http.value(String(c.source.dropFirst(SendCapture.headerPrefix.count)))
            }
        }
    }

    /// Takes every `capture:` of `step`: `value` reads one source, named by its typed table (`SendCapture`,
    /// `FCMSendCapture`, `RunCapture`, `DeviceVariable`; nil for the table's prefixed form, e.g. `header.<name>`).
    /// `StepDecoder` accepted only those names.
    static func captureAll<Source: RawRepresentable<String>>(
        _ step: Step, context: inout RunContext, value: (Source?, Capture) -> String?
    ) throws(StepStop) {
        for c in step.captures { try capture(c, value(Source(rawValue: c.source), c), context: &context) }
    }

    static func capture(_ c: Capture, _ value: String?, context: inout RunContext) throws(StepStop) {
        guard let value else {
            throw .failure(
                AssertionFailure(
                    message: "cannot capture '\(c.name)': the response has no \(c.source)",
                    expected: "a value for \(c.source)",
                    actual: "absent", file: c.range.file, line: c.range.line, column: c.range.column, events: ""))
        }
        context.variables[c.name] = value
        context.transcript.add("    captured \(c.name) = \(value)")
    }

    static func describe(_ auth: SendAuth) -> String {
        switch auth {
        case .token(let k, _, let f, let age):
            return "token auth" + (k.map { " kid \($0)" } ?? "") + (f.map { " key \($0)" } ?? "")
                + (age.map { " aged \($0)" } ?? "")
        case .certificate: return "certificate auth"
        case .bearer: return "explicit authorization header"
        case .none: return "no credentials"
        }
    }

    /// A lowercase UUID from the run's seed, the scenario and the send's index: same inputs, same `apns-id`.
    static func deterministicUUID(_ seed: UInt64, _ scenario: String, _ n: Int) -> String {
        let key = StableHash.fnv1a64("\(scenario)#\(n)".utf8, basis: StableHash.fnvOffsetBasis ^ seed)
        var rng = SplitMix64(seed: key)
        let high = rng.next()
        return UUIDText.version4(high: high, low: rng.next())
    }

    // MARK: run

    static func perform(_ run: RunStep, step: Step, world: ScenarioWorld, context: inout RunContext)
        async throws(StepStop)
    {
        let command = try context.render(run.command, world: world)
        var env = context.environment.environment
        env["PUSHCHECK_APNS_SANDBOX_URL"] = (try? world.url(.sandbox, atRoot: true)) ?? ""
        env["PUSHCHECK_APNS_PRODUCTION_URL"] = (try? world.url(.production, atRoot: true)) ?? ""
        env["PUSHCHECK_CA_FILE"] = world.credentials.caPath
        env["PUSHCHECK_APNS_PROXY_URL"] = (try? world.proxyURL()) ?? ""
        env["PUSHCHECK_APNS_KEY_FILE"] = world.credentials.providerKeyPath
        env["PUSHCHECK_APNS_KEY_ID"] = world.declaration.defaultKeyID
        env["PUSHCHECK_APNS_TEAM_ID"] = world.declaration.defaultTeamID
        env["PUSHCHECK_FIXTURE_HTTP_URL"] = context.environment.fixtureHTTPURL
        env["PUSHCHECK_FIXTURE_HTTPS_URL"] = context.environment.fixtureHTTPSURL
        if let first = world.devices.first, let bundle = world.bundleID(on: first, step.app) {
            env["PUSHCHECK_APNS_TOPIC"] = bundle
            if let files = try? world.credentials.providerCertificateFiles(
                bundleID: bundle, teamID: world.declaration.defaultTeamID)
            {
                env["PUSHCHECK_APNS_CERT_FILE"] = files.certificate
                env["PUSHCHECK_APNS_CERT_KEY_FILE"] = files.key
            }
        }
        env["PUSHCHECK_APNS_PROVIDER_TOKEN"] = try? world.providerToken(keyID: nil, teamID: nil, keyFile: nil)
        for d in world.devices {
            let name = envName(d.name)
            let app = world.bundleID(on: d, nil)
            if let t = DeviceVariable.token.value(in: d, app: app) { env["PUSHCHECK_DEVICE_TOKEN_\(name)"] = t }
            if let f = DeviceVariable.fcmToken.value(in: d, app: app) { env["PUSHCHECK_FCM_TOKEN_\(name)"] = f }
            // `PUSHCHECK_VOIP_TOKEN_<DEVICE>`, `…_PUSHTOTALK_TOKEN_…`: an iPhone app's per-purpose tokens.
            if let app, let state = d.iphone?.snapshot.apps[app] {
                for (kind, t) in state.pushTokens {
                    let word = kind.rawValue.uppercased().replacingOccurrences(of: "-", with: "_")
                    env["PUSHCHECK_\(word)_TOKEN_\(name)"] = t.hex
                }
            }
        }
        for (k, v) in world.fcmEnvironment() { env[k] = v }
        for (k, v) in world.broadcastEnvironment() { env[k] = v }
        for (k, t) in run.environment { env[k] = try context.render(t, world: world) }
        let timeout = run.timeout ?? context.environment.stepTimeout
        context.transcript.step(step, "$ \(command)")
        context.trace.add(
            TraceEvent(
                .request, from: .runner, to: .backend, label: "run \(command)", stepLine: step.range.line,
                notes: ["in \(run.directory)"]))
        let logStart = world.host.lastLogSequence ?? 0
        let fcmStart = world.host.lastFCMSequence ?? 0
        defer {
            // What the backend sent through FCM (each with the APNs request it became), then what reached APNs.
            for entry in world.host.fcmLog(after: fcmStart) {
                context.transcript.add("  → backend via " + FailureContext.describe(entry))
            }
            BackendRequests.record(after: logStart, world: world, context: &context)
            BackendRequests.recordFCM(after: fcmStart, world: world, context: &context)
        }
        let outcome: CommandRunner.Outcome
        do {
            outcome = try await CommandRunner.run(command, environment: env, directory: run.directory, timeout: timeout)
        } catch {
            throw .harness(kind: .command, message: error.description, detail: "step at \(step.range)")
        }
        if !outcome.stdout.isEmpty { context.transcript.add(indent(outcome.stdout, "    | ")) }
        if !outcome.stderr.isEmpty { context.transcript.add(indent(outcome.stderr, "    ! ")) }
        context.transcript.add("  " + exitLine(outcome, timeout: timeout))
        // What the backend sent while it ran, before its exit.
        context.collectTrace(world)
        context.trace.add(exitEvent(outcome, timeout: timeout, step: step))
        if outcome.abandonedOutput {
            context.transcript.add(
                "  (an output pipe stayed open after every process of the step was killed; reading it was abandoned)")
        }
        if Task.isCancelled {
            throw .harness(
                kind: .interrupted, message: "cancelled while running: \(command)", detail: "step at \(step.range)")
        }
        if outcome.timedOut {
            throw .harness(
                kind: .timeout, message: "command did not finish within \(timeout): \(command)",
                detail: "step at \(step.range)\nstdout:\n\(outcome.stdout)\nstderr:\n\(outcome.stderr)")
        }
        if outcome.signalled {
            throw .harness(
                kind: .command,
                message:
                    "command was killed by signal \(outcome.exitCode) (\(String(cString: strsignal(outcome.exitCode)))): "
                    + command,
                detail: "step at \(step.range)\nstderr:\n\(outcome.stderr)")
        }
        context.lastRun = RunRecord(exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr)
        try captureAll(step, context: &context) { (source: RunCapture?, c) in
            switch source {
            case .stdout?: outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            case .stderr?: outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            case .exit?: String(outcome.exitCode)
            case nil:
                (try? JSONValue.parse(outcome.stdout)).flatMap {
                    lookup(String(c.source.dropFirst(RunCapture.jsonPrefix.count)), in: $0)
                }.map(Matcher.text)
            }
        }
    }

    /// How the command ended, for the transcript: a signal's number is not an exit status (`exit 9` read as if the
    /// command had chosen 9), and a kill by the step's `timeout:` says so.
    static func exitLine(_ outcome: CommandRunner.Outcome, timeout: Duration) -> String {
        let end = outcome.signalled ? "killed by signal \(outcome.exitCode)" : "exit \(outcome.exitCode)"
        return outcome.timedOut ? end + " after the timeout (\(timeout))" : end
    }

    /// The backend's answer to the runner on the diagram: its exit (or how it was stopped) and its output's ends.
    static func exitEvent(_ outcome: CommandRunner.Outcome, timeout: Duration, step: Step) -> TraceEvent {
        let label =
            outcome.timedOut
            ? "timed out after \(timeout)"
            : outcome.signalled ? "killed by signal \(outcome.exitCode)" : "exit \(outcome.exitCode)"
        let tail = { (text: String) in text.count > 4096 ? "…" + text.suffix(4096) : text }
        return TraceEvent(
            .response, from: .backend, to: .runner, label: label,
            body: outcome.stdout.isEmpty ? nil : tail(outcome.stdout), stepLine: step.range.line,
            notes: outcome.stderr.isEmpty ? [] : ["stderr: " + tail(outcome.stderr)])
    }

    /// `Test iPhone` → `TEST_IPHONE`.
    static func envName(_ name: String) -> String {
        String(
            name.uppercased().unicodeScalars.map {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "_"
            })
    }

    static func indent(_ text: String, _ prefix: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
            .map { prefix + $0 }.joined(separator: "\n")
    }
}
