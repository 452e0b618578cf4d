import HTTPTypes
import APNsGateway
import Foundation
import HTTPServer
import PushModel
import Synchronization
import WebUI

/// `serve`'s web console on the control endpoint: `GET /ui` is the page (drawn by `WebUI`); it reads the existing
/// routes (`/apns/log`, `/fcm/log`, `/devices…`) and acts through them (`POST /devices/{name}/actions`), plus:
///
/// - `GET /ui/api/changes?since=VERSION&wait=25s`: a long poll that answers once the delivery log, the FCM log
///   or a device's events moved past `since` (or the wait ran out) with `{"version": …, "apns_last": …,
///   "fcm_last": …, "devices": {name: last_seq}}`; the page then reads what is new. No reload, no sleep loop in the
///   page.
/// - `POST /ui/api/check`: the send form checked by the gateway's own request rules, nothing sent.
/// - `POST /ui/api/send`: the form sent to the gateway over TLS/HTTP2 (`ConsoleSender`).
///
/// Loopback only, whatever `--host` says: a request from another address is a 403, and so is one whose `Host`
/// is not a loopback name (a page elsewhere resolving its own name to 127.0.0.1 must not drive the console) or a
/// POST from another origin.
extension ControlAPI {
    static let consoleRoutes: [(String, String)] = [
        ("GET", "/ui"), ("GET", "/ui/api/changes"), ("POST", "/ui/api/check"), ("POST", "/ui/api/send"),
    ]

    static func isConsolePath(_ target: String) -> Bool {
        let path = split(target).0
        return path == "/ui" || path == "/ui/" || path.hasPrefix("/ui/")
    }

    /// Why a console request is refused (nil: it may go on).
    static func consoleRefusal(_ request: HTTPRequest, remoteAddress: String) -> HTTPResponse? {
        let peer = remoteAddress.lastIndex(of: ":").map { String(remoteAddress[..<$0]) } ?? remoteAddress
        guard isLoopback(peer) else {
            return problem(403, "the console answers loopback clients only (this request came from \(peer))")
        }
        let authority = request.authority ?? request.value("host") ?? ""
        guard isLoopback(hostName(authority)) else {
            return problem(403, "the console answers only Host 127.0.0.1, [::1] or localhost (got '\(authority)')")
        }
        if request.method == "POST" {
            if let origin = request.value("origin"), origin != "http://" + authority {
                return problem(403, "the console refuses POSTs from another origin (\(origin))")
            }
            guard request.value("content-type")?.lowercased().hasPrefix("application/json") == true else {
                return problem(415, "console POSTs are JSON: send content-type: application/json")
            }
        }
        return nil
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") || host.hasPrefix("::ffff:127.")
    }

