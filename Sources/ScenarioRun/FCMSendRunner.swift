import APNsGateway
import DeviceBridge
import FCMGateway
import DeviceSimulator
import Foundation
import HTTPClient
import PushModel
import ScenarioChecks
import SuiteFormat

/// `send: { via: fcm, … }`: the runner as a backend on FCM's HTTP v1 API. It sends over real HTTP/2 + TLS to
/// the world's FCM listener with an OAuth bearer from the mock's `/token` (the runner's service account), then
/// reads the FCM log entry the request made, so the transcript shows the FCM request, its answer and the APNs
/// request(s) it became, and the delivery checks follow the push FCM sent to the device.
enum FCMSendRunner {
    static func perform(_ send: SendStep, step: Step, world: ScenarioWorld, context: inout RunContext)
        async throws(StepStop)
    {
        guard let fcm = world.fcm, let defaultProject = fcm.configuration.projects.first?.id else {
            throw .harness(
                kind: .world, message: "send via fcm: this world has no FCM service",
                detail: "declare one under world: { gateway: { fcm: { projects: [ … ] } } } (step at \(step.range))")
        }
        guard let target = world.device(send.to ?? step.device) else {
            throw .harness(kind: .world, message: "no device '\(send.to ?? step.device ?? "")'", detail: "")
        }
        let bundleID = world.bundleID(on: target, send.app ?? step.app) ?? ""
        let app = target.iphone?.snapshot.apps[bundleID]
        let androidToken = target.android?.snapshot.apps[bundleID]?.fcmToken
        let rendered = try context.render(send.payload, world: world, json: true)
        var body: [UInt8]
        var fcmToken: String?
        if case .object(var message)? = try? JSONValue.parse(rendered) {
            if !["token", "topic", "condition", "fid"].contains(where: { message[$0] != nil }) {
                guard let token = app?.fcmToken ?? androidToken else {
                    throw missingToken(bundleID, target, app: app, step: step)
                }
                message["token"] = .string(token)
            }
            fcmToken = message["token"]?.stringValue
            var wrapper: [String: JSONValue] = ["message": .object(message)]
            if send.validateOnly { wrapper["validate_only"] = .bool(true) }
            body = JSONValue.object(wrapper).serializedBytes()
        } else {
            // Not JSON once rendered (a suite testing what FCM refuses): sent as the message, verbatim.
            body = Array("{\"message\": \(rendered)\(send.validateOnly ? ", \"validate_only\": true" : "")}".utf8)
        }
        let project =
            try send.project.map { (t: Template) throws(StepStop) in try context.render(t, world: world) }
            ?? defaultProject
        let client: FCMClient
        do { client = try world.fcmClient() } catch {
            throw .harness(kind: .world, message: "cannot reach the FCM service: \(error)", detail: "\(error)")
        }
        let logStart = world.host.lastFCMSequence ?? 0
        context.transcript.step(
            step,
            "→ POST \(client.sendURL(project: project)) (FCM v1, OAuth bearer for \(client.account.clientEmail))")
        context.transcript.add("    body: \(String(decoding: body, as: UTF8.self))")
        let answer: FCMSendResponse
        do { answer = try await client.send(project: project, body: body) } catch {
            throw .harness(
                kind: .transport, message: "the FCM send to \(client.baseURL) failed: \(error)",
                detail: "step at \(step.range): \(error)")
        }
        context.transcript.add(
            "  ← \(answer.status) \(answer.http.bodyText.trimmingCharacters(in: .whitespacesAndNewlines))")
        let made = world.host.fcmLog(after: logStart)
        for e in made {
            context.sentFCMSequences.insert(e.sequence)
            if context.trace.enabled { context.fcmRoundTrips[e.sequence] = answer.http.timings.total }
        }
        let entry = made.last { $0.path.hasSuffix("/messages:send") }
        for hop in entry?.apns ?? [] { context.transcript.add(FailureContext.describe(hop, indent: "    ")) }
        for e in world.host.gatewayEntries(after: context.transcribedGateway) {
            context.sentSequences.insert(e.sequence)
        }
        let hop = entry?.apns.first
        var record = SendRecord(
            device: target.name, bundleID: bundleID, environment: hop?.environment ?? .sandbox,
            token: hop?.apnsToken ?? "", apnsID: hop?.apnsID ?? "", response: SendResponse(APNsResponse(answer.http)),
            fcm: FCMAnswer(answer))
        if let hop, let owner = owner(of: hop.apnsToken, world: world) {
            record.device = owner.device
            record.bundleID = owner.bundleID
        }
        if let entry {
            followAndroidHop(entry, world: world, into: &record)
            for a in entry.android {
                context.transcript.add(
                    "    → Android \(a.message.packageName) message \(a.message.messageID): \(a.disposition.status)"
                        + (a.disposition.reason.map { " (\($0))" } ?? ""))
            }
        }
        // Accepted for an instance whose APNs token never reached Firebase: nothing goes to APNs. The device
        // logs why (so `dropped:` says it), under the message's name.
        if answer.status == 200, !send.validateOnly, hop == nil, entry?.android.isEmpty ?? true,
            let name = answer.name, let fcmToken, let device = target.iphone,
            device.fcmMessageNotDelivered(fcmToken: fcmToken, messageID: name)
        {
            record.apnsID = name
        }
        context.lastSend = record
        try StepRunner.captureAll(step, context: &context) { (source: FCMSendCapture?, _) in
            switch source {
            case .status?: String(answer.status)
            case .errorCode?: answer.errorCode
            case .name?: answer.name
            case .apnsID?, nil: hop?.apnsID
            }
        }
    }

    /// A send that reached an Android instance: the checks follow that message on the device holding its token
    /// (`apnsID` holds the message id, `token` the FCM token).
    static func followAndroidHop(_ entry: FCMLogEntry, world: ScenarioWorld, into record: inout SendRecord) {
        guard let a = entry.android.first else { return }
        record.apnsID = a.message.messageID
        record.token = a.fcmToken
        if let owner = world.host.fleet.index.holder(of: .fcm(a.fcmToken)) {
            record.device = owner.device
            record.bundleID = owner.bundleID
        }
    }

    /// The device and app holding the APNs token FCM pushed to (hex).
    static func owner(of apnsTokenHex: String, world: ScenarioWorld) -> TokenHolder? {
        DeviceToken(hex: apnsTokenHex).flatMap { world.host.holder(ofAPNsToken: $0) }
    }

    static func missingToken(_ bundleID: String, _ target: HostedDevice, app: InstalledApp?, step: Step)
        -> StepStop
    {
        .failure(
            AssertionFailure(
                message: "cannot send via fcm: \(bundleID) on \(target.name) has no FCM registration token",
                expected: "the app declared with firebase: { sender_id, project_id }, installed and registered",
                actual: app == nil ? "not installed" : "no FCM token (no firebase: in the app, or registration failed)",
                file: step.range.file, line: step.range.line, column: step.range.column,
                events: target.android.map { AndroidObservation.render($0.events) }
                    ?? Observation.render(
                        (target.iphone?.events ?? []).filter { $0.bundleID == bundleID || $0.bundleID == nil }),
                focus: TraceFocus(.device)))
    }
}
