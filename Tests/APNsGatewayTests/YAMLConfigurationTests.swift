import Foundation
@testable import PushCrypto
@testable import PushModel
import PushcheckTestSupport
import Testing
@testable import YAMLSource

@testable import APNsGateway

/// The `apns:` YAML section maps onto the configuration and the gateway behaves accordingly.
@Suite struct YAMLConfigurationTests {
    static func decode(_ yaml: String, files: [String: String] = [:]) throws -> APNsGatewayConfiguration {
        let dir = try TempDirectory("apns-yaml")
        defer { dir.remove() }
        for (name, text) in files { try dir.write(name, text) }
        let file = dir.file("serve.yaml")
        let node = try YAMLLoader.load(string: yaml, file: file)
        var cas: [String] = []
        return try APNsGatewayConfiguration.decode(try node.mapping(), file: file, clientCertificateCAs: &cas)
    }

    @Test func fullSection() throws {
        let token = Fixture.sandboxToken.hex
        let c = try Self.decode(
            """
            keys:
              - { key_id: KEY1234567, team_id: TEAM123456, private_key: AuthKey.p8, environment: sandbox }
            teams: { TEAM123456: [com.example.app] }
            tokens:
              - { token: \(token), topic: com.example.app, environment: sandbox }
              - { token: 0102, topic: com.example.app, unregistered_at: 1700000000123 }
            rate_limit: { burst: 2, per_second: 1 }
            faults:
              - { respond: 503, reason: Shutdown, endpoint: production, count: 3 }
              - { delay: 250ms, token: \(token) }
            log: { capacity: 5 }
            max_concurrent_streams: 10
            certificate_topics: [com.example.app]
            """, files: ["AuthKey.p8": Fixture.key.pkcs8PEM])
        #expect(c.providerKeys.map(\.keyID) == ["KEY1234567"])
        #expect(c.providerKeys.first?.environment == .sandbox)
        #expect(c.providerKeys.first?.publicKey == Fixture.key.publicKey)
        #expect(c.teamTopics == ["TEAM123456": ["com.example.app"]])
        #expect(c.deviceTokens.count == 2)
        #expect(c.deviceTokens[1].unregisteredAt == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(c.rateLimit == APNsRateLimit(burst: 2, perSecond: 1))
        #expect(c.faults.map(\.action) == [.respond(status: 503, reason: "Shutdown"), .delay(seconds: 0.25)])
        #expect(c.logCapacity == 5)
        #expect(c.maxConcurrentStreams == 10)
        #expect(c.certificateTopics == ["com.example.app"])

        let f = Fixture()
        let g = try APNsGateway(configuration: c, clock: f.clock)
        let o = g.evaluate(f.request(), connection: Fixture.connection(), endpoint: .sandbox)
        #expect(o.status == 200)
        #expect(o.delay == 0.25)
        let gone = g.evaluate(f.request(token: "0102"), connection: Fixture.connection(), endpoint: .sandbox)
        #expect(gone.appleReason == .unregistered)
    }

    /// A `respond:` fault answers only what APNs answers: an error status of Apple's tables, with a reason Apple pairs
    /// with it. A 200 with `{"reason":"Shutdown"}`, a 204 (no body, a broken stream) or `503 BadDeviceToken` were
    /// accepted; `respond: 400` answered an arbitrary BadCollapseId.
    @Test func respondFaultsAnswerOnlyStatusesAndReasonsApplePairs() throws {
        func refusal(_ fault: String) -> String? {
            do {
                _ = try Self.decode("faults:\n  - \(fault)\n")
                return nil
            } catch let e as SourceError {
                return "\(e.expected ?? "") \(e.suggestion ?? "")"
            } catch { return "\(error)" }
        }
        for status in [200, 204, 301, 4040, 502] {
            let r = try #require(refusal("{ respond: \(status) }"), "respond: \(status)")
            #expect(
                r.contains("expected a status APNs answers a push with: 400, 403, 404, 405, 410, 413, 429, 500, 503"))
        }
        #expect(refusal("{ respond: 200, reason: Shutdown }")?.contains("use 'delay:'") == true)
        for status in [400, 403, 410] {
            #expect(refusal("{ respond: \(status) }")?.contains("APNs has several \(status) reasons") == true)
        }
        #expect(refusal("{ respond: 410 }")?.contains("ExpiredToken, Unregistered") == true)
        let mismatch = try #require(refusal("{ respond: 503, reason: BadDeviceToken }"))
        #expect(mismatch.contains("APNs sends 'BadDeviceToken' with 400, never with 503"), "\(mismatch)")
        #expect(mismatch.contains("ServiceUnavailable, Shutdown"), "\(mismatch)")
        #expect(refusal("{ respond: 400, reason: Unregistered }")?.contains("with 410, never with 400") == true)

        let accepted = try Self.decode(
            """
            faults:
              - { respond: 404 }
              - { respond: 413 }
              - { respond: 429 }
              - { respond: 503 }
              - { respond: 410, reason: Unregistered }
              - { respond: 503, reason: Service Unavailable, route: channels }
              - { respond: 400, reason: FeatureNotEnabled, route: broadcast }

            """)
        #expect(
            accepted.faults.map(\.action) == [
                .respond(status: 404, reason: "BadPath"), .respond(status: 413, reason: "PayloadTooLarge"),
                .respond(status: 429, reason: "TooManyRequests"), .respond(status: 503, reason: "ServiceUnavailable"),
                .respond(status: 410, reason: "Unregistered"), .respond(status: 503, reason: "Service Unavailable"),
                .respond(status: 400, reason: "FeatureNotEnabled"),
            ])
    }

    /// Two keys under one key ID: the gateway verified tokens with the last only, and a token signed with the first
    /// got InvalidProviderToken with no hint why. Now an error at the second's `key_id`.
    @Test func twoKeysWithOneKeyIDAreAnError() throws {
        let yaml = """
            keys:
              - { key_id: KEY1234567, team_id: TEAM123456, private_key: AuthKey.p8 }
              - { key_id: KEY7654321, team_id: TEAM123456, private_key: AuthKey.p8 }
              - { key_id: KEY1234567, team_id: TEAM123456, private_key: AuthKey.p8 }

            """
        do {
            _ = try Self.decode(yaml, files: ["AuthKey.p8": Fixture.key.pkcs8PEM])
            Issue.record("two keys with one key ID were accepted")
        } catch let e as SourceError {
            #expect(e.message == "two keys have the key ID 'KEY1234567'")
            #expect(e.range.start.line == 4 && e.range.start.column == 15, "\(e)")
            #expect(e.expected == "expected one key per key ID (the first is at line 2)")
        }
    }

    @Test func mistakesAreReportedWithTheirPlace() {
        #expect(throws: SourceError.self) { try Self.decode("tokens:\n  - { token: xyz, topic: a }\n") }
        #expect(throws: SourceError.self) { try Self.decode("faults:\n  - { respond: 503, reason: Nope }\n") }
        #expect(throws: SourceError.self) { try Self.decode("rate_limit: { burst: 0, per_second: 1 }\n") }
        #expect(throws: SourceError.self) { try Self.decode("kyes: []\n") }
        #expect(throws: SourceError.self) {
            try Self.decode("keys:\n  - { key_id: K, team_id: T, private_key: missing.p8 }\n")
        }
    }
}