    /// The host of an authority (`127.0.0.1:8080`, `[::1]:8080`, `localhost`).
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end])
        }
        return authority.split(separator: ":", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
    }

    /// The console's answers that need no waiting: the page, the form check, and 404/405 under `/ui`.
    func consoleRoute(_ request: HTTPRequest, parts: [String]) -> HTTPResponse {
        let shape = "/" + parts.joined(separator: "/")
        switch (request.method, shape) {
        case ("GET", "/ui"):
            let page = WebUI.document(
                .console, title: "pushcheck console", dataJSON: WebUI.embeddable(consoleFacts.serialized()))
            return HTTPResponse(
                status: 200,
                headers: [
                    HTTPField("content-type", "text/html; charset=utf-8"),
                    HTTPField("content-security-policy", WebUI.contentSecurityPolicy(.console)),
                    HTTPField("x-content-type-options", "nosniff"), HTTPField("cache-control", "no-store"),
                    HTTPField("x-frame-options", "DENY"),
                ], body: Array(page.utf8))
        case ("POST", "/ui/api/check"):
            switch ConsoleSendForm.decode(request.body) {
            case .failure(let e): return Self.problem(400, e.message)
            case .success(.apns(let form)):
                return Self.json(200, form.check(registered: apns.registeredTokens).objectValue ?? [:])
            case .success(.fcm(let form)):
                guard let fcm else {
                    return Self.problem(409, "this serve has no FCM service: declare fcm: in the config")
                }
                return Self.json(200, form.check(fcm).objectValue ?? [:])
            }
        default:
            let known = Self.consoleRoutes.contains { $0.1 == shape }
            return known
                ? Self.problem(405, "\(request.method) is not allowed on \(shape)")
                : Self.problem(404, "no such console route: \(request.method) \(shape); the console is at /ui")
        }
    }

    /// The console's answers that take time: the long poll and the send (nil for every other request).
    func consoleAsync(_ request: HTTPRequest) -> (@Sendable () async -> HTTPResponse)? {
        let (path, query) = Self.split(request.path)
        let host = self.host
        switch (request.method, path) {
        case ("GET", "/ui/api/changes"):
            let since = query["since"] ?? ""
            let wait = min(max(Double((query["wait"] ?? "25").replacingOccurrences(of: "s", with: "")) ?? 25, 0), 55)
            return {
                let deadline = ContinuousClock.now + .milliseconds(Int(wait * 1000))
                var now = ConsoleChanges(host)
                while now.version == since, ContinuousClock.now < deadline, !Task.isCancelled {
                    // serve is stopping: a held poll kept the console saying "live" for the grace period.
                    if host.stopping.load(ordering: .relaxed) { return Self.problem(503, "serve is stopping") }
                    try? await Task.sleep(for: .milliseconds(100))
                    now = ConsoleChanges(host)
                }
                return Self.json(200, now.json.objectValue ?? [:])
            }
        case ("POST", "/ui/api/send"):
            let decoded = ConsoleSendForm.decode(request.body)
            return {
                switch decoded {
                case .failure(let e): return Self.problem(400, e.message)
                case .success(.apns(let form)): return await ConsoleSender.send(form, host: host)
                case .success(.fcm(let form)): return await ConsoleSender.send(form, host: host)
                }
            }
        default:
            return nil
        }
    }

    /// What the page needs to draw its form: the declared apps (bundle id, team), the listeners, push types.
    var consoleFacts: JSONValue {
        let listeners = host.running.withLock { $0.bound.map(\.name) }
        return [
            "apps": .array(
                host.declaration.apps.map { app in
                    [
                        "bundle_id": .string(app.bundleID), "team_id": .string(app.signing.teamID),
                        "tabs": .array(app.navigation.tabs.map(JSONValue.string)),
                        "categories": .object(
                            Dictionary(
                                app.categories.map { c in
                                    (
                                        c.id,
                                        JSONValue.array(
                                            c.actions.map { ["id": .string($0.id), "title": .string($0.title)] })
                                    )
                                }, uniquingKeysWith: { a, _ in a })),
                    ]
                }),
            "endpoints": .array(["sandbox", "production"].filter(listeners.contains).map(JSONValue.string)),
            "fcm": .bool(fcm != nil),
            // FCM sends: the configured projects, and the project each Firebase app (iOS or Android) belongs to.
            "fcm_projects": .array((fcm?.configuration.projects ?? []).map { .string($0.id) }),
            "fcm_apps": .object(
                Dictionary(
                    host.declaration.apps.compactMap { a in
                        a.firebase.map { (a.bundleID, JSONValue.string($0.projectID)) }
                    }
                        + host.declaration.androidApps.compactMap { a in
                            a.firebase.map { (a.packageName, JSONValue.string($0.projectID)) }
                        }, uniquingKeysWith: { a, _ in a })),
            "push_types": .array(APNsPushType.allCases.map { .string($0.rawValue) }),
            // A per-purpose token's kind → the topic suffix of the push type it takes (the target picker fills both).
            "topic_suffixes": .object(
                Dictionary(
                    uniqueKeysWithValues: PushTokenKind.allCases.compactMap { kind in
                        APNsPushType(rawValue: kind.rawValue).map { (kind.rawValue, JSONValue.string($0.topicSuffix)) }
                    })),
        ]
    }
}

/// Where the console's sources stand: the newest delivery-log and FCM-log sequence and each device's last event.
struct ConsoleChanges {
    var apnsLast: UInt64
    var fcmLast: UInt64
    var devices: [(String, Int)]

    init(_ host: WorldHost) {
        apnsLast = host.gatewayLogPage(limit: 1).entries.last?.sequence ?? 0
        fcmLast = host.fcmLog(limit: 1).last?.sequence ?? 0
        devices = host.fleet.devices.map { ($0.name, $0.lastEventSequence) }
    }

    /// Changes whenever any source does (a cleared log or a reset device changes it too).
    var version: String {
        "a\(apnsLast).f\(fcmLast)" + devices.map { ".\($0.1)" }.joined()
    }

    var json: JSONValue {
        [
            "version": .string(version), "apns_last": .number(Double(apnsLast)), "fcm_last": .number(Double(fcmLast)),
            "devices": .object(Dictionary(devices.map { ($0.0, JSONValue.number(Double($0.1))) }) { a, _ in a }),
        ]
    }
}
