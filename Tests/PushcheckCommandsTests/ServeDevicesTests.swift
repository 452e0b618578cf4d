import Foundation
@testable import HTTPClient
import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `pushcheck serve` hosting simulated devices: config `apps:`/`devices:` → tokens in the ready line →
/// a real HTTP/2 push with curl → the device's event log and navigation over the control endpoint.
@Suite(.serialized) struct ServeDevicesTests {
    static let team = "ABCDE12345", kid = "KEY1234567", bundleID = "com.example.app", device = "Test iPhone"
    static let devicePath = "Test%20iPhone"

    struct Fixture {
        let dir: TempDirectory
        let key: P256PrivateKey
        let configPath: String

        init() throws {
            dir = try TempDirectory("serve-devices")
            key = try P256PrivateKey.generate()
            try dir.write("AuthKey_\(ServeDevicesTests.kid).p8", key.pkcs8PEM)
            configPath = try dir.write(
                "serve.yaml",
                """
                apns:
                  keys:
                    - { team_id: \(ServeDevicesTests.team), key_id: \(ServeDevicesTests.kid), private_key: AuthKey_\(ServeDevicesTests.kid).p8 }
                apps:
                  - bundle_id: \(ServeDevicesTests.bundleID)
                    team_id: \(ServeDevicesTests.team)
                    aps_environment: development
                    background_modes: [remote-notification]
                    profile: { devices: [00008110-000A1C2E0E12801E], expires: 2099-01-01T00:00:00Z }
                    authorization: authorized
                    delegate: { will_present: [banner, list, sound] }
                    navigation:
                      tabs: [Home, Orders]
                      screens: [{ id: order }, { id: article }]
                      routes:
                        - { name: article, on: [tap], when_key: url, push: [article], open_url_from: url }
                        - name: order
                          on: [tap]
                          require: { order_id: string }
                          tab: 1
                          push: [{ screen: order, title_from: aps.alert.title }]
                devices:
                  - name: \(ServeDevicesTests.device)
                    udid: 00008110-000A1C2E0E12801E
                    seed: 7
                    apps: [\(ServeDevicesTests.bundleID)]
                """)
        }

        func jwt() throws -> String {
            try JWT.apnsProviderToken(
                teamID: ServeDevicesTests.team, keyID: ServeDevicesTests.kid,
                issuedAt: Int(Date().timeIntervalSince1970), key: key)
        }

        /// POSTs `payload` to the device token with curl over TLS HTTP/2; returns the status line and body.
        func push(_ sandbox: String, token: String, _ payload: String) throws -> ToolOutput {
            try runTool(
                "curl",
                [
                    "-s", "-i", "--http2", "--max-time", "10", "--cacert", dir.file("ca.pem"),
                    "-H", "authorization: bearer \(try jwt())", "-H", "apns-topic: \(ServeDevicesTests.bundleID)",
                    "-H", "apns-push-type: alert", "-d", payload, "\(sandbox)/3/device/\(token)",
                ])
        }
    }

    static func get(_ url: String) throws -> JSONValue {
        let out = try runTool("curl", ["-s", "--max-time", "10", url])
        return try JSONValue.parse(Array(out.stdout.utf8))
    }

    static func post(_ url: String, _ body: String) throws -> (status: Int, json: JSONValue) {
        let out = try runTool("curl", ["-s", "--max-time", "10", "-w", "\n%{http_code}", "-XPOST", url, "-d", body])
        let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let json = (try? JSONValue.parse(Array(lines.dropLast().joined(separator: "\n").utf8))) ?? .null
        return (status, json)
    }

    /// `type` (or `callback:<name>`, `navigation:<text>`) of each event in a `/events` answer.
    static func kinds(_ events: JSONValue?) -> [String] {
        (events?.arrayValue ?? []).map { e in
            let type = e["type"]?.stringValue ?? "?"
            if let c = e["callback"]?.stringValue { return "callback:\(c)" }
            if let n = e["navigation"]?.stringValue { return "navigation:\(n)" }
            return type
        }
    }

    /// `serve` started in-process from a fresh `Fixture`'s config; `stop()` shuts it down and removes the files.
    struct Served {
        let fixture: Fixture
        let running: RunningGateway
        let control: String
        let sandbox: String
        var actions: String { "\(control)/devices/\(ServeDevicesTests.devicePath)/actions" }

