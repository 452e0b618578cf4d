import Foundation
import HTTPServer
import HTTPTypes
import PushModel

/// One request to the channel-management API (Apple: `api-manage-broadcast.sandbox.push.apple.com:2195`,
/// `api-manage-broadcast.push.apple.com:2196`), free of I/O: the environment whose listener it reached, method,
/// path, headers, body and what the connection proves.
package struct APNsChannelRequest: Sendable {
    package var environment: APNsEnvironment
    /// The HTTP version it came on (`APNsGateway.http2Refusal`).
    package var version: HTTPVersion
    package var method: String
    package var path: String
    package var headers: APNsHeaderFields
    /// The header fields as received, for the log.
    package var loggedHeaders: [HTTPField]
    package var body: [UInt8]
    /// Set when the body passed the listener's limit: the bytes received by then (`body` is empty).
    package var bodyOverLimit: Int?
    package var connection: APNsConnectionFacts

    package init(
        environment: APNsEnvironment, version: HTTPVersion = .http2, method: String, path: String,
        fields: [HTTPField], body: [UInt8] = [], connection: APNsConnectionFacts
    ) {
        self.environment = environment
        self.version = version
        self.method = method
        self.path = path
        self.headers = APNsHeaderFields(fields)
        self.loggedHeaders = fields
        self.body = body
        self.connection = connection
    }

    /// The request a listener received.
    package init(_ request: HTTPRequest, connection: ConnectionContext, environment: APNsEnvironment) {
        self.init(
            environment: environment, version: request.version, method: request.method, path: request.path,
            fields: request.headers,
            body: request.body, connection: APNsConnectionFacts(connection))
        bodyOverLimit = request.bodyOverLimit
    }
}

/// The gateway's answer to one channel-management request, before it is written to a socket.
package struct APNsChannelOutcome: Sendable {
    package var status: Int
    /// The `reason` of an error (an Apple string, or whatever a forced fault says).
    package var reason: String?
    /// `apns-request-id`, echoed or generated: on every answer, success or error [A-CHM].
    package var requestID: String
    /// `apns-channel-id` of a created channel (201).
    var createdChannelID: String?
    /// The JSON body of a read (200) or list (200).
    package var body: JSONValue?
    /// Answer this much later (injected latency).
    package var delay: TimeInterval = 0
    package var actions: [ConnectionAction] = []
    package var auth: APNsAuthKind = .none

    /// The broadcast reason, when `reason` is one.
    package var broadcastReason: APNsBroadcastReason? { reason.flatMap(APNsBroadcastReason.init(rawValue:)) }

    /// The HTTP response APNs would send.
    package var response: HTTPResponse {
        var headers = [HTTPField("apns-request-id", requestID)]
        if let createdChannelID { headers.append(HTTPField("apns-channel-id", createdChannelID)) }
        var bytes: [UInt8] = []
        if let reason {
            headers.append(HTTPField("content-type", "application/json"))
            bytes = JSONValue.object(["reason": .string(reason)]).serializedBytes()
        } else if let body {
            headers.append(HTTPField("content-type", "application/json"))
            bytes = body.serializedBytes()
        }
        return HTTPResponse(status: status, headers: headers, body: bytes, actions: actions)
    }
}
