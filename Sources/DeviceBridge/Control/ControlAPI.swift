import APNsGateway
import FCMGateway
import Foundation
import HTTPServer
import HTTPTypes
import PushModel
import YAMLSource

/// `pushcheck serve`'s control endpoint: plain JSON over HTTP/1.1 (or h2c) on loopback, for scripts
/// and CI steps that need to read the delivery log or change the gateway while it runs.
///
/// Bodies of POST requests are parsed by the same decoder as the config file's entries, so a fault
/// or token is written the same way in both places, and a mistake comes back as 400 with
/// `{"error": …, "line": …, "column": …}`.
package struct ControlAPI: HTTPHandler {
    /// The world the routes read and change.
    package let host: WorldHost
    var apns: APNsGateway { host.apns }
    /// The simulated devices hosted behind `gateway` (config `devices:`), served under `/devices`.
    var fleet: DeviceFleet? { host.fleet }
    /// Fetches pages for the devices' `load_page` / `follow_link` actions.
    var web: DeviceWebView? { host.web }
    /// The mock FCM service, served under `/fcm` (config `fcm:`).
    var fcm: FCMGateway? { host.fcm }
    /// `serve`'s switchable push recording (`/apns/recording`).
    var recording: RecordingSwitch? { host.recording }
    var startedAt: Date { host.startedAt }

    package init(host: WorldHost) { self.host = host }

    /// Bodies past the listener's 1 MiB limit come to `handle` (the transport would answer a bare 413): they get
    /// 413 with the same `{"error": …}` body as every other control refusal.
    package var answersOversizedRequests: Bool { true }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        if let received = request.bodyOverLimit {
            // The body was not kept, so nothing may route it: a POST with an empty body would act on defaults.
            responder.respond(
                Self.problem(
                    413, "request body is over the control endpoint's 1 MiB limit (\(received) bytes received)",
                    extra: ["help": "send control bodies under 1 MiB (they are small JSON objects)"]))
            return
        }
        if Self.isConsolePath(request.path),
            let refusal = Self.consoleRefusal(request, remoteAddress: context.remoteAddress)
        {
            responder.respond(refusal)
            return
        }
        if let pending = webAction(request) ?? pendingEventsPoll(request) ?? consoleAsync(request) {
            // A page fetch takes a while: answer from a task, never block the loop.
            Task { responder.respond(await pending()) }
            return
        }
        if request.method == "GET" && ["/apns/log", "/apns/deliveries"].contains(Self.split(request.path).0) {
            // Unpacking and serializing up to a page of log entries (or the delivery history) is real work:
            // never on an event loop, where it would hold up every push on that loop.
            Self.logQueue.async { responder.respond(route(request)) }
            return
        }
        responder.respond(route(request))
    }

    /// Log and history reads, one at a time (a burst of them queues here rather than filling every core).
    static let logQueue = DispatchQueue(label: "pushcheck.control.log")

    /// The routing table, free of I/O (tests call it directly as well as over sockets).
    package func route(_ request: HTTPRequest) -> HTTPResponse {
        let (path, query) = Self.split(request.path)
        let parts = path.split(separator: "/").map(String.init)
        let param = parts.count >= 3 ? parts[2] : ""
        if parts.first == "devices" { return deviceRoute(request, parts: parts, query: query) }
        if parts.first == "fcm" { return fcmRoute(request, parts: parts, query: query) }
        if parts.first == "ui" { return consoleRoute(request, parts: parts) }
        if parts == ["apns", "recording"] { return recordingRoute(request) }
        if parts == ["apns", "channels"] { return channelsRoute(request) }
        switch (request.method, Self.shape(parts)) {
        case ("GET", "/health"):
            return Self.json(
                200, ["status": "ok", "uptime_seconds": .number(Date().timeIntervalSince(startedAt).rounded())])
        case ("POST", "/reset"):
            host.reset()  // gateways as configured; devices back as at start, their launch tokens registered again
            return Self.json(200, ["status": "reset"])
        case ("GET", "/apns/log"):
            return logEntries(query)
        case ("DELETE", "/apns/log"):
            apns.clearLog()
            return Self.empty
        case ("GET", "/apns/tokens"):
            return Self.json(200, ["tokens": .array(apns.registeredTokens.map { .object(tokenJSON($0)) })])
        case ("POST", "/apns/tokens"):
            return decodeBody(request) { node throws(SourceError) in
                let entry = try APNsGatewayConfiguration.decodeToken(node)
                apns.registerToken(entry)
                return Self.json(201, tokenJSON(entry))
            }
        case ("DELETE", "/apns/tokens/{token}"):
            guard let token = DeviceToken(hex: param) else {
                return Self.problem(400, "'\(param)' is not a hex device token")
            }
            apns.removeToken(token)
            return Self.empty
        case ("POST", "/apns/tokens/{token}/unregister"):
            guard let token = DeviceToken(hex: param) else {
                return Self.problem(400, "'\(param)' is not a hex device token")
            }
            let unregister = { (at: Date?) -> HTTPResponse in
                guard apns.unregisterToken(token, at: at) else {
                    return Self.problem(404, "token \(param) is not registered")
                }
                return Self.json(200, ["token": .string(param), "status": "unregistered"])
            }
            // No body: now. A body must be `{"at_ms": <milliseconds since 1970>}`, checked like every control POST.
            if request.body.isEmpty { return unregister(nil) }
            return decodeBody(request) { node throws(SourceError) in
                let body = try node.mapping(allowedKeys: ["at_ms"])
                return unregister(
                    try body.optional("at_ms", as: Double.self).map { Date(timeIntervalSince1970: $0 / 1000) })
            }
        case ("POST", "/apns/tokens/{token}/online"), ("POST", "/apns/tokens/{token}/offline"):
            guard let token = DeviceToken(hex: param) else {
                return Self.problem(400, "'\(param)' is not a hex device token")
            }
            host.setReachable(token, path.hasSuffix("/online"))
            return Self.json(200, ["token": .string(param), "online": .bool(path.hasSuffix("/online"))])
        case ("GET", "/apns/tokens/{token}/stored"):
            guard let token = DeviceToken(hex: param) else {
                return Self.problem(400, "'\(param)' is not a hex device token")
            }
            return Self.json(200, ["stored": .array(host.storedPushes(for: token).map { .object(Self.pushJSON($0)) })])
        case ("GET", "/apns/deliveries"):
            return deliveryEvents(query)
        case ("GET", "/apns/faults"):
            return Self.json(200, ["faults": .array(apns.activeFaults.map(Self.faultJSON))])
        case ("POST", "/apns/faults"):
            return decodeBody(request) { node throws(SourceError) in
                let id = apns.addFault(try APNsGatewayConfiguration.decodeFault(node))
                return Self.json(201, ["id": .number(Double(id))])
            }
        case ("DELETE", "/apns/faults"):
            apns.clearFaults()
            return Self.empty
        case ("DELETE", "/apns/faults/{id}"):
            guard let n = Int(param) else { return Self.problem(400, "fault id must be a number") }
            apns.removeFault(id: n)
            return Self.empty
        default:
            let known = Self.routes.contains { $0.1 == Self.shape(parts) }

            return known
                ? Self.problem(405, "\(request.method) is not allowed on \(path)")
                : Self.problem(404, "no such control route: \(request.method) \(path); see 'pushcheck serve --help'")
        }
    }

    /// Documented in `pushcheck serve --help` and the README.
    static let routes: [(String, String)] =
        [
            ("GET", "/health"), ("POST", "/reset"),
            ("GET", "/apns/log"), ("DELETE", "/apns/log"),
            ("GET", "/apns/tokens"), ("POST", "/apns/tokens"), ("DELETE", "/apns/tokens/{token}"),
            ("POST", "/apns/tokens/{token}/unregister"), ("POST", "/apns/tokens/{token}/online"),
            ("POST", "/apns/tokens/{token}/offline"), ("GET", "/apns/tokens/{token}/stored"),
            ("GET", "/apns/deliveries"),
            ("GET", "/apns/faults"), ("POST", "/apns/faults"), ("DELETE", "/apns/faults"),
            ("DELETE", "/apns/faults/{id}"), ("GET", "/apns/channels"), ("POST", "/apns/channels"),
        ] + deviceRoutes + fcmRoutes + consoleRoutes

    private static func shape(_ parts: [String]) -> String {
        var out = parts
        if out.count >= 3, out[0] == "apns", out[1] == "tokens" { out[2] = "{token}" }
        if out.count == 3, out[0] == "apns", out[1] == "faults" { out[2] = "{id}" }
        return "/" + out.joined(separator: "/")
    }

    // MARK: - Encoding

    private func tokenJSON(_ entry: RegisteredDeviceToken) -> [String: JSONValue] {
        var json: [String: JSONValue] = [
            "token": .string(entry.token.hex), "topic": .string(entry.topic),
            "environment": .string(entry.environment.rawValue), "online": .bool(host.isReachable(entry.token)),
        ]
        if let at = entry.unregisteredAt { json["unregistered_at"] = Self.time(at) }
        if let at = entry.expiresAt { json["expires_at"] = Self.time(at) }
        return json
    }

    static func pushJSON(_ push: DeliveredPush) -> [String: JSONValue] {
        var json: [String: JSONValue] = [
            "environment": .string(push.environment.rawValue), "token": .string(push.token.hex),
            "topic": .string(push.topic), "push_type": .string(push.pushType.rawValue),
            "priority": .number(Double(push.priority.rawValue)), "apns_id": .string(push.apnsID),
            "payload": push.json, "received_at": time(push.receivedAt),
        ]
        if let id = push.apnsUniqueID { json["apns_unique_id"] = .string(id) }
        if let id = push.collapseID { json["collapse_id"] = .string(id) }
        if let at = push.expiration { json["expiration"] = time(at) }
        if let id = push.channelID { json["channel_id"] = .string(id) }
        return json
    }

    static func faultJSON(_ fault: APNsFault) -> JSONValue {
        var json: [String: JSONValue] = ["id": .number(Double(fault.id)), "seen": .number(Double(fault.seen))]
        switch fault.action {
        case .delay(let seconds): json["delay_ms"] = .number((seconds * 1000).rounded())
        case .respond(let status, let reason):
            json["respond"] = .number(Double(status)); json["reason"] = .string(reason)
        case .goAway(let reason, let after):
            json["goaway"] = .string(reason); json["after_requests"] = .number(Double(after))
        case .dropConnection: json["drop"] = .bool(true)
        }
        if let route = fault.scope.route { json["route"] = .string(route.rawValue) }
        if let e = fault.scope.endpoint { json["endpoint"] = .string(e.rawValue) }
        if let t = fault.scope.token { json["token"] = .string(t.hex) }
        if let r = fault.remaining { json["remaining"] = .number(Double(r)) }
        return .object(json)
    }

    static func time(_ date: Date) -> JSONValue { .number((date.timeIntervalSince1970 * 1000).rounded()) }

    static func json(_ status: Int, _ object: [String: JSONValue]) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPField("content-type", "application/json")],
            body: JSONValue.object(object).serializedBytes() + [0x0A])
    }

    static func problem(_ status: Int, _ message: String, extra: [String: JSONValue] = [:]) -> HTTPResponse {
        json(status, ["error": .string(message)].merging(extra) { a, _ in a })
    }

    static let empty = HTTPResponse(status: 204)

    func decodeBody(_ request: HTTPRequest, _ body: (YAMLNode) throws(SourceError) -> HTTPResponse) -> HTTPResponse {
        guard let text = String(bytes: request.body, encoding: .utf8), !text.isEmpty else {
            return Self.problem(400, "expected a JSON object in the request body")
        }
        do {
            return try body(try YAMLLoader.load(string: text, file: "request body"))
        } catch {
            return Self.problem(400, error.message, extra: Self.position(error))
        }
    }

    /// Where a body's mistake is and how to fix it: `line`, `column`, `expected`, `help`.
    static func position(_ error: SourceError) -> [String: JSONValue] {
        var extra: [String: JSONValue] = ["line": .number(Double(error.line)), "column": .number(Double(error.column))]
        if let expected = error.expected { extra["expected"] = .string(expected) }
        if let suggestion = error.suggestion { extra["help"] = .string(suggestion) }
        return extra
    }

    static func parseObject(_ body: [UInt8]) -> [String: JSONValue]? {
        guard !body.isEmpty else { return nil }
        return (try? JSONValue.parse(body))?.objectValue
    }

    static func split(_ target: String) -> (String, [String: String]) {
        guard let q = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for item in target[target.index(after: q)...].split(separator: "&") {
            let kv = item.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            query[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        return (String(target[..<q]), query)
    }
}
