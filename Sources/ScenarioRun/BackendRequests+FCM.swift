import APNsGateway
import FCMGateway
import Foundation
import HTTPClient
import HTTPTypes
import PushModel
import ScenarioChecks

extension BackendRequests {
    /// After a `run:` step whose backend sent through the world's FCM: the last `messages:send` becomes the last
    /// send, as after `send: { via: fcm }` — `status`, `error_code`, `name` are FCM's answer (rebuilt from the FCM
    /// log entry as Google writes it), and the delivery checks follow the APNs request it became, if any.
    /// The backend's direct APNs requests stay selectable with `request:`.
    static func recordFCM(after sequence: UInt64, world: ScenarioWorld, context: inout RunContext) {
        let sends = world.host.fcmLog(after: sequence).filter { $0.path.hasSuffix("/messages:send") }
        // Sends that reached Android phones are selectable with `request:` too (after the APNs requests), as the
        // APNs requests FCM made for iOS instances already are.
        for entry in sends where !entry.android.isEmpty {
            var r = record(for: entry, world: world)
            FCMSendRunner.followAndroidHop(entry, world: world, into: &r)
            context.backendRequests.append(r)
        }
        guard let entry = sends.last else { return }
        var record = record(for: entry, world: world)
        FCMSendRunner.followAndroidHop(entry, world: world, into: &record)
        context.lastSend = record
        context.lastSendNote = nil
    }

    /// The FCM log entry as the runner's own `send: { via: fcm }` records it, following its first APNs hop.
    static func record(for entry: FCMLogEntry, world: ScenarioWorld) -> SendRecord {
        let answer = FCMSendResponse(
            ClientResponse(
                status: entry.status, headers: [HTTPField("content-type", "application/json; charset=UTF-8")],
                body: body(of: entry).serializedBytes(), httpVersion: .http2))
        let hop = entry.apns.first
        var record = SendRecord(
            device: world.devices.first?.name ?? "",
            bundleID: world.devices.first.flatMap { world.bundleID(on: $0, nil) } ?? "",
            environment: hop?.environment ?? .sandbox, token: hop?.apnsToken ?? "", apnsID: hop?.apnsID ?? "",
            response: SendResponse(APNsResponse(answer.http)), fcm: FCMAnswer(answer))
        if let hop, let owner = FCMSendRunner.owner(of: hop.apnsToken, world: world) {
            record.device = owner.device
            record.bundleID = owner.bundleID
        }
        return record
    }

    /// The answer body Google sent for the entry: `{"name"}`, or the error with its FcmError detail when it had one
    /// (a decoding error's 400 has none: `FCMLogEntry.fcmErrorDetail`).
    static func body(of e: FCMLogEntry) -> JSONValue {
        if e.status == 200 { return ["name": .string(e.name ?? "")] }
        var error: [String: JSONValue] = ["code": .number(Double(e.status)), "message": .string(e.errorMessage ?? "")]
        if e.fcmErrorDetail, let code = e.errorCode.flatMap(FCMErrorCode.init(rawValue:)) {
            error["status"] = .string(code.http.canonical)
            error["details"] = [
                ["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": .string(code.rawValue)]
            ]
        } else if let canonical = e.errorCode {
            error["status"] = .string(canonical)
        }
        return ["error": .object(error)]
    }
}
