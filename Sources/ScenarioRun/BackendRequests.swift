import APNsGateway
import DeviceSimulator
import Foundation
import HTTPClient
import HTTPTypes
import PushModel
import ScenarioChecks
import SuiteFormat

/// What a `run:` step's backend sent to the world's gateways, read back from the gateway's delivery log:
/// written to the transcript as pushcheck's own sends are (request line, headers, payload, answer) and
/// kept as `SendRecord`s so every send check (`status`, `delivered`, `user_info` …) works after the step.
enum BackendRequests {
    /// Records the log entries after `sequence` (the log's last sequence before the command started).
    static func record(after sequence: UInt64, world: ScenarioWorld, context: inout RunContext) {
        let entries = world.host.gatewayEntries(after: sequence)
        var records: [SendRecord] = []
        for (n, entry) in entries.enumerated() {
            context.sentSequences.insert(entry.sequence)
            transcribe(entry, number: n + 1, of: entries.count, into: &context.transcript)
            records.append(sendRecord(entry, world: world))
        }
        context.backendRequests = records
        // A backend that sent nothing leaves no last send: the checks of the last send must not read an earlier
        // step's push (`recordFCM` sets it when the backend sent through FCM).
        context.lastSend = records.last
        context.lastSendNote = records.isEmpty ? "the run: step's backend made no request" : nil
    }

    /// The request as the transcript shows a `send`: `→ POST …`, headers, payload, `← status reason ids`.
    static func transcribe(_ e: APNsLogEntry, number: Int, of count: Int, into transcript: inout Transcript) {
        let which = count > 1 ? " request \(number) of \(count)" : ""
        transcript.add("  → backend\(which): \(e.method) \(e.path) (\(e.endpoint.rawValue), \(describe(e.auth)))")
        for h in e.headers where !h.name.hasPrefix(":") {
            transcript.add("    \(h.name): \(h.value)")
        }
        if !e.payload.isEmpty { transcript.add("    payload: \(String(decoding: e.payload, as: UTF8.self))") }
        var line = "  ← \(e.status)"
        if let r = e.reason { line += " \(r)" }
        line += " apns-id: \(e.apnsID)"
        if let uid = e.apnsUniqueID { line += " apns-unique-id: \(uid)" }
        transcript.add(line)
        if let detail = e.detail { transcript.add("    (\(e.status == 200 ? "warning" : "why")): \(detail)") }
    }

    static func describe(_ auth: APNsAuthKind) -> String {
        switch auth {
        case .none: return "no valid credentials"
        case .token(let team, let kid): return "token auth team \(team) kid \(kid)"
        case .certificate(let uid): return "certificate auth \(uid)"
        }
    }

    /// The log entry as if pushcheck had sent it: the answer rebuilt from status, reason and ids (no 410
    /// `timestamp`: the log does not keep the answer's body), the device and app found by the token.
    static func sendRecord(_ e: APNsLogEntry, world: ScenarioWorld) -> SendRecord {
        var headers = [(name: "apns-id", value: e.apnsID)]
        if let uid = e.apnsUniqueID { headers.append(("apns-unique-id", uid)) }
        if e.reason != nil { headers.append(("content-type", "application/json")) }
        let response = SendResponse(status: e.status, reasonText: e.reason, timestamp: nil, headers: headers)
        var device = world.devices.first?.name ?? ""
        var bundle = e.topic.map(APNsPushType.bundleID(ofTopic:)) ?? ""
        if let token = e.token, let owner = world.host.holder(ofToken: token) {
            device = owner.device
            bundle = owner.bundleID
        }
        return SendRecord(
            device: device, bundleID: bundle, environment: e.endpoint, token: e.token?.hex ?? "", apnsID: e.apnsID,
            response: response)
    }

    /// The part of `window` one push caused: from its `pushReceived` up to the next push's (so `request: 2`
    /// with `user_info`, `notification` or `callbacks` looks at the second push only). Empty when it never arrived.
    static func events(of apnsID: String, in window: [DeviceEvent]) -> [DeviceEvent] {
        func received(_ e: DeviceEvent) -> String? {
            if case .pushReceived(let id, _) = e.kind { return id }
            return nil
        }
        guard let from = window.firstIndex(where: { received($0) == apnsID }) else { return [] }
        let rest = window[window.index(after: from)...]
        let to = rest.firstIndex { received($0) != nil } ?? window.endIndex
        return Array(window[from..<to])
    }

    /// The request `selector` picks among the step's backend requests (nil when there is none such).
    static func select(_ selector: RequestSelector, context: RunContext, world: ScenarioWorld) throws(StepStop)
        -> SendRecord?
    {
        switch selector {
        case .index(let n):
            return context.backendRequests.indices.contains(n - 1) ? context.backendRequests[n - 1] : nil
        case .token(let template):
            // APNs tokens are hex (either case); FCM tokens are case-sensitive.
            let token = try context.render(template, world: world)
            return context.backendRequests.last { $0.token == token || $0.token == token.lowercased() }
        }
    }
}

/// The failure for a `request:` that picks nothing.
enum RequestSelection {
    static func missing(_ selector: RequestSelector, expectation: Expectation, context: RunContext)
        -> AssertionFailure
    {
        let sent = context.backendRequests
        let what: String
        switch selector {
        case .index(let n): what = "request \(n)"
        case .token: what = "a request to that token"
        }
        let listed = sent.enumerated().map { "\($0.offset + 1). \($0.element.token) → \($0.element.response.status)" }
        return AssertionFailure(
            message: "expect request: the backend made no \(what)",
            expected: what, actual: "\(sent.count) request(s) to the gateway during the run step",
            file: expectation.range.file, line: expectation.range.line, column: expectation.range.column,
            events: listed.isEmpty
                ? "(the backend sent nothing to the world's gateways)" : listed.joined(separator: "\n"),
            focus: TraceFocus(.backend, .request))
    }
}
