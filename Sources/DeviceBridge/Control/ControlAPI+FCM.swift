import FCMGateway
import Foundation
import HTTPServer
import PushModel
import YAMLSource

/// The control endpoint's `/fcm` routes (config `fcm:`):
///
/// - `GET /fcm/log?limit=N`, `DELETE /fcm/log`: each entry holds the FCM request, the APNs requests it became
///   (headers, payload, APNs status/reason) and the answer.
/// - `GET /fcm/tokens`, `POST /fcm/tokens` (`{"project": "demo-project", "token": …, "apns_token": …, "topic": …}`),
///   `POST /fcm/tokens/{token}/unregister`.
/// - `GET /fcm/topics`: topic → subscribed tokens.
/// - `GET|POST|DELETE /fcm/faults` (`{"error": "UNAVAILABLE", "count": 2, "retry_after": 30, "token": …}`).
extension ControlAPI {
    static let fcmRoutes: [(String, String)] = [
        ("GET", "/fcm/log"), ("DELETE", "/fcm/log"), ("GET", "/fcm/tokens"), ("POST", "/fcm/tokens"),
        ("POST", "/fcm/tokens/{token}/unregister"), ("GET", "/fcm/topics"), ("GET", "/fcm/faults"),
        ("POST", "/fcm/faults"),
        ("DELETE", "/fcm/faults"),
    ]

    func fcmRoute(_ request: HTTPRequest, parts: [String], query: [String: String]) -> HTTPResponse {
        guard let fcm else { return Self.problem(404, "no FCM gateway: add an fcm: section to the serve config") }
        switch (request.method, parts.dropFirst().first ?? "", parts.count) {
        case ("GET", "log", 2):
            if let refusal = Self.unknownParameter(query, known: ["limit"]) { return refusal.response }
            var limit: Int?
            if let l = query["limit"] {
                guard let n = Int(l), n > 0 else { return Self.problem(400, "limit must be a positive number") }
                limit = n
            }
            return Self.json(200, ["entries": .array(host.fcmLog(limit: limit).map(\.json))])
        case ("DELETE", "log", 2):
            fcm.clearLog()
            return Self.empty
        case ("GET", "tokens", 2):
            return Self.json(
                200,
                [
                    "tokens": .array(
                        fcm.registeredTokens.map { .object(Self.fcmTokenJSON($0.token, project: $0.project)) })
                ])
        case ("POST", "tokens", 2):
            return decodeBody(request) { node throws(SourceError) in
                let m = try node.mapping()
                let project = try m.required("project", as: String.self)
                let entry = try FCMGatewayConfiguration.decodeToken(node, alsoAllowing: ["project"])
                guard fcm.registerToken(entry, project: project) else {
                    throw m["project"]!.invalidValue(expected: "a project declared under fcm.projects")
                }
                return Self.json(201, Self.fcmTokenJSON(entry, project: project))
            }
        case ("POST", "tokens", 4) where parts[3] == "unregister":
            let token = parts[2].removingPercentEncoding ?? parts[2]
            guard fcm.unregisterToken(token) else { return Self.problem(404, "FCM token \(token) is not known") }
            return Self.json(200, ["token": .string(token), "status": "unregistered"])
        case ("GET", "topics", 2):
            return Self.json(200, ["topics": .object(fcm.topics.mapValues { .array($0.map(JSONValue.string)) })])
        case ("GET", "faults", 2):
            return Self.json(200, ["faults": .array(fcm.activeFaults.map(Self.fcmFaultJSON))])
        case ("POST", "faults", 2):
            return decodeBody(request) { node throws(SourceError) in
                let id = fcm.addFault(try FCMGatewayConfiguration.decodeFault(node))
                return Self.json(201, ["id": .number(Double(id))])
            }
        case ("DELETE", "faults", 2):
            fcm.clearFaults()
            return Self.empty
        default:
            return Self.problem(
                404,
                "no such control route: \(request.method) /\(parts.joined(separator: "/")); see 'pushcheck serve --help'"
            )
        }
    }

    static func fcmTokenJSON(_ t: FCMRegisteredToken, project: String) -> [String: JSONValue] {
        var json: [String: JSONValue] = [
            "project": .string(project), "token": .string(t.token), "unregistered": .bool(t.unregistered),
        ]
        if let a = t.apnsToken { json["apns_token"] = .string(a.hex) }
        if let b = t.bundleID { json["topic"] = .string(b) }
        if let f = t.fid { json["fid"] = .string(f) }
        // What decides the delivery path (README "Android instances"): an Android app's package, else an iOS
        // instance (`apns_token`), else a web one.
        if let a = t.android {
            json["package_name"] = .string(a.packageName)
            if let id = a.appID { json["app_id"] = .string(id) }
        }
        json["platform"] = .string(FCMPlatform(t).rawValue)
        return json
    }

    static func fcmFaultJSON(_ f: FCMFault) -> JSONValue {
        var json: [String: JSONValue] = ["id": .number(Double(f.id)), "error": .string(f.errorCode.rawValue)]
        if let t = f.token { json["token"] = .string(t) }
        if let r = f.remaining { json["remaining"] = .number(Double(r)) }
        if let r = f.retryAfter { json["retry_after"] = .number(Double(r)) }
        return .object(json)
    }
}
