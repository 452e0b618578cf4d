import DeviceSimulator
import Foundation
import HTTPServer
import PushModel
import YAMLSource

/// The control endpoint's `/devices` routes: the simulated devices `serve` hosts (config `devices:`).
///
/// - `GET /devices`: every device with its platform, udid (Android: serial), online state and tokens (and
///   `fcm_tokens` for Firebase apps: an Android phone's apps have only these).
/// - `GET /devices/{name}`: the snapshot (apps: state, authorization, token, badge, navigation;
///   notification center; `last_seq`).
/// - `GET /devices/{name}/events?since=SEQ&wait=5s&type=a,b`: the ordered event log after `SEQ` (default 0 =
///   all), optionally only some types, optionally held until one exists (`DeviceEventsQuery`).
/// - `POST /devices/{name}/reset`: the device back to its launch state (apps, tokens, events as at start).
/// - `POST /devices/{name}/actions`: one action (or a list, applied in order) in the shape of a suite
///   step's device action, e.g. `{"tap": "latest"}`, `{"launch": "com.example.app"}`,
///   `{"action": "open", "on": "n1"}`, `{"online": false}`; answers with the events it caused.
///
/// `{name}` is the declared name, percent-encoded in the path when it has spaces.
extension ControlAPI {
    static let deviceRoutes: [(String, String)] = [
        ("GET", "/devices"), ("GET", "/devices/{name}"), ("GET", "/devices/{name}/events"),
        ("POST", "/devices/{name}/actions"), ("POST", "/devices/{name}/reset"),
    ]

    /// Answers a request under `/devices`; `parts` are the path's segments (still percent-encoded).
    func deviceRoute(_ request: HTTPRequest, parts: [String], query: [String: String]) -> HTTPResponse {
        let devices = fleet?.devices ?? []
        if parts.count == 1 {
            guard request.method == "GET" else {
                return Self.problem(405, "\(request.method) is not allowed on /devices")
            }
            return Self.json(200, ["devices": .array(devices.map(Self.summaryJSON))])
        }
        let name = parts[1].removingPercentEncoding ?? parts[1]
        let shape = "/devices/{name}" + (parts.count > 2 ? "/" + parts[2...].joined(separator: "/") : "")
        guard Self.deviceRoutes.contains(where: { $0.1 == shape }) else {
            return Self.problem(
                404, "no such control route: \(request.method) \(request.path); see 'pushcheck serve --help'")
        }
        guard Self.deviceRoutes.contains(where: { $0 == (request.method, shape) }) else {
            return Self.problem(405, "\(request.method) is not allowed on \(shape)")
        }
        guard let device = fleet?.device(named: name) else {
            let known = devices.map { "'\($0.name)'" }.joined(separator: ", ")
            return Self.problem(
                404,
                "no device named '\(name)'; declared: \(known.isEmpty ? "none (add devices: to the config)" : known)")
        }
        switch shape {
        case "/devices/{name}":
            return Self.json(200, device.snapshotJSON.objectValue ?? [:])
        case "/devices/{name}/events":
            switch DeviceEventsQuery.parse(query) {
            case .failure(let e): return Self.problem(400, e.message)
            case .success(let q): return Self.json(200, q.answer(device).objectValue ?? [:])
            }
        case "/devices/{name}/reset":
            device.resetToLaunchState()
            return Self.json(200, ["status": "reset", "device": Self.summaryJSON(device)])
        default:
            return applyActions(request, to: device)
        }
    }

    private func applyActions(_ request: HTTPRequest, to device: HostedDevice) -> HTTPResponse {
        decodeBody(request) { node throws(SourceError) in
            let nodes = node.items ?? [node]
            var actions: [DeviceAction] = []
            for n in nodes { actions.append(try DeviceAction.decode(try YAMLMapping(n))) }
            let before = device.lastEventSequence
            for (i, action) in actions.enumerated() {
                func refuse(_ message: String) -> HTTPResponse {
                    var extra: [String: JSONValue] = ["events": device.eventsJSON(since: before)["events"] ?? []]
                    if nodes.count > 1 { extra["index"] = .number(Double(i)) }
                    return Self.problem(422, message, extra: extra)
                }
                let from = device.lastEventSequence
                do throws(DeviceActionError) {
                    try device.apply(action)
                } catch {
                    return refuse(error.description)
                }
                // `Activity.request` throws in the app: a start that failed is the caller's error too.
                if case .startActivity = action,
                    let failed = device.eventsJSON(since: from)["events"]?.arrayValue?.first(where: {
                        $0["type"] == "activity-request-failed"
                    })
                {
                    return refuse("Activity.request failed: \(failed["reason"]?.stringValue ?? "")")
                }
            }
            return Self.json(200, device.eventsJSON(since: before).objectValue ?? [:])
        }
    }

    static func summaryJSON(_ d: HostedDevice) -> JSONValue {
        var tokens: [String: JSONValue] = [:]
        for (id, t) in d.tokens { tokens[id] = .string(t.hex) }
        var o: [String: JSONValue] = [
            "name": .string(d.name), "platform": .string(d.platform.rawValue),
            "udid": .string(d.declaration?.udid ?? ""), "online": .bool(d.isOnline),
            "tokens": .object(tokens), "last_seq": .number(Double(d.lastEventSequence)),
        ]
        // Apps using Firebase: their FCM registration tokens, as in the ready line.
        let fcm = d.fcmTokens
        if !fcm.isEmpty { o["fcm_tokens"] = .object(fcm.mapValues(JSONValue.string)) }
        if let push = d.pushTokensJSON { o["push_tokens"] = push }
        o.merge(d.liveActivityAddresses) { a, _ in a }
        return .object(o)
    }
}
