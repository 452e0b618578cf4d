import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
import Foundation
@testable import HTTPClient
import HTTPServer
import HTTPTypes
import PushcheckTestSupport
@testable import PushCrypto
@testable import PushModel
import Synchronization
import Testing
@testable import YAMLSource

/// A world built the way `serve` and the runner build theirs: YAML text through the one decoder, then
/// `WorldHost` on a `ManualClock`. Pushes go through the world's own APNs handler, in-process.
struct WorldFixture {
    static let team = "ABCDE12345", kid = "KEY1234567", bundleID = "com.example.app"
    static let key = try! P256PrivateKey.generate()
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let yaml = """
        apns:
          max_concurrent_streams: 50
        apps:
          - bundle_id: com.example.app
            team_id: ABCDE12345
            aps_environment: development
            background_modes: [remote-notification]
            profile: { devices: [00008110-000A1C2E0E12801E, 00008110-000A1C2E0E12801F], expires: 2099-01-01T00:00:00Z }
            authorization: authorized
            delegate: { will_present: [banner, list, sound] }
        devices:
          - { name: phone, udid: 00008110-000A1C2E0E12801E, seed: 7, apps: [com.example.app] }
          - { name: tablet, udid: 00008110-000A1C2E0E12801F, seed: 8, online: false, apps: [com.example.app] }
        """

    static func declaration(_ text: String = yaml, file: String = "world.yaml") throws -> WorldDeclaration {
        try WorldDeclaration.decodeTopLevel(try YAMLMapping(try YAMLLoader.load(string: text, file: file)), file: file)
    }

    let clock = ManualClock(start: WorldFixture.start)
    let world: WorldHost

    init(clock: ManualClock = ManualClock(start: WorldFixture.start)) throws {
        world = try WorldHost(
            try Self.declaration(), clock: clock,
            providerKeys: [APNsProviderKey(keyID: Self.kid, teamID: Self.team, publicKey: Self.key.publicKey)])
    }

    func jwt() throws -> String {
        try JWT.apnsProviderToken(
            teamID: Self.team, keyID: Self.kid, issuedAt: Int(world.clock.now().timeIntervalSince1970), key: Self.key)
    }

    /// POSTs `body` to `token` through the world's handler for `endpoint` (no socket) and waits for the answer.
    func push(_ body: String, to token: DeviceToken, endpoint: WorldEndpoint = .sandbox) throws -> HTTPResponse {
        let request = HTTPRequest(
            version: .http2, method: "POST", path: "/3/device/\(token.hex)", authority: "localhost", scheme: "https",
            headers: [
                HTTPField("authorization", "bearer \(try jwt())"), HTTPField("apns-topic", Self.bundleID),
                HTTPField("apns-push-type", "alert"),
            ], body: Array(body.utf8), streamID: 1)
        let answer = Mutex<HTTPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        world.handler(for: endpoint).handle(
            request, context: BridgeFixture.connection(id: 1, endpoint: endpoint.apnsEnvironment ?? .sandbox),
            responder: HTTPResponder { r in
                answer.withLock { $0 = r }
                done.signal()
            })
        #expect(done.wait(timeout: .now() + 10) == .success)
        return try #require(answer.withLock { $0 })
    }
}

