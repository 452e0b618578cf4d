import Foundation
import HTTPServer
import HTTPTypes
import PushModel

/// The gateway's answer to one request, before it is written to a socket.
package struct APNsOutcome: Sendable {
    package var status: Int
    /// The `reason` for errors (an Apple string, or whatever a forced fault says).
    package var reason: String?
    /// `apns-id` echoed or generated (lowercase UUID).
    package var apnsID: String
    /// `apns-unique-id`, sandbox successes only.
    package var apnsUniqueID: String?
    /// For 410: when the token stopped being valid.
    package var timestamp: Date?
    /// Answer this much later (injected latency).
    package var delay: TimeInterval
    /// Connection actions (GOAWAY, drop, SETTINGS).
    package var actions: [ConnectionAction]
    /// The accepted push (success only).
    package var push: DeliveredPush?
    package var auth: APNsAuthKind
    /// `apns-request-id` (broadcast sends only: echoed or generated).
    package var requestID: String? = nil

    /// The Apple reason, when `reason` is one.
    var appleReason: APNsReason? { reason.flatMap(APNsReason.init(rawValue:)) }

    /// The HTTP response APNs would send.
    package var response: HTTPResponse {
        var headers: [HTTPField] = []
        headers.reserveCapacity(3)  // one allocation: a literal of one grew (reallocated) for apns-unique-id
        // Literal lowercase names: no lowercasing scan per answer.
        headers.append(HTTPField(lowercased: "apns-id", apnsID))
        if let apnsUniqueID { headers.append(HTTPField(lowercased: "apns-unique-id", apnsUniqueID)) }
        if let requestID { headers.append(HTTPField(lowercased: "apns-request-id", requestID)) }
        var body: [UInt8] = []
        if let reason {
            headers.append(HTTPField(lowercased: "content-type", "application/json"))
            var o: [String: JSONValue] = ["reason": .string(reason)]
            if let timestamp { o["timestamp"] = .number((timestamp.timeIntervalSince1970 * 1000).rounded(.down)) }
            body = JSONValue.object(o).serializedBytes()
        }
        return HTTPResponse(status: status, headers: headers, body: body, actions: actions)
    }
}
