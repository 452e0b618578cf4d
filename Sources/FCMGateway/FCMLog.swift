import Foundation
import PushModel

/// One APNs request a send became, and APNs' answer.
public struct FCMAPNsHop: Sendable, Equatable {
    public var fcmToken: String
    public var apnsToken: String
    public var environment: APNsEnvironment
    public var headers: [String: String]
    public var payload: JSONValue
    public var status: Int
    public var reason: String?
    public var apnsID: String
}

/// One request to the FCM mock: what came in, what went to APNs, what was answered.
public struct FCMLogEntry: Sendable, Equatable {
    public var sequence: UInt64
    public var receivedAt: Date
    public var method: String
    public var path: String
    public var project: String?
    /// The `messages:send` body (or topic-management body) as JSON, when it parsed.
    public var request: JSONValue?
    public var validateOnly: Bool
    public var status: Int
    public var errorCode: String?
    public var errorMessage: String?
    /// `name` of an accepted message.
    public var name: String?
    public var apns: [FCMAPNsHop]

    /// The control endpoint's JSON form.
    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "sequence": .number(Double(sequence)), "received_at": .string(ISO8601DateFormatter().string(from: receivedAt)),
            "method": .string(method), "path": .string(path), "status": .number(Double(status)),
            "validate_only": .bool(validateOnly),
            "apns": .array(apns.map { hop in
                var h: [String: JSONValue] = [
                    "fcm_token": .string(hop.fcmToken), "token": .string(hop.apnsToken),
                    "endpoint": .string(hop.environment.rawValue), "headers": .object(hop.headers.mapValues(JSONValue.string)),
                    "payload": hop.payload, "status": .number(Double(hop.status)), "apns_id": .string(hop.apnsID),
                ]
                if let r = hop.reason { h["reason"] = .string(r) }
                return .object(h)
            }),
        ]
        if let project { o["project"] = .string(project) }
        if let request { o["request"] = request }
        if let errorCode { o["error_code"] = .string(errorCode) }
        if let errorMessage { o["error_message"] = .string(errorMessage) }
        if let name { o["name"] = .string(name) }
        return .object(o)
    }
}