@Suite struct WorldHostTests {
    @Test func buildsTheDeclaredDevicesWithTheirTokensRegistered() throws {
        let f = try WorldFixture()
        #expect(f.world.fleet.devices.map(\.name) == ["phone", "tablet"])
        #expect(f.world.device(named: "phone")?.declaration?.udid == "00008110-000A1C2E0E12801E")
        let phone = try #require(f.world.device(named: "phone")?.tokens[WorldFixture.bundleID])
        let tablet = try #require(f.world.device(named: "tablet")?.tokens[WorldFixture.bundleID])
        let registered: Set<String> = Set(f.world.apns.registeredTokens.map { $0.token.hex })
        #expect(registered == [phone.hex, tablet.hex])
        #expect(f.world.isReachable(phone) && !f.world.isReachable(tablet))
        #expect(
            f.world.holder(ofAPNsToken: phone) == TokenHolder(device: "phone", bundleID: "com.example.app", kind: .apns)
        )
        #expect(f.world.holder(ofAPNsToken: tablet)?.device == "tablet")
        #expect(f.world.fcm == nil)
        #expect(f.world.gatewayLog().isEmpty && f.world.lastLogSequence == nil)
    }

    @Test func aPushIsReadBackThroughTheReadAPI() throws {
        let f = try WorldFixture()
        let phone = try #require(f.world.device(named: "phone"))
        let token = try #require(phone.tokens[WorldFixture.bundleID])
        let since = phone.iphone!.events.last?.sequence ?? 0
        let answer = try f.push(#"{"aps":{"alert":{"title":"Hi"}}}"#, to: token)
        #expect(answer.status == 200)
        let apnsID = try #require(answer.headers.first { $0.name == "apns-id" }?.value)

        let log = f.world.gatewayLog()
        #expect(log.count == 1 && log[0].status == 200 && log[0].apnsID == apnsID)
        #expect(f.world.lastLogSequence == log[0].sequence)
        #expect(f.world.gatewayLog(after: log[0].sequence).isEmpty)
        #expect(f.world.gatewayLogPage(limit: 10).entries.map(\.sequence) == [log[0].sequence])

        let deliveries = f.world.deliveries(token: token, limit: 10).events
        #expect(deliveries.map(\.disposition) == [.delivered] && deliveries.first?.push.apnsID == apnsID)
        let events = try #require(f.world.deviceEvents("phone", since: since))
        #expect(events.contains { if case .pushReceived(apnsID, _) = $0.kind { true } else { false } }, "\(events)")
        #expect(f.world.deviceEvents("nobody") == nil)
        #expect(f.world.storedPushes(for: token).isEmpty)
    }

    @Test func anOfflineDevicesPushIsStoredAndResetForgetsIt() throws {
        let f = try WorldFixture()
        let tablet = try #require(f.world.device(named: "tablet"))
        let token = try #require(tablet.tokens[WorldFixture.bundleID])
        #expect(try f.push(#"{"aps":{"alert":{"title":"Kept"}}}"#, to: token).status == 200)
        #expect(f.world.storedPushes(for: token).count == 1)
        #expect(f.world.deliveries(limit: 10).events.map(\.disposition) == [.stored])

        // A device action changes the world; reset puts it all back as launched.
        let launchEvents = try #require(f.world.deviceEvents("phone")).count
        try f.world.device(named: "phone")!.iphone!.apply(.online(false))
        #expect(try #require(f.world.deviceEvents("phone")).count > launchEvents)
        f.world.reset()
        #expect(f.world.deviceEvents("phone")?.count == launchEvents, "the event log is back to the launch state")
        #expect(f.world.gatewayLog().isEmpty && f.world.deliveries(limit: 10).events.isEmpty)
        #expect(f.world.storedPushes(for: token).isEmpty)
        let phoneToken = try #require(f.world.device(named: "phone")?.tokens[WorldFixture.bundleID])
        #expect(f.world.isReachable(phoneToken), "the phone is back online, as declared")
        #expect(f.world.apns.registeredTokens.contains { $0.token == token }, "launch tokens are registered again")
        // The provider key given besides the configuration survives the reset.
        #expect(try f.push(#"{"aps":{"alert":"again"}}"#, to: phoneToken).status == 200)
    }

    @Test func theControlRoutesReadTheSameWorld() throws {
        let f = try WorldFixture()
        let token = try #require(f.world.device(named: "phone")?.tokens[WorldFixture.bundleID])
        #expect(try f.push(#"{"aps":{"alert":"x"}}"#, to: token).status == 200)
        let control = ControlAPI(host: f.world)
        let log = control.route(
            HTTPRequest(
                version: .http1_1, method: "GET", path: "/apns/log", authority: "x", scheme: "http", headers: [],
                body: [], streamID: 0))
        let json = try JSONValue.parse(log.body)
        #expect(json["entries"]?.arrayValue?.count == 1)
        let reset = control.route(
            HTTPRequest(
                version: .http1_1, method: "POST", path: "/reset", authority: "x", scheme: "http", headers: [],
                body: [], streamID: 0))
        #expect(reset.status == 200 && f.world.gatewayLog().isEmpty)
    }

    /// A hosted token's reachability is its device's: the control route switches the device (the whole phone),
    /// and the token list reads it from there; a token no device holds is switched at the gateway.
    @Test func theTokenOnlineRoutesSwitchTheHoldingDevice() throws {
        let f = try WorldFixture()
        let control = ControlAPI(host: f.world)
        func post(_ path: String) -> Int {
            control.route(HTTPRequest(version: .http1_1, method: "POST", path: path, headers: [], body: [])).status
        }
        func listed(_ token: DeviceToken) throws -> Bool? {
            let list = control.route(HTTPRequest(version: .http1_1, method: "GET", path: "/apns/tokens"))
            return try JSONValue.parse(list.body)["tokens"]?.arrayValue?.first {
                $0["token"]?.stringValue == token.hex
            }?[
                "online"]?.boolValue
        }
        let phone = try #require(f.world.device(named: "phone"))
        let token = try #require(phone.tokens[WorldFixture.bundleID])
        #expect(post("/apns/tokens/\(token.hex)/offline") == 200)
        #expect(!phone.iphone!.snapshot.online && !f.world.isReachable(token))
        #expect(try listed(token) == false)
        #expect(try f.push(#"{"aps":{"alert":"kept"}}"#, to: token).status == 200)
        #expect(f.world.storedPushes(for: token).count == 1)
        #expect(post("/apns/tokens/\(token.hex)/online") == 200)
        #expect(phone.iphone!.snapshot.online && f.world.storedPushes(for: token).isEmpty)
        #expect(f.world.deliveries(limit: 10).events.map(\.disposition) == [.stored, .delivered])

        let loose = DeviceToken(hex: "0a0b")!
        #expect(f.world.holder(ofAPNsToken: loose) == nil)
        #expect(post("/apns/tokens/0a0b/offline") == 200)
        #expect(!f.world.isReachable(loose) && !f.world.apns.isDeviceOnline(loose))
    }

    @Test func theFCMSectionBuildsAnFCMGatewayAndItsEndpointOtherwise404s() throws {
        let f = try WorldFixture()
        let answer = Mutex<HTTPResponse?>(nil)
        f.world.handler(for: .fcm).handle(
            HTTPRequest(
                version: .http2, method: "POST", path: "/token", authority: "x", scheme: "https", headers: [], body: [],
                streamID: 1),
            context: BridgeFixture.connection(id: 1),
            responder: HTTPResponder { r in answer.withLock { $0 = r } })
        #expect(answer.withLock { $0?.status } == 404)

        let text =
            WorldFixture.yaml + """

                fcm:
                  projects: [{ id: demo-project, number: "123456789012" }]
                """
        let world = try WorldHost(try WorldFixture.declaration(text), clock: ManualClock(start: WorldFixture.start))
        #expect(world.fcm?.project("demo-project") != nil)
        #expect(world.fcmLog().isEmpty)
    }

    @Test func aRepeatedDeviceNameIsAnErrorAtTheName() throws {
        let text = """
            devices:
              - { name: d, udid: u }
              - { name: d, udid: v }
            """
        do {
            _ = try WorldFixture.declaration(text)
            Issue.record("decoded")
        } catch let error as SourceError {
            #expect(error.line == 3 && error.column == 13, "\(error)")
            #expect(error.expected?.contains("a unique device name; 'd' is declared twice") == true, "\(error)")
        }
    }
}

