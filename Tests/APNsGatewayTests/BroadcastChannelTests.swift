import Foundation
@testable import HTTPServer
@testable import PushModel
import Testing
@testable import YAMLSource

@testable import APNsGateway

/// The channel-management API ("Sending channel management requests to APNs"; Tests/reference/apns.md §8.1) and the
/// `broadcast:` config.
@Suite struct BroadcastChannelTests {
    let f = BroadcastFixture()
    let path = BroadcastFixture.channelsPath

    @Test func createReadListDelete() throws {
        let created = f.channelRequest(
            "POST", path, headers: [("apns-request-id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301")],
            body: BroadcastFixture.createBody)
        #expect(created.status == 201)
        let id = try #require(created.createdChannelID)
        #expect(BroadcastChannelID.isValid(id))
        #expect(BroadcastChannelID.decode(id)?.count == 16)
        let response = created.response
        #expect(response.body.isEmpty)
        #expect(response.headers.first { $0.name == "apns-channel-id" }?.value == id)
        #expect(
            response.headers.first { $0.name == "apns-request-id" }?.value == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")

        let read = f.channelRequest("GET", path, channel: id)
        #expect(read.status == 200)
        #expect(try JSONValue.parse(read.response.body) == ["message-storage-policy": 1, "push-type": "LiveActivity"])
        #expect(read.response.headers.first { $0.name == "content-type" }?.value == "application/json")

        let list = f.channelRequest("GET", "/1/apps/\(Fixture.topic)/all-channels")
        #expect(list.status == 200)
        #expect(
            try JSONValue.parse(list.response.body)
                == ["channels": .array([BroadcastFixture.stored, BroadcastFixture.unstored, id].map(JSONValue.string))])

