import FCMGateway
import Foundation
import PushModel

extension FailureContext {
    /// One FCM request as the console and transcript show it: the request body, FCM's answer and the APNs
    /// request(s) it became (FCM's log entry holds all three).
    package static func describe(_ e: FCMLogEntry) -> String {
        var head = "fcm \(e.method) \(e.path) → \(e.status)"
        if let code = e.errorCode { head += " \(code)" }
        if let message = e.errorMessage { head += ": \(message)" }
        if let name = e.name { head += " name: \(name)" }
        var lines = [head]
        if let request = e.request { lines.append("    request: \(clip(request.serialized(), 400))") }
        if e.validateOnly { lines.append("    (validate_only: nothing sent to APNs)") }
        for hop in e.apns { lines.append(describe(hop, indent: "    ")) }
        return lines.joined(separator: "\n")
    }

    /// An APNs request FCM made: `↳ APNs sandbox POST /3/device/<token> → 200 apns-id …`, headers, payload.
    package static func describe(_ hop: FCMAPNsHop, indent: String) -> String {
        var lines = [
            "\(indent)↳ APNs \(hop.environment.rawValue) POST /3/device/\(hop.apnsToken) → \(hop.status)"
                + (hop.reason.map { " \($0)" } ?? "") + " apns-id: \(hop.apnsID)"
        ]
        for (name, value) in hop.headers.sorted(by: { $0.key < $1.key }) {
            lines.append("\(indent)    \(name): \(value)")
        }
        lines.append("\(indent)    payload: \(clip(hop.payload.serialized(), 400))")
        return lines.joined(separator: "\n")
    }

    /// For an `error_code`/`name` check: what FCM said.
    static func fcmAnswerHint(_ answer: FCMAnswer?) -> String {
        guard let answer else { return " (the last send was not via fcm)" }
        if answer.status == 200 { return "" }
        return
            " (FCM answered \(answer.status) \(answer.errorStatus ?? ""): \(answer.errorMessage ?? answer.body))"
    }
}