/// Two worlds on one shared server: each is reached only under its own `/w/<id>`.
@Suite struct WorldServerTests {
    @Test func splitsTheWorldPrefix() {
        #expect(WorldRoutingHandler.split("/w/17/3/device/abc")! == (17, "/3/device/abc"))
        #expect(WorldRoutingHandler.split("/w/3")! == (3, "/"))
        #expect(WorldRoutingHandler.split("/3/device/abc") == nil)
        #expect(WorldRoutingHandler.split("/w/x/3/device/abc") == nil)
    }

    @Test func worldsAreMountedAndUnmounted() throws {
        let routes = WorldRoutes()
        let a = routes.add(try WorldHost(WorldDeclaration())), b = routes.add(try WorldHost(WorldDeclaration()))
        #expect(a != b)
        #expect(routes.world(a) != nil && routes.world(b) != nil)
        routes.remove(a)
        #expect(routes.world(a) == nil, "a finished scenario's prefix answers 404")
        #expect(routes.world(b) != nil)
    }

    @Test func twoMountedWorldsAreIsolated() async throws {
        let authority = try CertificateAuthority.generate(commonName: "world server test CA")
        let leaf = try authority.issueServerCertificate()
        let caPEM = authority.certificatePEM
        let server = try WorldServer(
            tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
            endpoints: [.sandbox, .production], loops: 1)
        defer { server.shutdown() }
        let clock = ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let a = try WorldFixture(clock: clock), b = try WorldFixture(clock: clock)
        let idA = server.mount(a.world), idB = server.mount(b.world)
        let tokenA = try #require(a.world.device(named: "phone")?.tokens[WorldFixture.bundleID])
        let tokenB = try #require(b.world.device(named: "phone")?.tokens[WorldFixture.bundleID])
        #expect(tokenA == tokenB, "same declaration, same seed: the same token in both worlds")

        func send(_ url: String, jwt: String) async throws -> APNsResponse {
            let client = try APNsClient(
                baseURL: url, authentication: .none, trustRoots: .pem([Array(caPEM.utf8)]))
            defer { client.client.shutdown() }
            return try await client.send(
                deviceToken: tokenA.hex, json: #"{"aps":{"alert":"to A"}}"#,
                headers: APNsRequestHeaders(topic: WorldFixture.bundleID, authorizationOverride: "bearer \(jwt)"))
        }
        let answer = try await send(server.url(.sandbox, world: idA), jwt: try a.jwt())
        #expect(answer.status == 200)
        #expect(a.world.gatewayLog().count == 1)
        #expect(b.world.gatewayLog().isEmpty, "a push to world A never reaches world B")
        #expect(b.world.deliveries(limit: 10).events.isEmpty)
        #expect(b.world.device(named: "phone")?.deliveredCount == 0)
        #expect(a.world.device(named: "phone")?.deliveredCount == 1)

        // curl (a third-party HTTP/2 client) through the same router reaches world B only under B's prefix.
        let ca = try TempDirectory("world-server")
        defer { ca.remove() }
        let caFile = try ca.write("ca.pem", caPEM)
        let curl = try runTool(
            "curl",
            [
                "-sS", "--http2", "--cacert", caFile, "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
                "-H", "authorization: bearer \(try b.jwt())", "-H", "apns-topic: \(WorldFixture.bundleID)",
                "-d", #"{"aps":{"alert":"to B"}}"#, server.url(.sandbox, world: idB) + "/3/device/\(tokenB.hex)",
            ])
        #expect(curl.stdout == "200 2", "\(curl)")
        #expect(b.world.gatewayLog().count == 1 && a.world.gatewayLog().count == 1, "each world saw only its own push")

        server.unmount(idB)
        let gone = try await send(server.url(.sandbox, world: idB), jwt: try b.jwt())
        #expect(gone.status == 404)
        let unknown = try await send(server.url(.sandbox, world: 999), jwt: try a.jwt())
        #expect(unknown.status == 404)
        #expect(unknown.http.value("content-type") == "application/json")
        #expect(try JSONValue.parse(unknown.http.body)["reason"]?.stringValue?.contains("no scenario world") == true)
        #expect(b.world.gatewayLog().count == 1, "nothing more reached the unmounted world")
    }