        let deleted = f.channelRequest("DELETE", path, channel: id)
        #expect(deleted.status == 204)
        #expect(deleted.response.body.isEmpty)
        #expect(f.channelRequest("GET", path, channel: id).broadcastReason == .channelNotRegistered)
        #expect(f.channelRequest("DELETE", path, channel: id).broadcastReason == .channelNotRegistered)
        // Deleted ids are never handed out again.
        let again = try #require(f.channelRequest("POST", path, body: BroadcastFixture.createBody).createdChannelID)
        #expect(again != id)
    }

    /// A push or a broadcast send sent to the channel-management listener: still 404 BadPath (that host lists no
    /// such path), and the detail points at the push listener (it was null), as channel-management paths on the
    /// push listener point here.
    @Test func pushPathsOnTheChannelListenerPointAtThePushListener() throws {
        for path in ["/3/device/" + String(repeating: "ab", count: 32), "/4/broadcasts/apps/\(Fixture.topic)"] {
            let o = f.channelRequest("POST", path, body: #"{"aps":{"alert":"hi"}}"#)
            #expect(o.status == 404 && o.reason == "BadPath", "\(path)")
            let detail = try #require(f.gateway.log().last?.detail, "\(path)")
            #expect(detail.contains("go to the push listener (`apns` in serve's ready line"), "\(detail)")
        }
        _ = f.channelRequest("POST", "/1/apps/\(Fixture.topic)/channels/abc")
        #expect(f.gateway.log().last?.detail == nil)
    }

    @Test func environmentsAreNotShared() throws {
        let id = try #require(f.channelRequest("POST", path, body: BroadcastFixture.createBody).createdChannelID)
        let elsewhere = f.channelRequest("GET", path, channel: id, environment: .production)
        #expect(elsewhere.broadcastReason == .channelNotRegistered)
        #expect(f.gateway.log().last?.detail == "the channel exists in sandbox")
        let list = f.channelRequest("GET", "/1/apps/\(Fixture.topic)/all-channels", environment: .production)
        #expect(try JSONValue.parse(list.response.body) == ["channels": [.string(BroadcastFixture.productionOnly)]])
        #expect(f.broadcastToChannel(id, endpoint: .production).reason == "ChannelNotRegistered")
    }

    @Test func theLimitIsPerAppAndEnvironment() {
        let small = BroadcastFixture { $0.broadcast.channelLimit = 2 }
        #expect(
            small.channelRequest("POST", path, body: BroadcastFixture.createBody).broadcastReason
                == .cannotCreateChannelConfig)
        #expect(
            small.channelRequest("POST", path, body: BroadcastFixture.createBody, environment: .production).status
                == 201)
        #expect(
            small.channelRequest("POST", "/1/apps/com.example.other/channels", body: BroadcastFixture.createBody).status
                == 201)
        #expect(small.channelRequest("DELETE", path, channel: BroadcastFixture.unstored).status == 204)
        #expect(small.channelRequest("POST", path, body: BroadcastFixture.createBody).status == 201)
        #expect(BroadcastFixture().gateway.configuration.broadcast.channelLimit == 10_000, "Apple's number by default")
    }

    /// node-apn's README sends the policy as a string and the type lower-case: taken, with a warning in the log.
    @Test func nodeAPNSpellingsAreTakenWithAWarning() throws {
        let o = f.channelRequest("POST", path, body: #"{"message-storage-policy": "0", "push-type": "liveactivity"}"#)
        #expect(o.status == 201)
        let id = try #require(o.createdChannelID)
        #expect(f.gateway.channel(id, environment: .sandbox)?.storagePolicy == .noMessageStored)
        let detail = try #require(f.gateway.log().last?.detail)
        #expect(detail.contains("push-type \"liveactivity\"") && detail.contains("message-storage-policy \"0\""))
    }

    @Test func certificateAuthWorksHere() {
        let o = f.channelRequest("POST", path, body: BroadcastFixture.createBody, cert: 1)
        #expect(o.status == 201)
        #expect(o.auth == .certificate(uid: Fixture.topic))
    }

    @Test func seededIDsRepeat() throws {
        let a = try #require(
            BroadcastFixture().channelRequest("POST", path, body: BroadcastFixture.createBody).createdChannelID)
        let b = try #require(
            BroadcastFixture().channelRequest("POST", path, body: BroadcastFixture.createBody).createdChannelID)
        let c = try #require(
            BroadcastFixture { $0.broadcast.seed = 8 }.channelRequest("POST", path, body: BroadcastFixture.createBody)
                .createdChannelID)
        #expect(a == b)
        #expect(a != c)
    }

    @Test func everyRequestIsLoggedWithItsChannelAndRequestID() throws {
        let id = try #require(f.channelRequest("POST", path, body: BroadcastFixture.createBody).createdChannelID)
        _ = f.channelRequest("GET", path, channel: id)
        _ = f.channelRequest("GET", path, channel: "bm9wZQ==")
        let entries = f.gateway.log(matching: APNsLogQuery(channelID: id))
        #expect(entries.map(\.method) == ["POST", "GET"])
        #expect(entries.map(\.status) == [201, 200])
        #expect(entries.allSatisfy { $0.topic == Fixture.topic && $0.apnsRequestID != nil })
        #expect(entries[0].json["channel_id"] == .string(id))
        #expect(f.gateway.log(matching: APNsLogQuery(channelID: "bm9wZQ==")).first?.reason == "ChannelNotRegistered")
    }

    @Test func faultsAreScopedByRoute() {
        f.gateway.addFault(APNsFault(.reject(.serviceUnavailable), scope: APNsFaultScope(route: .device)))
        #expect(f.channelRequest("POST", path, body: BroadcastFixture.createBody).status == 201)
        f.gateway.clearFaults()
        f.gateway.addFault(APNsFault(.delay(seconds: 0.5), scope: APNsFaultScope(route: .channels), count: 1))
        let slow = f.channelRequest("GET", "/1/apps/\(Fixture.topic)/all-channels")
        #expect(slow.status == 200 && slow.delay == 0.5)
        #expect(f.gateway.log().last?.faultApplied == true)
        f.gateway.addFault(
            APNsFault(.goAway(reason: "Shutdown", afterRequests: 1), scope: APNsFaultScope(route: .channels)))
        let last = f.channelRequest("GET", "/1/apps/\(Fixture.topic)/all-channels")
        #expect(last.actions.contains { if case .goAway = $0 { true } else { false } })
    }

    @Test func resetBringsTheConfiguredChannelsBack() throws {
        let id = try #require(f.channelRequest("POST", path, body: BroadcastFixture.createBody).createdChannelID)
        #expect(f.channelRequest("DELETE", path, channel: BroadcastFixture.stored).status == 204)
        f.gateway.reset()
        #expect(f.gateway.channel(id, environment: .sandbox) == nil)
        #expect(f.gateway.channel(BroadcastFixture.stored, environment: .sandbox)?.bundleID == Fixture.topic)
        #expect(f.gateway.channels.count == 4)
    }

    @Test func controlStyleCreation() {
        let declared = APNsChannelDeclaration(bundleID: Fixture.topic, channelID: "bmV3LWNoYW5uZWw=")
        #expect((try? f.gateway.createChannel(declared).get())?.id == "bmV3LWNoYW5uZWw=")
        #expect(f.gateway.createChannel(declared) == .failure(.badChannelId), "an id exists once")
        #expect(
            f.gateway.createChannel(APNsChannelDeclaration(bundleID: "com.example.nocap"))
                == .failure(.featureNotEnabled))
    }

    // MARK: config

    static func decode(_ yaml: String) throws -> APNsGatewayConfiguration {
        let node = try YAMLLoader.load(string: yaml, file: "serve.yaml")
        var cas: [String] = []
        return try APNsGatewayConfiguration.decode(try node.mapping(), file: "serve.yaml", clientCertificateCAs: &cas)
    }

    @Test func broadcastSection() throws {
        let c = try Self.decode(
            """
            broadcast:
              apps: [com.example.sports]
              channels:
                - { bundle_id: com.example.sports, channel_id: c3BvcnRzLWZpbmFs, message_storage_policy: 1 }
                - { bundle_id: com.example.sports, environment: production, message_storage_policy: 0 }
              max_channels: 20
              rate_limit: { burst: 5, per_second: 2 }
              max_payload_bytes: 5KiB
              seed: 42
            """)
        #expect(c.broadcast.enabledApps == ["com.example.sports"])
        #expect(
            c.broadcast.channels == [
                APNsChannelDeclaration(bundleID: "com.example.sports", channelID: "c3BvcnRzLWZpbmFs"),
                APNsChannelDeclaration(
                    bundleID: "com.example.sports", environment: .production, storagePolicy: .noMessageStored),
            ])
        #expect(c.broadcast.channelLimit == 20)
        #expect(c.broadcast.rateLimit == APNsRateLimit(burst: 5, perSecond: 2))
        #expect(c.broadcast.maxPayloadBytes == 5120)
        #expect(c.broadcast.seed == 42)
        let g = try APNsGateway(configuration: c)
        #expect(g.channels.map(\.environment) == [.sandbox, .production])
        #expect(g.channels.last.map { BroadcastChannelID.isValid($0.id) } == true)
    }

    @Test(arguments: [
        ("broadcast:\n  chanels: []\n", "unknown key 'chanels'"),
        (
            "broadcast:\n  channels:\n    - { bundle_id: a.b, channel_id: 'sports-final', message_storage_policy: 1 }\n",
            "base64"
        ),
        (
            "broadcast:\n  channels:\n    - { bundle_id: a.b, message_storage_policy: 2 }\n",
            "expected 0 (No Message Stored)"
        ),
        ("broadcast:\n  channels:\n    - { bundle_id: a.b }\n", "message_storage_policy"),
        (
            "broadcast:\n  apps: [x.y]\n  channels:\n    - { bundle_id: a.b, message_storage_policy: 1 }\n",
            "broadcast capability"
        ),
        (
            "broadcast:\n  channels:\n    - { bundle_id: a.b.push-type.liveactivity, message_storage_policy: 1 }\n",
            "bare bundle ID"
        ),
        (
            "broadcast:\n  channels:\n    - { bundle_id: a.b, channel_id: YQ==, message_storage_policy: 1 }\n"
                + "    - { bundle_id: a.b, channel_id: YQ==, message_storage_policy: 0 }\n", "declared twice"
        ),
        ("broadcast:\n  max_channels: 0\n", "at least 1"),
    ])
    func mistakesAreReportedWithTheirPlace(_ yaml: String, _ expected: String) {
        do {
            _ = try Self.decode(yaml)
            Issue.record("accepted: \(yaml)")
        } catch let error as SourceError {
            #expect(error.rendered(color: false).contains(expected), "\(error.rendered(color: false))")
            #expect(error.range.line >= 2)
        } catch {
            Issue.record("not a SourceError: \(error)")
        }
    }

    @Test func faultsTakeARouteAndTheBroadcastReasons() throws {
        let c = try Self.decode(
            "faults:\n  - { respond: 503, reason: Service Unavailable, route: channels }\n  - { respond: 400, reason: FeatureNotEnabled, route: broadcast }\n"
        )
        #expect(c.faults.map(\.scope.route) == [.channels, .broadcast])
        #expect(throws: SourceError.self) { try Self.decode("faults:\n  - { respond: 503, route: channel }\n") }
    }
}

extension BroadcastFixture {
    /// A Live Activity update broadcast on `channel` (no `apns-expiration`).
    func broadcastToChannel(_ channel: String, endpoint: APNsEnvironment = .sandbox) -> APNsOutcome {
        send(broadcast(channel: channel, omit: ["apns-expiration"]), endpoint: endpoint)
    }
}
