import Foundation
import HTTPServer
import PushcheckTestSupport
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import PushcheckCommands

/// `serve` as a harness CI drives: ready file, long-poll events, resets, setup errors, the CONNECT proxy.
@Suite(.serialized) struct ServeHarnessTests {
    typealias D = ServeDevicesTests
    var events: String { "/devices/\(D.devicePath)/events" }

    @Test func eventsLongPollFiltersAndRefusesUnknownParameters() async throws {
        let served = try D.Served()
        defer { served.stop() }
        let token = try #require(served.running.fleet.devices.first?.tokens[D.bundleID]?.hex)
        let last = try D.get("\(served.control)\(events)")["last_seq"]?.doubleValue ?? 0
        // The poll is held until the push arrives, and returns only the asked-for type.
        let url = "\(served.control)\(events)?since=\(Int(last))&wait=10s&type=notification-presented"
        let poll = Task.detached { try runTool("curl", ["-s", "--max-time", "20", url]) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(
            try served.fixture.push(served.sandbox, token: token, #"{"aps":{"alert":{"title":"Polled"}}}"#)
                .stdout.hasPrefix("HTTP/2 200"))
        let answer = try JSONValue.parse(Array(try await poll.value.stdout.utf8))
        #expect(D.kinds(answer["events"]) == ["notification-presented"], "\(answer)")
        #expect(answer["events"]?.arrayValue?.first?["title"]?.stringValue == "Polled")

        // Nothing new: the wait runs out and the answer is an empty list.
        let after = answer["last_seq"]?.doubleValue ?? 0
        let empty = try D.get("\(served.control)\(events)?since=\(Int(after))&wait=200ms&type=notification-presented")
        #expect(empty["events"]?.arrayValue?.isEmpty == true, "\(empty)")

        let typo = try runTool("curl", ["-s", "-w", "\n%{http_code}", "\(served.control)\(events)?snce=3"])
        #expect(typo.stdout.hasSuffix("\n400"), "\(typo)")
        #expect(typo.stdout.contains("unknown query parameter 'snce'") && typo.stdout.contains("did you mean 'since'?"))
        let badWait = try runTool("curl", ["-s", "-w", "\n%{http_code}", "\(served.control)\(events)?wait=soon"])
        #expect(badWait.stdout.hasSuffix("\n400") && badWait.stdout.contains("wait must be a duration"), "\(badWait)")
    }

    @Test func resetsPutDevicesBackToTheirLaunchState() throws {
        let served = try D.Served()
        defer { served.stop() }
        let token = try #require(served.running.fleet.devices.first?.tokens[D.bundleID]?.hex)
        let device = "\(served.control)/devices/\(D.devicePath)"
        let launchSeq = try D.get(device)["last_seq"]?.doubleValue
        for reset in ["\(device)/reset", "\(served.control)/reset"] {
            #expect(
                try served.fixture.push(served.sandbox, token: token, #"{"aps":{"alert":"x"}}"#)
                    .stdout.hasPrefix("HTTP/2 200"))
            #expect(try D.post(served.actions, #"{"uninstall": "com.example.app"}"#).status == 200)
            #expect(try D.post(reset, "{}").status == 200)
            let after = try D.get(device)
            #expect(after["notification_center"]?.arrayValue?.isEmpty == true, "\(reset): \(after)")
            #expect(after["last_seq"]?.doubleValue == launchSeq, "\(reset)")
            // The app is back with its launch token, registered with the gateway again.
            #expect(
                try served.fixture.push(served.sandbox, token: token, #"{"aps":{"alert":"y"}}"#)
                    .stdout.hasPrefix("HTTP/2 200"), "\(reset)")
        }
    }

    @Test func readyFileSetupErrorsAndTheCAFileGoingAway() throws {
        let fixture = try D.Fixture()
        defer { fixture.dir.remove() }
        // A second app whose profile does not list the device: it cannot install.
        let config = try String(contentsOfFile: fixture.configPath, encoding: .utf8)
            .replacingOccurrences(
                of: "devices:\n",
                with:
                    "  - { bundle_id: com.example.other, team_id: \(D.team), profile: { devices: [OTHERUDID] } }\ndevices:\n"
            )
            .replacingOccurrences(of: "apps: [\(D.bundleID)]", with: "apps: [\(D.bundleID), com.example.other]")
        let path = try fixture.dir.write("broken.yaml", config)
        let ready = fixture.dir.file("ready.json")
        let child = try ChildProcess(pushcheckExecutable(), ["serve", "--config", path, "--ready-file", ready])
        let line = try #require(child.firstLine(), "stderr: \(child.stderr)")
        #expect(try String(contentsOfFile: ready, encoding: .utf8) == line + "\n")
        #expect(
            child.stderr.contains("error: device '\(D.device)': com.example.other failed to install"), "\(child.stderr)"
        )
        #expect(child.stderr.contains("(serving anyway; --strict exits 3)"))
        let ca = try #require(try JSONValue.parse(Array(line.utf8))["ca"]?.stringValue)
        #expect(FileManager.default.fileExists(atPath: ca))
        #expect(child.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: ca), "the generated CA file is removed on exit")
        #expect(!FileManager.default.fileExists(atPath: ready), "so is the ready file")

        let strict = try runTool(pushcheckExecutable(), ["serve", "--config", path, "--strict"])
        #expect(strict.status == 3, "\(strict)")
        #expect(strict.stderr.contains("error: device '\(D.device)': com.example.other failed to install"))
        #expect(strict.stdout.isEmpty, "no ready line when --strict refuses to start")
    }

    @Test func connectProxyTunnelsApplesHostsToTheMock() throws {
        let fixture = try D.Fixture()
        defer { fixture.dir.remove() }
        var config = try ServeConfiguration.load(path: fixture.configPath)
        config.proxyPort = 0
        let running = try RunningGateway.start(config, loops: 1, caOut: fixture.dir.file("ca.pem"))
        defer { running.stop(grace: 0) }
        let proxy = try #require(running.proxyURL)
        let token = try #require(running.fleet.devices.first?.tokens[D.bundleID]?.hex)
        func viaProxy(_ host: String, _ extra: [String] = []) throws -> ToolOutput {
            try runTool(
                "curl",
                [
                    "-s", "-i", "--http2", "--max-time", "10", "--proxy", proxy, "--cacert", fixture.dir.file("ca.pem"),
                    "-H", "authorization: bearer \(try fixture.jwt())", "-H", "apns-topic: \(D.bundleID)",
                    "-d", #"{"aps":{"alert":"proxied"}}"#,
                ] + extra + ["https://\(host)/3/device/\(token)"])
        }
        // Development and sandbox names reach the sandbox listener (the device's token is a sandbox one) …
        for host in ["api.development.push.apple.com", "api.sandbox.push.apple.com:2197"] {
            let r = try viaProxy(host)
            #expect(r.stdout.contains("HTTP/2 200"), "\(host): \(r)")
        }
        // … production reaches production, where a development token is BadDeviceToken.
        let prod = try viaProxy("api.push.apple.com")
        #expect(prod.stdout.contains("HTTP/2 400") && prod.stdout.contains("BadDeviceToken"), "\(prod)")
        // Anything else is refused by the proxy.
        let other = try runTool("curl", ["-s", "--proxy", proxy, "--max-time", "10", "https://example.com/"])
        #expect(other.status == 56, "curl: CONNECT tunnel failed, response 403: \(other)")
        let plain = try runTool("curl", ["-s", "-w", "%{http_code}", "--max-time", "10", proxy + "/"])
        #expect(plain.stdout.hasSuffix("405"), "\(plain)")
    }

    @Test func connectRequestParsing() {
        #expect(
            ConnectRequest.parse("CONNECT api.push.apple.com:443 HTTP/1.1\r\nHost: x")
                == .success(ConnectRequest(host: "api.push.apple.com", port: 443)))
        #expect(ConnectRequest(host: "api.push.apple.com", port: 443).target == .success(.production))
        #expect(ConnectRequest(host: "api.development.push.apple.com", port: 2197).target == .success(.sandbox))
        #expect(
            ConnectRequest(host: "api-manage-broadcast.sandbox.push.apple.com", port: 2195).target
                == .success(.broadcastSandbox))
        #expect(
            ConnectRequest(host: "api-manage-broadcast.push.apple.com", port: 2196).target
                == .success(.broadcastProduction))
        #expect((try? ConnectRequest(host: "api-manage-broadcast.push.apple.com", port: 443).target.get()) == nil)
        // Broadcast sends go to the push listeners under the hosts of Apple's samples.
        #expect(ConnectRequest(host: "api-broadcast.sandbox.push.apple.com", port: 443).target == .success(.sandbox))
        #expect(ConnectRequest(host: "api-broadcast.push.apple.com", port: 2197).target == .success(.production))
        #expect((try? ConnectRequest(host: "api.push.apple.com", port: 2196).target.get()) == nil)
        #expect((try? ConnectRequest(host: "api.push.apple.com", port: 80).target.get()) == nil)
        #expect((try? ConnectRequest(host: "example.com", port: 443).target.get()) == nil)
        if case .failure(let r) = ConnectRequest.parse("GET / HTTP/1.1") {
            #expect(r.status == 405)
        } else {
            Issue.record("GET accepted")
        }
        if case .failure(let r) = ConnectRequest.parse("CONNECT nohost HTTP/1.1") {
            #expect(r.status == 400)
        } else {
            Issue.record("no port accepted")
        }
    }
}
