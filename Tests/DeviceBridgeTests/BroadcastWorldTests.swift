@testable import APNsGateway
@testable import DeviceBridge
import Foundation
@testable import HTTPClient
@testable import HTTPServer
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing

/// The channel-management API as a world's endpoint (`WorldEndpoint.broadcastSandbox`/`…Production`): on the
/// world's own TLS listeners, on the runner's shared server, through the CONNECT proxy under Apple's host names,
/// driven by pushcheck's own client and by curl; its requests in the world's read API and the control routes.
@Suite(.serialized) struct BroadcastWorldTests {
    static let ca = try! CertificateAuthority.generate(commonName: "broadcast world test CA")
    static let leaf = try! ca.issueServerCertificate()
    static let dir: TempDirectory = {
        let d = try! TempDirectory.forProcess("broadcast-world")
        try! d.write("ca.pem", ca.certificatePEM)
        return d
    }()
    static var tls: TLSConfiguration {
        TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM)
    }

    static let yaml =
        WorldFixture.yaml + """

            apns:
              broadcast:
                apps: [com.example.app]
                channels:
                  - { bundle_id: com.example.app, channel_id: c3BvcnRzLWZpbmFs, message_storage_policy: 1 }
            """

    static func world() throws -> WorldHost {
        // `apns:` twice would be a YAML error: the fixture's own `apns:` is replaced.
        let text = yaml.replacingOccurrences(of: "apns:\n  max_concurrent_streams: 50\n", with: "")
        return try WorldHost(
            try WorldFixture.declaration(text),
            providerKeys: [
                APNsProviderKey(
                    keyID: WorldFixture.kid, teamID: WorldFixture.team, publicKey: WorldFixture.key.publicKey)
            ])
    }

    static func client(_ url: String) throws -> APNsClient {
        try APNsClient(
            baseURL: url,
            authentication: .token(
                APNsProviderTokenSigner(
                    teamID: WorldFixture.team, keyID: WorldFixture.kid, privateKey: WorldFixture.key)),
            trustRoots: try TrustRoots.pem([Array(ca.certificatePEM.utf8)]), timeout: .seconds(20))
    }

    static let activityWorld = """
        apns:
          broadcast:
            apps: [com.example.app]
            channels:
              - { bundle_id: com.example.app, channel_id: c3BvcnRzLWZpbmFs, message_storage_policy: 1 }
        apps:
          - bundle_id: com.example.app
            team_id: ABCDE12345
            aps_environment: development
            profile: { devices: [00008110-000A1C2E0E12801E], expires: 2099-01-01T00:00:00Z }
            authorization: authorized
            supports_live_activities: true
            live_activities:
              - { attributes: MatchAttributes, attributes_fields: { home: string }, content_state: { score: string } }
        devices:
          - { name: phone, udid: 00008110-000A1C2E0E12801E, ios: "18.2", seed: 7, apps: [com.example.app] }
        """

    /// `POST /devices/{name}/actions` with a `start_activity` on a channel the gateway does not have: ActivityKit
    /// fails the request (Tests/reference/apns.md §8) and the control API answers 422 with why (it answered 200 and
    /// the activity subscribed); a channel the gateway has starts.
    @Test func startingAnActivityOnAnUnknownChannelIsRefused() throws {
        let world = try WorldHost(try WorldFixture.declaration(Self.activityWorld), providerKeys: [])
        defer { world.shutdown() }
        let control = ControlAPI(host: world)
        func start(_ channel: String) -> (status: Int, body: JSONValue?) {
            let body =
                #"[{"launch":"com.example.app"},{"start_activity":{"attributes":{"home":"Lyon"},"#
                + #""content_state":{"score":"0-0"},"channel":"\#(channel)"}}]"#
            let r = control.route(
                HTTPRequest(
                    version: .http1_1, method: "POST", path: "/devices/phone/actions", body: Array(body.utf8)))
            return (r.status, try? JSONValue.parse(r.body))
        }
        let unknown = start("bm8tc3VjaC1jaGFubmVs")
        #expect(unknown.status == 422, "\(String(describing: unknown.body))")
        #expect(
            unknown.body?["error"]?.stringValue?.contains("bm8tc3VjaC1jaGFubmVs is not a valid channel") == true,
            "\(String(describing: unknown.body))")
        #expect(unknown.body?["index"] == 1)
        let known = start("c3BvcnRzLWZpbmFs")
        #expect(known.status == 200, "\(String(describing: known.body))")
    }

    @Test func ownListenersWithPushchecksClient() async throws {
        let world = try Self.world()
        defer { world.shutdown() }
        var plan = WorldListenPlan(tls: Self.tls)
        plan.productionPort = nil
        plan.broadcastSandboxPort = 0
        plan.broadcastProductionPort = 0
        let listeners = try world.start(plan)
        let manage = try #require(listeners.url("broadcast_sandbox"))
        #expect(world.ownListenerURL("broadcast_production") == listeners.url("broadcast_production"))
        let channels = APNsChannelClient(try Self.client(manage))
        let created = try await channels.create(bundleID: WorldFixture.bundleID, messageStoragePolicy: 1)
        #expect(created.status == 201, "\(created.http.body)")
        let id = try #require(created.channelID)
        #expect(created.requestID.map(APNsRequestValidation.isCanonicalLowercaseUUID) == true)
        let read = try await channels.read(bundleID: WorldFixture.bundleID, channelID: id)
        #expect(read.status == 200 && read.http.jsonBody?["push-type"] == "LiveActivity")
        let list = try await channels.list(bundleID: WorldFixture.bundleID)
        #expect(list.http.jsonBody == ["channels": ["c3BvcnRzLWZpbmFs", .string(id)]])
        let other = try await channels.list(bundleID: "com.example.nobroadcast")
        #expect(other.status == 400 && other.broadcastReason == .featureNotEnabled)

        let push = try Self.client(try #require(listeners.url("sandbox")))
        let sent = try await push.broadcast(
            bundleID: WorldFixture.bundleID, channelID: id,
            payload: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":3}}}"#.utf8),
            headers: APNsRequestHeaders(pushType: .liveactivity, priority: .conserve))
        #expect(sent.status == 200 && sent.requestID != nil && sent.apnsID != nil)
        #expect(world.storedBroadcast(channelID: id, environment: .sandbox)?.json[path: "aps.content-state.eta"] == 3)
        let deleted = try await channels.delete(bundleID: WorldFixture.bundleID, channelID: id)
        #expect(deleted.status == 204)

        let log = world.channelLog(id)
        #expect(log.map(\.method) == ["POST", "GET", "POST", "DELETE"])
        #expect(log.map(\.path)[2] == "/4/broadcasts/apps/com.example.app")
        #expect(world.broadcastChannels.map(\.id) == ["c3BvcnRzLWZpbmFs"])
        // The control endpoint reads the same log and channels.
        let control = ControlAPI(host: world)
        let page = control.route(HTTPRequest(version: .http1_1, method: "GET", path: "/apns/log?channel_id=\(id)"))
        #expect(try JSONValue.parse(page.body)["entries"]?.arrayValue?.count == 4)
        let made = control.route(
            HTTPRequest(
                version: .http1_1, method: "POST", path: "/apns/channels",
                body: Array(#"{"bundle_id":"com.example.app","message_storage_policy":0}"#.utf8)))
        #expect(made.status == 201, "\(String(decoding: made.body, as: UTF8.self))")
        let all = try JSONValue.parse(
            control.route(HTTPRequest(version: .http1_1, method: "GET", path: "/apns/channels")).body)
        #expect(all["channels"]?.arrayValue?.map { $0["message_storage_policy"] } == [1, 0])
        let refused = control.route(
            HTTPRequest(
                version: .http1_1, method: "POST", path: "/apns/channels",
                body: Array(#"{"bundle_id":"com.example.other","message_storage_policy":0}"#.utf8)))
        #expect(refused.status == 403 && (try? JSONValue.parse(refused.body))?["reason"] == "FeatureNotEnabled")
    }

    /// Apple's own curl samples, unchanged but for the host: through the world's CONNECT proxy, under Apple's
    /// channel-management host name and port.
    @Test func applesCurlSamplesThroughTheProxy() throws {
        let world = try Self.world()
        defer { world.shutdown() }
        var plan = WorldListenPlan(tls: Self.tls)
        plan.broadcastSandboxPort = 0
        _ = try world.start(plan)
        let proxy = try world.startProxy()
        let jwt = try JWT.apnsProviderToken(
            teamID: WorldFixture.team, keyID: WorldFixture.kid, issuedAt: Int(Date().timeIntervalSince1970),
            key: WorldFixture.key)
        let create = try runTool(
            "curl",
            [
                "-sS", "-D", "-", "--proxy", proxy.url, "--cacert", Self.dir.file("ca.pem"), "--http2",
                "--header", "authorization: bearer \(jwt)",
                "--header", "apns-request-id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301",
                "--data", #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#,
                "https://api-manage-broadcast.sandbox.push.apple.com:2195/1/apps/com.example.app/channels",
            ])
        #expect(create.stdout.contains("\r\nHTTP/2 201"), "the CONNECT answer, then APNs's: \(create)")
        #expect(create.stdout.contains("apns-request-id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301"))
        let id = try #require(
            create.stdout.split(separator: "\r\n").first { $0.hasPrefix("apns-channel-id: ") }?.dropFirst(17))
        let send = try runTool(
            "curl",
            [
                "-sS", "-D", "-", "--proxy", proxy.url, "--cacert", Self.dir.file("ca.pem"), "--http2",
                "--header", "apns-channel-id: \(id)", "--header", "apns-push-type: liveactivity",
                "--header", "apns-priority: 10", "--header", "authorization: bearer \(jwt)",
                "--data", #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"eta":4}}}"#,
                "https://api.sandbox.push.apple.com/4/broadcasts/apps/com.example.app",
            ])
        #expect(send.stdout.contains("\r\nHTTP/2 200"), "\(send)")
        #expect(send.stdout.contains("apns-request-id: "))
        // The production channel host has no listener in this world: the proxy says so.
        let prod = try runTool(
            "curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--proxy", proxy.url, "--cacert",
                Self.dir.file("ca.pem"),
                "https://api-manage-broadcast.push.apple.com:2196/1/apps/com.example.app/all-channels",
            ])
        #expect(prod.status != 0 && prod.stderr.contains("502"), "\(prod)")
        // Apple's ports only: the sandbox channel host on the production port is refused.
        let wrongPort = try runTool(
            "curl",
            [
                "-sS", "--proxy", proxy.url, "--cacert", Self.dir.file("ca.pem"),
                "https://api-manage-broadcast.sandbox.push.apple.com:2196/1/apps/com.example.app/all-channels",
            ])
        #expect(wrongPort.stderr.contains("403"), "\(wrongPort)")
    }

    /// The runner's shared server mounts a world's channel-management endpoint under `/w/<id>` like its others.
    @Test func sharedServerEndpoints() async throws {
        let server = try WorldServer(
            tls: Self.tls, endpoints: [.sandbox, .broadcastSandbox, .broadcastProduction], loops: 1)
        defer { server.shutdown() }
        let world = try Self.world()
        defer { world.shutdown() }
        let id = server.mount(world)
        let channels = APNsChannelClient(try Self.client(server.url(.broadcastProduction, world: id)))
        let created = try await channels.create(bundleID: WorldFixture.bundleID, messageStoragePolicy: 0)
        #expect(created.status == 201)
        let channel = try #require(created.channelID)
        #expect(world.apns.channel(channel, environment: .production)?.storagePolicy == .noMessageStored)
        let sandbox = APNsChannelClient(try Self.client(server.url(.broadcastSandbox, world: id)))
        let list = try await sandbox.list(bundleID: WorldFixture.bundleID)
        #expect(list.http.jsonBody == ["channels": ["c3BvcnRzLWZpbmFs"]], "environments are not shared")
    }
}
