import HTTPTypes
@testable import APNsGateway
import Foundation
@testable import HTTPServer
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Synchronization
import Testing

@testable import DeviceBridge

/// The console's own routes (`/ui`, `/ui/api/*`): who may use them, the form check by the gateway's rules, and a
/// send that goes over TLS/HTTP2 to the world's listener and reaches the device. The page itself is tested in a
/// browser (Tests/python/test_web_console.py).
@Suite(.serialized) struct ConsoleTests {
    static func request(
        _ method: String, _ path: String, body: String = "", headers: [HTTPField] = [],
        authority: String = "127.0.0.1:8"
    ) -> HTTPRequest {
        HTTPRequest(
            version: .http1_1, method: method, path: path, authority: authority,
            headers: headers + (body.isEmpty ? [] : [HTTPField("content-type", "application/json")]),
            body: Array(body.utf8))
    }

    @Test func onlyLoopbackClientsAndNamesGetTheConsole() {
        let page = Self.request("GET", "/ui")
        #expect(ControlAPI.consoleRefusal(page, remoteAddress: "127.0.0.1:5000") == nil)
        #expect(ControlAPI.consoleRefusal(page, remoteAddress: "::1:5000") == nil)
        #expect(ControlAPI.consoleRefusal(page, remoteAddress: "192.168.1.9:5000")?.status == 403)
        let rebound = Self.request("GET", "/ui", authority: "attacker.example:8")
        #expect(ControlAPI.consoleRefusal(rebound, remoteAddress: "127.0.0.1:5000")?.status == 403)
        #expect(
            ControlAPI.consoleRefusal(Self.request("GET", "/ui", authority: "[::1]:8"), remoteAddress: "::1:1") == nil)
        #expect(
            ControlAPI.consoleRefusal(Self.request("GET", "/ui", authority: "localhost"), remoteAddress: "127.0.0.1:1")
                == nil)
        // A form on another site cannot drive it: another Origin, or a body that is not JSON, is refused.
        let crossSite = Self.request(
            "POST", "/ui/api/send", body: "{}", headers: [HTTPField("origin", "https://evil.example")])
        #expect(ControlAPI.consoleRefusal(crossSite, remoteAddress: "127.0.0.1:1")?.status == 403)
        let plain = HTTPRequest(
            version: .http1_1, method: "POST", path: "/ui/api/send", authority: "127.0.0.1:8", body: [0x7B, 0x7D])
        #expect(ControlAPI.consoleRefusal(plain, remoteAddress: "127.0.0.1:1")?.status == 415)
        #expect(
            ControlAPI.isConsolePath("/ui?x=1") && ControlAPI.isConsolePath("/ui/api/check")
                && !ControlAPI.isConsolePath("/uix"))
    }

    @Test func thePageIsSelfContainedWithAStrictPolicy() throws {
        let fixture = try WorldFixture()
        let api = ControlAPI(host: fixture.world)
        let page = api.route(Self.request("GET", "/ui"))
        #expect(page.status == 200)
        let csp = try #require(page.headers.first { $0.name == "content-security-policy" }?.value)
        #expect(csp.contains("default-src 'none'") && csp.contains("connect-src 'self'"))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<title>pushcheck console</title>"))
        #expect(html.contains(#""bundle_id":"com.example.app""#) && html.contains(#""team_id":"ABCDE12345""#))
        #expect(api.route(Self.request("DELETE", "/ui")).status == 405)
        #expect(api.route(Self.request("GET", "/ui/nope")).status == 404)
    }

    @Test func theFormIsCheckedByTheGatewaysRequestRules() throws {
        let fixture = try WorldFixture()
        let api = ControlAPI(host: fixture.world)
        let token = try #require(fixture.world.device(named: "phone")?.iphone!.snapshot.apps["com.example.app"]?.token)
        func check(_ fields: [String: JSONValue]) -> [String] {
            let body = JSONValue.object(fields).serialized()
            let answer = api.route(Self.request("POST", "/ui/api/check", body: body))
            let json = try? JSONValue.parse(answer.body)
            return (json?["problems"]?.arrayValue ?? []).compactMap { $0["reason"]?.stringValue }
        }
        let good: [String: JSONValue] = [
            "token": .string(token.hex), "topic": "com.example.app", "payload": #"{"aps":{"alert":"hi"}}"#,
        ]
        #expect(check(good) == [])
        #expect(check(good.merging(["push_type": "background", "priority": "10"]) { $1 }) == ["BadPriority"])
        #expect(check(good.merging(["priority": "7"]) { $1 }) == ["BadPriority"])
        #expect(check(good.merging(["apns_id": "NOT-A-UUID"]) { $1 }) == ["BadMessageId"])
        #expect(check(good.merging(["payload": "[1]"]) { $1 }) == ["PayloadEmpty"])
        #expect(
            check(good.merging(["payload": .string("{\"a\":\"" + String(repeating: "x", count: 4100) + "\"}")]) { $1 })
                == ["PayloadTooLarge"])
        #expect(check(good.merging(["topic": "com.example.other"]) { $1 }) == ["DeviceTokenNotForTopic"])
        #expect(
            check(good.merging(["token": .string(String(repeating: "ab", count: 32))]) { $1 }) == ["BadDeviceToken"])
        #expect(check(good.merging(["endpoint": "production"]) { $1 }) == ["BadDeviceToken"])
        // The token-kind rule (Tests/reference/ios-push-types.md §1.2): a VoIP push at the device token.
        #expect(
            check(good.merging(["push_type": "voip", "topic": "com.example.app.voip"]) { $1 })
                == ["DeviceTokenNotForTopic"])
        // A typo in the form is an error, not a different push.
        let typo = api.route(Self.request("POST", "/ui/api/check", body: #"{"tokn":"ab"}"#))
        #expect(typo.status == 400 && String(decoding: typo.body, as: UTF8.self).contains("unknown field 'tokn'"))
    }

    /// The token-kind rule the device applies after APNs's 200 (`token-kind-mismatch`) is a warning of the check
    /// (it said ok with nothing more); a refused pair reads "an alert push" (it read "a alert push").
    @Test func theCheckWarnsOfATokenKindTheDeviceDrops() throws {
        let fixture = try WorldFixture()
        let api = ControlAPI(host: fixture.world)
        let token = try #require(fixture.world.device(named: "phone")?.iphone!.snapshot.apps["com.example.app"]?.token)
        let body = JSONValue.object([
            "token": .string(token.hex), "topic": "com.example.app.push-type.liveactivity",
            "push_type": "liveactivity",
            "payload": #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#,
        ]).serialized()
        let json = try JSONValue.parse(api.route(Self.request("POST", "/ui/api/check", body: body)).body)
        #expect(json["ok"] == true, "\(json)")
        let warning = try #require(json["warnings"]?.arrayValue?.first?["message"]?.stringValue, "\(json)")
        #expect(
            warning.contains("the device drops a liveactivity push at the app's apns token: token-kind-mismatch"),
            "\(warning)")
        let voip = try #require(DeviceToken(bytes: Array(repeating: 0x5A, count: 32)))
        var form = ConsoleSendForm()
        form.token = voip.hex
        form.topic = "com.example.app"
        form.payload = #"{"aps":{"alert":"hi"}}"#
        let refused = form.check(registered: [
            RegisteredDeviceToken(token: voip, topic: "com.example.app", environment: .sandbox, kind: .voip)
        ])
        let message = try #require(refused["problems"]?.arrayValue?.first?["message"]?.stringValue)
        #expect(message.contains("APNs refuses an alert push (topic without .voip)"), "\(message)")
    }

    /// The check names the rule the gateway's log detail names (`APNsGateway.explanation`): an alert or background
    /// push at a PushKit VoIP token (it cited the certificate rule), background at priority 10 with the type
    /// inferred (it said 1, 5 or 10 are allowed); "a background push" (the gateway's detail said "an background").
    @Test func theCheckNamesTheRuleTheGatewayApplies() throws {
        let voip = try #require(DeviceToken(bytes: Array(repeating: 0x5A, count: 32)))
        var form = ConsoleSendForm()
        form.token = voip.hex
        form.topic = "com.example.app"
        form.payload = #"{"aps":{"alert":"hi"}}"#
        let registered = [
            RegisteredDeviceToken(token: voip, topic: "com.example.app", environment: .sandbox, kind: .voip)
        ]
        func message(_ form: ConsoleSendForm) -> String {
            form.check(registered: registered)["problems"]?.arrayValue?.first?["message"]?.stringValue ?? ""
        }
        #expect(
            message(form)
                == "The device token is a PushKit VoIP token: APNs refuses an alert push (topic without .voip) at it. "
                + "Send alert pushes to the app's APNs device token, and only VoIP pushes (apns-topic <bundle "
                + "id>.voip, apns-push-type voip) to this one.")
        form.pushType = "background"
        form.payload = #"{"aps":{"content-available":1}}"#
        #expect(message(form).contains("APNs refuses a background push (topic without .voip)"), "\(message(form))")
        form.pushType = ""
        form.priority = "10"
        #expect(
            message(form).hasPrefix(
                "Background pushes take apns-priority 5 or 1, not 10: with no apns-push-type header the type was "
                    + "inferred"), "\(message(form))")
        form.pushType = "background"
        #expect(message(form) == "Background pushes take apns-priority 5 or 1, not 10.", "\(message(form))")
    }

    @Test func aSendGoesOverTLSToTheGatewayAndReachesTheDevice() async throws {
        let ca = try CertificateAuthority.generate(commonName: "console test CA")
        let leaf = try ca.issueServerCertificate()
        let dir = try TempDirectory("console-send")
        defer { dir.remove() }
        try PEMFiles.write(ca.certificatePEM, to: dir.file("ca.pem"))
        let world = try WorldHost(try WorldFixture.declaration(), webTrust: dir.file("ca.pem"))
        defer { world.shutdown() }
        var plan = WorldListenPlan(
            tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM))
        plan.productionPort = nil
        _ = try world.start(plan)
        let api = ControlAPI(host: world)
        let token = try #require(world.device(named: "phone")?.iphone!.snapshot.apps["com.example.app"]?.token)
        let before = ConsoleChanges(world).version
        let form = JSONValue.object([
            "token": .string(token.hex), "topic": "com.example.app", "collapse_id": "order-42",
            "payload": #"{"aps":{"alert":{"title":"From the console"}}}"#,
        ]).serialized()
        let send = try #require(api.consoleAsync(Self.request("POST", "/ui/api/send", body: form)))
        let answer = try JSONValue.parse(await send().body)
        #expect(answer["status"] == 200, "\(answer)")
        #expect(answer["auth"]?.stringValue?.hasPrefix("console key CONSOLE") == true)
        #expect(answer["http_version"] == "HTTP/2" && answer["log_sequence"] == 1)
        let entry = try #require(world.gatewayLog().last)
        #expect(entry.status == 200 && entry.headers.contains(HTTPField("apns-collapse-id", "order-42")))
        #expect(
            world.device(named: "phone")?.iphone!.snapshot.notificationCenter.last?.content.title == "From the console")
        #expect(ConsoleChanges(world).version != before)
        // Production is not listening here: the console says so instead of sending elsewhere.
        let elsewhere = try #require(
            api.consoleAsync(Self.request("POST", "/ui/api/send", body: #"{"endpoint":"production","token":"00"}"#)))
        #expect(await elsewhere().status == 409)
        // No team to sign for: a clear refusal with the way out.
        let unknown = try #require(
            api.consoleAsync(Self.request("POST", "/ui/api/send", body: #"{"token":"00","topic":"com.other"}"#)))
        let refusal = await unknown()
        #expect(
            refusal.status == 422 && String(decoding: refusal.body, as: UTF8.self).contains("paste a provider token"))
        // Without a token the gateway's own answer comes back.
        let bare = try #require(
            api.consoleAsync(
                Self.request(
                    "POST", "/ui/api/send",
                    body: #"{"auth":"none","token":"\#(token.hex)","topic":"com.example.app","payload":"{}"}"#)))
        let missing = try JSONValue.parse(await bare().body)
        #expect(missing["status"] == 403 && missing["reason"] == "MissingProviderToken")
        // A refusal's message is the rule the gateway's log names (it said "must be 1, 5 or 10" above a detail
        // that said otherwise).
        let inferred = try #require(
            api.consoleAsync(
                Self.request(
                    "POST", "/ui/api/send",
                    body: #"{"token":"\#(token.hex)","topic":"com.example.app","priority":"10","#
                        + #""payload":"{\"aps\":{\"content-available\":1}}"}"#)))
        let badPriority = try JSONValue.parse(await inferred().body)
        #expect(badPriority["reason"] == "BadPriority", "\(badPriority)")
        let said = try #require(badPriority["message"]?.stringValue)
        #expect(said.hasPrefix("Background pushes take apns-priority 5 or 1, not 10: with no apns-push-type header"))
        #expect(badPriority["detail"]?.stringValue == said)
    }

    @Test func theChangesPollAnswersWhenSomethingMoves() async throws {
        let fixture = try WorldFixture()
        let api = ControlAPI(host: fixture.world)
        let now = ConsoleChanges(fixture.world).version
        let poll = try #require(api.consoleAsync(Self.request("GET", "/ui/api/changes?since=\(now)&wait=10")))
        let started = ContinuousClock.now
        async let answer = poll()
        try await Task.sleep(for: .milliseconds(200))
        let token = try #require(fixture.world.device(named: "phone")?.iphone!.snapshot.apps["com.example.app"]?.token)
        #expect(try fixture.push(#"{"aps":{"alert":"x"}}"#, to: token).status == 200)
        let json = try JSONValue.parse(await answer.body)
        #expect(json["version"]?.stringValue != now && json["apns_last"] == 1)
        #expect(ContinuousClock.now - started < .seconds(5))
        // Nothing new: the poll holds until its wait runs out.
        let quiet = try #require(
            api.consoleAsync(
                Self.request("GET", "/ui/api/changes?since=\(ConsoleChanges(fixture.world).version)&wait=0.3")))
        let held = ContinuousClock.now
        _ = await quiet()
        #expect(ContinuousClock.now - held >= .milliseconds(300))
        // serve is stopping: a held poll answers at once (503), so the console says so within its grace period.
        fixture.world.stopping.store(true, ordering: .relaxed)
        let stopping = try #require(
            api.consoleAsync(
                Self.request("GET", "/ui/api/changes?since=\(ConsoleChanges(fixture.world).version)&wait=10")))
        let asked = ContinuousClock.now
        #expect(await stopping().status == 503)
        #expect(ContinuousClock.now - asked < .seconds(2))
    }
}