    /// One provider connection carrying one world's pushes, then another's (the runner hands a finished scenario's
    /// connection to the next): each world keeps its own view of the connection. World B's token, issued at another
    /// time, is its first on the connection — 200, where a binding shared with world A would answer
    /// `TooManyProviderTokenUpdates` — while a second token in world A within 20 minutes still gets 429.
    @Test func aReusedConnectionLooksNewToEachWorld() async throws {
        let authority = try CertificateAuthority.generate(commonName: "world server test CA")
        let leaf = try authority.issueServerCertificate()
        let server = try WorldServer(
            tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
            endpoints: [.sandbox], loops: 1)
        defer { server.shutdown() }
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let clockA = ManualClock(start: start)
        let a = try WorldFixture(clock: clockA)
        let b = try WorldFixture(clock: ManualClock(start: start.addingTimeInterval(60)))
        let idA = server.mount(a.world), idB = server.mount(b.world)
        let token = try #require(a.world.device(named: "phone")?.tokens[WorldFixture.bundleID])
        let first = try APNsClient(
            baseURL: server.url(.sandbox, world: idA), authentication: .none,
            trustRoots: .pem([Array(authority.certificatePEM.utf8)]))
        defer { first.client.shutdown() }
        let second = APNsClient(baseURL: server.url(.sandbox, world: idB), authentication: .none, client: first.client)
        func send(_ client: APNsClient, jwt: String) async throws -> APNsResponse {
            try await client.send(
                deviceToken: token.hex, json: #"{"aps":{"alert":"hi"}}"#,
                headers: APNsRequestHeaders(topic: WorldFixture.bundleID, authorizationOverride: "bearer \(jwt)"))
        }
        let toA = try await send(first, jwt: try a.jwt())
        let toB = try await send(second, jwt: try b.jwt())
        #expect(toA.status == 200)
        #expect(toB.status == 200, "world B saw world A's provider token: \(toB.reasonText ?? "")")
        #expect(toB.http.newConnections == 0 && toB.http.localPort == toA.http.localPort, "one connection for both")
        clockA.advance(by: 60)
        let again = try await send(first, jwt: try a.jwt())
        #expect(
            again.status == 429 && again.reason == .tooManyProviderTokenUpdates, "world A still sees its own binding")
    }

    /// A body over the listener's 1 MiB reaches the mounted world's handler, which answers in its service's words
    /// (APNs `413 PayloadTooLarge`, FCM's `400 INVALID_ARGUMENT`), not the transport's bare 413.
    @Test func overLimitBodiesAreAnsweredByTheMountedWorld() throws {
        let authority = try CertificateAuthority.generate(commonName: "world server test CA")
        let leaf = try authority.issueServerCertificate()
        let server = try WorldServer(
            tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
            endpoints: [.sandbox, .fcm], loops: 1)
        defer { server.shutdown() }
        let world = try WorldHost(
            try WorldFixture.declaration(WorldFixture.yaml + "\nfcm:\n  projects:\n    - { id: demo, number: \"1\" }\n")
        )
        let id = server.mount(world)
        let dir = try TempDirectory("world-server-big")
        defer { dir.remove() }
        let caFile = try dir.write("ca.pem", authority.certificatePEM)
        let big = try dir.write("big.json", #"{"aps":{"alert":""# + String(repeating: "x", count: 1 << 20) + #""}}"#)
        func post(_ url: String) throws -> (String, JSONValue) {
            let out = dir.file("out-\(UUID().uuidString)")
            let r = try runTool(
                "curl",
                [
                    "-sS", "--http2", "--cacert", caFile, "-o", out, "-w", "%{http_code}", "--data-binary", "@" + big,
                    url,
                ])
            return (r.stdout, (try? JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))))) ?? .null)
        }
        let apns = try post(server.url(.sandbox, world: id) + "/3/device/" + String(repeating: "ab", count: 32))
        #expect(apns.0 == "413" && apns.1["reason"] == "PayloadTooLarge", "\(apns)")
        let fcm = try post(server.url(.fcm, world: id) + "/v1/projects/demo/messages:send")
        #expect(fcm.0 == "400" && fcm.1[path: "error.status"] == "INVALID_ARGUMENT", "\(fcm)")
        #expect(world.fcm?.log().last?.status == 400)
    }

    /// h2spec (HTTP/2 conformance, 146 cases) against the runner's shared server, built as the runner builds it
    /// (sandbox, production, FCM and channel management over TLS, client certificates requested), into a mounted
    /// world (one channel-management listener: the other is the same handler for the other environment).
    @Test(.disabled(if: H2Spec.skipReason != nil, Comment(rawValue: H2Spec.skipReason ?? "")))
    func theSharedServerPassesAllOfH2Spec() throws {
        _ = try H2Spec.binary()
        let authority = try CertificateAuthority.generate(commonName: "world server test CA")
        let leaf = try authority.issueServerCertificate()
        let server = try WorldServer(
            tls: TLSConfiguration(
                certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM,
                clientCertificates: .request(trustedCAPEMs: [authority.certificatePEM])),
            endpoints: [.sandbox, .production, .fcm, .broadcastSandbox], loops: 2)
        defer { server.shutdown() }
        let world = try WorldHost(
            try WorldFixture.declaration(WorldFixture.yaml + "\nfcm:\n  projects:\n    - { id: demo, number: \"1\" }\n")
        )
        let id = server.mount(world)
        for endpoint in [WorldEndpoint.sandbox, .production, .fcm, .broadcastSandbox] {
            let url = server.url(endpoint, world: id)
            let result = try H2Spec.run(url)
            #expect(result.passed, "h2spec against the shared \(endpoint.rawValue) listener (\(url)):\n\(result)")
        }
    }
}