        init(loops: Int = 1) throws {
            fixture = try Fixture()
            running = try RunningGateway.start(
                try ServeConfiguration.load(path: fixture.configPath), loops: loops, caOut: fixture.dir.file("ca.pem"))
            control = try #require(running.url("control"))
            sandbox = try #require(running.url("sandbox"))
        }

        func stop() {
            running.host.shutdown(grace: .seconds(1))
            running.web.shutdown()
            fixture.dir.remove()
        }
    }

    @Test func pushToHostedDeviceThenTapNavigates() throws {
        let served = try Served(loops: 2)
        defer { served.stop() }
        let (fixture, running, control, sandbox) = (served.fixture, served.running, served.control, served.sandbox)

        // The ready line names the device and its token for the app.
        let ready = try JSONValue.parse(Array(running.readyLine.utf8))
        let token = try #require(ready["devices"]?[Self.device]?["tokens"]?[Self.bundleID]?.stringValue)
        #expect(ready["devices"]?[Self.device]?["udid"]?.stringValue == "00008110-000A1C2E0E12801E")
        #expect(DeviceToken(hex: token) != nil)
        let listed = try Self.get("\(control)/devices")
        #expect(listed["devices"]?.arrayValue?.first?["tokens"]?[Self.bundleID]?.stringValue == token)

        // Foreground app: the push reaches willPresent, then Notification Center.
        let launched = try Self.post("\(control)/devices/\(Self.devicePath)/actions", #"{"launch": "com.example.app"}"#)
        #expect(launched.status == 200, "\(launched)")
        let mark = try #require(launched.json["last_seq"]?.intValue)
        let pushed = try fixture.push(
            sandbox, token: token, #"{"aps":{"alert":{"title":"Order 42","body":"Shipped"}},"order_id":"42"}"#)
        #expect(pushed.stdout.hasPrefix("HTTP/2 200"), "\(pushed)")
        let after = try Self.get("\(control)/devices/\(Self.devicePath)/events?since=\(mark)")
        let kinds = Self.kinds(after["events"])
        #expect(kinds.contains("push-received") && kinds.contains("callback:willPresent"), "\(after)")
        #expect(kinds.contains("notification-presented"), "\(kinds)")
        let willPresent = after["events"]?.arrayValue?.first { $0["callback"]?.stringValue == "willPresent" }
        #expect(willPresent?["user_info"]?["order_id"]?.stringValue == "42", "userInfo carries the custom key")

        // Tap it: didReceive response, then the route selects the Orders tab and pushes the order screen.
        let tapped = try Self.post("\(control)/devices/\(Self.devicePath)/actions", #"{"tap": "latest"}"#)
        #expect(tapped.status == 200, "\(tapped)")
        let tapKinds = Self.kinds(tapped.json["events"])
        #expect(tapKinds.contains("callback:didReceiveResponse"), "\(tapKinds)")
        #expect(tapKinds.contains { $0.hasPrefix("navigation:routed order") }, "\(tapKinds)")
        let snapshot = try Self.get("\(control)/devices/\(Self.devicePath)")
        let nav = snapshot["apps"]?[Self.bundleID]?["navigation"]
        #expect(nav?["tab_title"]?.stringValue == "Orders", "\(snapshot)")
        #expect(nav?["stack"]?.arrayValue?.last?["title"]?.stringValue == "Order 42", "\(snapshot)")
        #expect(snapshot["apps"]?[Self.bundleID]?["state"]?.stringValue == "foreground")

        // Back pops the screen.
        let back = try Self.post("\(control)/devices/\(Self.devicePath)/actions", #"{"back": true}"#)
        #expect(Self.kinds(back.json["events"]).contains("navigation:pop order"), "\(back)")
        // The edge swipe is an action too (same decoder as a suite's `swipe_back`); at the root it does nothing.
        let swipe = try Self.post("\(control)/devices/\(Self.devicePath)/actions", #"{"swipe_back": true}"#)
        #expect(swipe.status == 200, "\(swipe)")
        #expect(
            Self.kinds(swipe.json["events"]).contains("navigation:back ignored: already at the root of the tab"),
            "\(swipe)")
    }

    @Test func offlineStoresUninstallUnregistersAndResetKeepsDevices() throws {
        let served = try Served()
        defer { served.stop() }
        let (fixture, running, control, sandbox) = (served.fixture, served.running, served.control, served.sandbox)
        let token = try #require(running.fleet.devices.first?.tokens[Self.bundleID]?.hex)
        let actions = served.actions

        // POST /reset returns the gateway to its config; the hosted device's token stays registered.
        _ = try runTool("curl", ["-s", "-XPOST", "\(control)/reset"])
        #expect(
            try fixture.push(sandbox, token: token, #"{"aps":{"alert":"after reset"}}"#).stdout.hasPrefix("HTTP/2 200"))

        // Offline: the gateway keeps the push; back online, the device gets it.
        #expect(try Self.post(actions, #"{"online": false}"#).status == 200)
        #expect(
            try fixture.push(sandbox, token: token, #"{"aps":{"alert":{"title":"Kept"}}}"#).stdout.hasPrefix(
                "HTTP/2 200"))
        let stored = try Self.get("\(control)/apns/tokens/\(token)/stored")
        #expect(stored["stored"]?.arrayValue?.count == 1, "\(stored)")
        let online = try Self.post(actions, #"{"online": true}"#)
        #expect(Self.kinds(online.json["events"]).contains("push-received"), "stored push handed over: \(online)")
        let center = try Self.get("\(control)/devices/\(Self.devicePath)")["notification_center"]?.arrayValue ?? []
        #expect(center.contains { $0["title"]?.stringValue == "Kept" })

        // Uninstall: the next push is 410 Unregistered.
        #expect(try Self.post(actions, #"{"uninstall": "com.example.app"}"#).status == 200)
        let gone = try fixture.push(sandbox, token: token, #"{"aps":{"alert":"x"}}"#)
        #expect(gone.stdout.hasPrefix("HTTP/2 410") && gone.stdout.contains(#""reason":"Unregistered""#), "\(gone)")
    }

    @Test func badActionsAndUnknownDevicesAreExplained() throws {
        let served = try Served()
        defer { served.stop() }
        let (control, actions) = (served.control, served.actions)

        let typo = try Self.post(actions, #"{"tapp": "latest"}"#)
        #expect(typo.status == 400, "\(typo)")
        #expect(typo.json["line"]?.intValue == 1 && typo.json["column"]?.intValue == 2, "\(typo)")
        #expect(typo.json["help"]?.stringValue == "did you mean 'tap'?", "\(typo)")

        let nothing = try Self.post(actions, #"{"tap": "n99"}"#)
        #expect(nothing.status == 422, "\(nothing)")
        #expect(nothing.json["error"]?.stringValue?.contains("no notification matches n99") == true, "\(nothing)")

        let unknown = try Self.get("\(control)/devices/Nope/events")
        #expect(unknown["error"]?.stringValue?.contains("declared: 'Test iPhone'") == true, "\(unknown)")
        let badSince = try Self.get("\(control)/devices/\(Self.devicePath)/events?since=x")
        #expect(badSince["error"] != nil)
        let wrongMethod = try runTool("curl", ["-s", "-i", "-XDELETE", "\(control)/devices/\(Self.devicePath)"])
        #expect(wrongMethod.stdout.hasPrefix("HTTP/1.1 405"), "\(wrongMethod)")

        // Several actions in one body run in order; the events of all of them come back.
        let two = try Self.post(actions, #"[{"launch": "com.example.app"}, {"background": "com.example.app"}]"#)
        #expect(two.status == 200)
        let states = (two.json["events"]?.arrayValue ?? []).compactMap {
            $0["type"] == "state" ? $0["to"]?.stringValue : nil
        }
        #expect(states == ["foreground", "background"], "\(two)")
    }

    /// Two small HTML pages on a plain HTTP loopback listener.
    struct Pages: HTTPHandler {
        func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
            let html =
                request.path == "/next"
                ? "<html><head><title>Next page</title></head><body>done</body></html>"
                : #"<html><head><title>Hello page</title></head><body><a href="/next">Next</a></body></html>"#
            responder.respond(
                HTTPResponse(
                    status: 200, headers: [HTTPField("content-type", "text/html; charset=utf-8")],
                    body: Array(html.utf8)))
        }
    }

    /// POST through our async libcurl client: a web action is answered from a task in this process, so
    /// the test must suspend (not block a cooperative thread) while it waits.
    static func postAsync(_ client: HTTPClient, _ url: String, _ body: String) async throws -> (
        status: Int, json: JSONValue
    ) {
        let response = try await client.execute(.post(url, body: Array(body.utf8)))
        return (response.status, (try? JSONValue.parse(response.body)) ?? .null)
    }

    @Test func tapOpensAWebViewThatLoadsAndFollowsALink() async throws {
        let pages = HTTPServer(listeners: [ListenerConfiguration(name: "pages", handler: Pages())], loops: 1)
        let pageURL = try #require(try pages.start().first?.url)
        defer { pages.shutdown(grace: .zero) }
        let served = try Served()
        defer { served.stop() }
        let (fixture, running, control, sandbox) = (served.fixture, served.running, served.control, served.sandbox)
        let token = try #require(running.fleet.devices.first?.tokens[Self.bundleID]?.hex)
        let actions = served.actions
        var configuration = HTTPClientConfiguration()
        configuration.totalTimeout = .seconds(20)
        let client = try HTTPClient(configuration: configuration)
        defer { client.shutdown() }

        let body = #"{"aps":{"alert":{"title":"Read this"}},"url":"\#(pageURL)/start"}"#
        #expect(try fixture.push(sandbox, token: token, body).stdout.hasPrefix("HTTP/2 200"))
        let tapped = try Self.post(actions, #"{"tap": "latest"}"#)
        #expect(Self.kinds(tapped.json["events"]).contains("navigation:web view loads \(pageURL)/start"), "\(tapped)")

        let loaded = try await Self.postAsync(client, actions, #"{"load_page": true}"#)
        let page = loaded.json["events"]?.arrayValue?.first { $0["type"] == "web-view" }
        #expect(page?["outcome"]?.stringValue == "loaded" && page?["title"]?.stringValue == "Hello page", "\(loaded)")

        let followed = try await Self.postAsync(client, actions, #"{"follow_link": "Next"}"#)
        let next = followed.json["events"]?.arrayValue?.first { $0["type"] == "web-view" }
        #expect(next?["title"]?.stringValue == "Next page", "\(followed)")
        let snapshot = try Self.get("\(control)/devices/\(Self.devicePath)")
        #expect(snapshot["apps"]?[Self.bundleID]?["web_page"]?["url"]?.stringValue == "\(pageURL)/next")

        let noLink = try await Self.postAsync(client, actions, #"{"follow_link": "Missing"}"#)
        #expect(
            noLink.status == 422 && noLink.json["error"]?.stringValue?.contains("no link 'Missing'") == true,
            "\(noLink)")
    }

    @Test func binaryHostsTheDeviceAndConfigErrorsPointAtTheLine() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let child = try ChildProcess(
            pushcheckExecutable(), ["serve", "--config", fixture.configPath, "--ca-out", fixture.dir.file("ca.pem")])
        let line = try #require(child.firstLine(), "no ready line; stderr: \(child.stderr)")
        let ready = try JSONValue.parse(Array(line.utf8))
        let token = try #require(ready["devices"]?[Self.device]?["tokens"]?[Self.bundleID]?.stringValue, "\(line)")
        let sandbox = try #require(ready["apns"]?["sandbox"]?.stringValue)
        let control = try #require(ready["control"]?.stringValue)
        let pushed = try fixture.push(sandbox, token: token, #"{"aps":{"alert":{"title":"From backend"}}}"#)
        #expect(pushed.stdout.hasPrefix("HTTP/2 200"), "\(pushed)")
        // Not running: no app callback, the alert is in Notification Center.
        let events = try Self.get("\(control)/devices/\(Self.devicePath)/events")
        let presented = events["events"]?.arrayValue?.first { $0["type"] == "notification-presented" }
        #expect(presented?["title"]?.stringValue == "From backend", "\(events)")
        #expect(!Self.kinds(events["events"]).contains { $0.hasPrefix("callback:willPresent") })
        #expect(child.stop(signal: SIGTERM) == 0, "stderr: \(child.stderr)")

        let bad = try fixture.dir.write(
            "bad.yaml",
            """
            apps:
              - bundle_id: a.b
                profile: {}
            devices:
              - { name: d, udid: u, apps: [a.b] }
              - { name: d, udid: v, apps: [c.d] }
            """)
        let out = try runTool(pushcheckExecutable(), ["serve", "--config", bad])
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("--> \(bad):6:"), "\(out)")
        #expect(out.stderr.contains("unknown app 'c.d'"), "\(out)")

        let dup = try fixture.dir.write(
            "dup.yaml",
            """
            apps:
              - bundle_id: a.b
                profile: {}
            devices:
              - { name: d, udid: u }
              - { name: d, udid: v }
            """)
        let dupOut = try runTool(pushcheckExecutable(), ["serve", "--config", dup])
        #expect(dupOut.status == 2 && dupOut.stderr.contains("--> \(dup):6:13"), "\(dupOut)")
        #expect(dupOut.stderr.contains("unique device name"), "\(dupOut)")
    }
}
