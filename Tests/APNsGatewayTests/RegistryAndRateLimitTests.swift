import Foundation
import HTTPServer
@testable import PushModel
import Testing

@testable import APNsGateway

@Suite struct RegistryAndRateLimitTests {
    @Test func unregisteredGives410WithTimestamp() throws {
        let f = Fixture()
        let when = Date(timeIntervalSince1970: 1_700_000_000.123)
        #expect(f.gateway.unregisterToken(Fixture.sandboxToken, at: when))
        let o = f.send(f.request())
        #expect(o.status == 410)
        #expect(o.appleReason == .unregistered)
        #expect(try JSONValue.parse(o.response.body) == ["reason": "Unregistered", "timestamp": 1_700_000_000_123])
        #expect(!f.gateway.unregisterToken(DeviceToken(hex: "00")!))
    }

    @Test func expiredToken() throws {
        let f = Fixture()
        let expiry = f.clock.now().addingTimeInterval(5)
        f.gateway.registerToken(
            RegisteredDeviceToken(
                token: Fixture.sandboxToken, topic: Fixture.topic, environment: .sandbox, expiresAt: expiry))
        #expect(f.send(f.request()).status == 200)
        f.clock.advance(by: 5)
        let o = f.send(f.request())
        #expect(o.appleReason == .expiredToken)
        #expect(o.status == 410)
        #expect(try JSONValue.parse(o.response.body)["timestamp"]?.doubleValue == expiry.timeIntervalSince1970 * 1000)
    }

    @Test func registerAndRemoveAtRuntime() {
        let f = Fixture()
        let t = DeviceToken(hex: "deadbeef")!
        #expect(f.send(f.request(token: t.hex)).appleReason == .badDeviceToken)
        f.gateway.registerToken(RegisteredDeviceToken(token: t, topic: Fixture.topic, environment: .sandbox))
        #expect(f.send(f.request(token: "DEADBEEF")).status == 200)
        #expect(
            f.send(
                f.request(token: t.hex, headers: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")])
            ).status == 200)
        f.gateway.removeToken(t)
        #expect(f.send(f.request(token: t.hex)).appleReason == .badDeviceToken)
    }

    @Test func acceptUnknownTokensMode() {
        let f = Fixture { $0.acceptUnknownTokens = true }
        #expect(f.send(f.request(token: "0011223344")).status == 200)
        // Known tokens keep their rules.
        #expect(f.send(f.request(token: Fixture.productionToken.hex)).appleReason == .badDeviceToken)
        f.gateway.setAcceptUnknownTokens(false)
        #expect(f.send(f.request(token: "0011223344")).appleReason == .badDeviceToken)
    }

    @Test func rateLimitPerToken() {
        let f = Fixture { $0.rateLimit = APNsRateLimit(burst: 3, perSecond: 1) }
        f.gateway.registerToken(
            RegisteredDeviceToken(token: DeviceToken(hex: "0a0b")!, topic: Fixture.topic, environment: .sandbox))
        let c = Fixture.connection()
        let jwt = f.jwt()
        let statuses = (0..<5).map { _ in f.send(f.request(jwt: jwt), on: c).status }
        #expect(statuses == [200, 200, 200, 429, 429])
        #expect(f.gateway.log().last?.reason == "TooManyRequests")
        // Another token has its own bucket.
        #expect(f.send(f.request(token: "0a0b", jwt: jwt), on: c).status == 200)
        f.clock.advance(by: 1)
        #expect(f.send(f.request(jwt: jwt), on: c).status == 200)
        #expect(f.send(f.request(jwt: jwt), on: c).status == 429)
        f.clock.advance(by: 10)
        #expect((0..<4).map { _ in f.send(f.request(jwt: jwt), on: c).status } == [200, 200, 200, 429])
        f.gateway.setRateLimit(nil)
        #expect((0..<10).allSatisfy { _ in f.send(f.request(jwt: jwt), on: c).status == 200 })
    }

    @Test func rateLimitOffByDefault() {
        let f = Fixture()
        let c = Fixture.connection()
        #expect((0..<50).allSatisfy { _ in f.send(f.request(), on: c).status == 200 })
    }

    @Test func registryPureRules() {
        var r = DeviceTokenRegistry()
        let t = DeviceToken(hex: "aa")!
        r.register(RegisteredDeviceToken(token: t, topic: "com.a", environment: .production))
        let now = Date()
        #expect(r.check(token: t, topic: "com.a", environment: .production, now: now) == .accepted)
        #expect(r.check(token: t, topic: "com.a.voip", environment: .production, now: now) == .accepted)
        #expect(
            r.check(token: t, topic: "com.b", environment: .production, now: now)
                == .rejected(.deviceTokenNotForTopic, timestamp: nil))
        #expect(
            r.check(token: t, topic: "com.a", environment: .sandbox, now: now)
                == .rejected(.badDeviceToken, timestamp: nil))
    }

    /// A token a simulated device registered with its kind: the push types APNs refuses at that kind
    /// (`PushTokenKind.outcome(of:at:)`, Tests/reference/ios-push-types.md §1.2, §1.3), after the bundle check and
    /// before 410; every other type passes (the device drops what it cannot take). A token with no kind (the
    /// configuration's) takes every type.
    @Test func registryAppliesTheTokenKindRule() {
        let now = Date()
        for kind in [nil] + PushTokenKind.allCases.map(Optional.some) {
            var r = DeviceTokenRegistry()
            let t = DeviceToken(hex: "aa")!
            r.register(RegisteredDeviceToken(token: t, topic: "com.a", environment: .production, kind: kind))
            for type in APNsPushType.allCases {
                let topic = "com.a" + type.topicSuffix
                let verdict = r.check(token: t, topic: topic, environment: .production, pushType: type, now: now)
                if let kind, case .refuse(let reason) = PushTokenKind.outcome(of: type, at: kind) {
                    #expect(verdict == .rejected(reason, timestamp: nil), "\(type) at \(kind)")
                } else {
                    #expect(verdict == .accepted, "\(type) at \(kind.map(\.rawValue) ?? "no kind")")
                }
                // Another app's topic is still DeviceTokenNotForTopic, first.
                #expect(
                    r.check(
                        token: t, topic: "com.b" + type.topicSuffix, environment: .production, pushType: type, now: now)
                        == .rejected(.deviceTokenNotForTopic, timestamp: nil))
            }
            // The kind rule comes before 410: a refused type at an uninstalled app's VoIP token is still refused.
            r.unregister(t, at: now.addingTimeInterval(-1))
            let voipAtIt = r.check(token: t, topic: "com.a.voip", environment: .production, pushType: .voip, now: now)
            #expect(
                voipAtIt
                    == (kind == .apns
                        ? .rejected(.deviceTokenNotForTopic, timestamp: nil)
                        : .rejected(.unregistered, timestamp: now.addingTimeInterval(-1))))
        }
    }
}
