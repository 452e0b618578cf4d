import Foundation
@testable import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import APNsGateway

@Suite struct ProviderTokenTests {
    let f = Fixture {
        $0.providerKeys += [
            APNsProviderKey(keyID: "KEY2222222", teamID: Fixture.team, publicKey: Fixture.otherKey.publicKey),
            APNsProviderKey(
                keyID: "PRODONLY00", teamID: Fixture.team, publicKey: Fixture.otherKey.publicKey,
                environment: .production),
            APNsProviderKey(
                keyID: "TOPICKEY00", teamID: Fixture.team, publicKey: Fixture.otherKey.publicKey,
                topics: ["com.example.other"]),
            APNsProviderKey(keyID: "OTHERTEAM0", teamID: "OTHERTEAM1", publicKey: Fixture.otherKey.publicKey),
        ]
    }

    func reason(_ authorization: String?, on c: ConnectionContext? = nil) -> APNsReason? {
        var r = f.request(omit: ["authorization"])
        if let authorization { r.headers.append(HTTPField("authorization", authorization)) }
        return f.send(r, on: c).appleReason
    }

    static func segment(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

    @Test func missingBlankOrNotBearer() {
        #expect(reason(nil) == .missingProviderToken)
        #expect(reason("") == .missingProviderToken)
        #expect(reason("bearer ") == .missingProviderToken)
        #expect(reason("basic abc") == .missingProviderToken)
        #expect(reason("Bearer \(f.jwt())") == nil)
    }

    @Test func malformedTokens() {
        let jwt = f.jwt()
        let parts = jwt.split(separator: ".").map(String.init)
        #expect(reason("bearer abc") == .invalidProviderToken)
        #expect(reason("bearer \(parts[0]).\(parts[1])") == .invalidProviderToken)
        #expect(reason("bearer \(parts[0]).!!!.\(parts[2])") == .invalidProviderToken)
        #expect(reason("bearer \(Self.segment("[]")).\(parts[1]).\(parts[2])") == .invalidProviderToken)
    }

    @Test func tamperedSignatureAndClaims() {
        let parts = f.jwt().split(separator: ".").map(String.init)
        var sig = Base64URL.decode(parts[2])!
        sig[10] ^= 0x01
        #expect(reason("bearer \(parts[0]).\(parts[1]).\(Base64URL.encode(sig))") == .invalidProviderToken)
        let now = Int(f.clock.now().timeIntervalSince1970)
        let forged = Self.segment(#"{"iss":"TEAM123456","iat":\#(now + 1)}"#)
        #expect(reason("bearer \(parts[0]).\(forged).\(parts[2])") == .invalidProviderToken)
    }

    @Test func algorithmsOtherThanES256() throws {
        let now = Int(f.clock.now().timeIntervalSince1970)
        let claims = Self.segment(#"{"iss":"TEAM123456","iat":\#(now)}"#)
        let none = Self.segment(#"{"alg":"none","kid":"KEY1234567"}"#)
        #expect(reason("bearer \(none).\(claims).") == .invalidProviderToken)
        // HS256 keyed with the public key bytes (the classic confusion attack) must not pass.
        let hs = Self.segment(#"{"alg":"HS256","kid":"KEY1234567"}"#)
        #expect(
            reason("bearer \(hs).\(claims).\(Base64URL.encode([UInt8](repeating: 1, count: 32)))")
                == .invalidProviderToken)
        let rsa = try RSAPrivateKey.generate(bits: 2048)
        let rs = try JWT.signRS256(claims: ["iss": Fixture.team, "iat": now], keyID: Fixture.kid, key: rsa)
        #expect(reason("bearer \(rs)") == .invalidProviderToken)
    }

    @Test func unknownKidAndWrongTeam() {
        #expect(reason("bearer \(f.jwt(kid: "NOSUCHKEY0"))") == .invalidProviderToken)
        #expect(reason("bearer \(f.jwt(team: "WRONGTEAM0"))") == .invalidProviderToken)
        // Right kid, signed by another key.
        #expect(reason("bearer \(f.jwt(key: Fixture.otherKey))") == .invalidProviderToken)
    }

    @Test func expiryBoundary() {
        #expect(reason("bearer \(f.jwt(age: 3600))") == nil)
        #expect(reason("bearer \(f.jwt(age: 3601))") == .expiredProviderToken)
        // Same token on the same connection expires as the clock moves.
        let c = Fixture.connection()
        let jwt = f.jwt()
        #expect(reason("bearer \(jwt)", on: c) == nil)
        f.clock.advance(by: 3600)
        #expect(reason("bearer \(jwt)", on: c) == nil)
        // Counted in whole seconds, as `iat` is and as `jwt --verify` counts: 3600 s old for the whole of that second.
        f.clock.advance(by: 0.9)
        #expect(reason("bearer \(jwt)", on: c) == nil)
        f.clock.advance(by: 0.1)
        #expect(reason("bearer \(jwt)", on: c) == .expiredProviderToken)
        // Far-future iat is not a valid token.
        #expect(reason("bearer \(f.jwt(age: -3700))") == .invalidProviderToken)
    }

    @Test func environmentScopedKey() {
        let jwt = f.jwt(kid: "PRODONLY00", key: Fixture.otherKey)
        #expect(reason("bearer \(jwt)") == .badEnvironmentKeyIdInToken)
        var r = f.request(token: Fixture.productionToken.hex, jwt: jwt)
        r.headers = r.headers.filter { $0.name != "x" }
        #expect(f.send(r, endpoint: .production).status == 200)
    }

    @Test func unrelatedKeyOnBoundConnection() {
        let c = Fixture.connection()
        #expect(reason("bearer \(f.jwt())", on: c) == nil)
        f.clock.advance(by: 21 * 60)
        // Topic-specific key of the same team: unrelated to the team key bound first.
        #expect(reason("bearer \(f.jwt(kid: "TOPICKEY00", key: Fixture.otherKey))", on: c) == .unrelatedKeyIdInToken)
        #expect(
            reason("bearer \(f.jwt(kid: "OTHERTEAM0", team: "OTHERTEAM1", key: Fixture.otherKey))", on: c)
                == .unrelatedKeyIdInToken)
        // The team's second team-scoped key is related (rotation).
        #expect(reason("bearer \(f.jwt(kid: "KEY2222222", key: Fixture.otherKey))", on: c) == nil)
        // A fresh connection may use any valid key.
        #expect(reason("bearer \(f.jwt(kid: "OTHERTEAM0", team: "OTHERTEAM1", key: Fixture.otherKey))") == nil)
    }

    @Test func tokenUpdateRate() {
        let c = Fixture.connection()
        let first = f.jwt()
        #expect(reason("bearer \(first)", on: c) == nil)
        f.clock.advance(by: 60)
        let second = f.jwt()
        #expect(reason("bearer \(second)", on: c) == .tooManyProviderTokenUpdates)
        #expect(reason("bearer \(first)", on: c) == nil)
        f.clock.advance(by: 20 * 60 - 61)
        #expect(reason("bearer \(second)", on: c) == .tooManyProviderTokenUpdates)
        f.clock.advance(by: 1)
        #expect(reason("bearer \(second)", on: c) == nil)
        #expect(
            f.gateway.log(matching: APNsLogQuery(status: 429)).map(\.reason) == [
                "TooManyProviderTokenUpdates", "TooManyProviderTokenUpdates",
            ])
    }

    @Test func reSigningTheSameClaimsIsNotAnUpdate() {
        let c = Fixture.connection()
        let a = f.jwt()
        let b = f.jwt()
        #expect(a != b)  // ES256 signatures are randomized
        #expect(reason("bearer \(a)", on: c) == nil)
        #expect(reason("bearer \(b)", on: c) == nil)
        #expect(c.withValue(ProviderTokenBindingKey.self) { $0.switches } == 1)
    }

    @Test func topicScopes() {
        let topicKey = f.jwt(kid: "TOPICKEY00", key: Fixture.otherKey)
        #expect(reason("bearer \(topicKey)") == .topicDisallowed)
        let g = Fixture { $0.teamTopics = [Fixture.team: ["com.example.other"]] }
        #expect(g.send(g.request()).appleReason == .topicDisallowed)
        g.gateway.setTeamTopics(Fixture.team, [Fixture.topic])
        #expect(g.send(g.request()).status == 200)
        // Token registered for another app of the same team.
        g.gateway.setTeamTopics(Fixture.team, nil)
        g.gateway.registerToken(
            RegisteredDeviceToken(token: DeviceToken(hex: "0102")!, topic: "com.example.other", environment: .sandbox))
        #expect(g.send(g.request(token: "0102")).appleReason == .deviceTokenNotForTopic)
    }

    @Test func oneStreamUntilValidToken() {
        let c = Fixture.connection()
        #expect(f.gateway.initialMaxConcurrentStreams(for: c) == 1)
        #expect(f.gateway.handler(for: .sandbox).connectionOpened(c) == 1)
        let bad = f.send(f.request(jwt: "x.y.z"), on: c)
        #expect(bad.actions.isEmpty)
        let ok = f.send(f.request(), on: c)
        #expect(ok.actions == [.setMaxConcurrentStreams(1500)])
        // Only the first valid token lifts the limit.
        #expect(f.send(f.request(), on: c).actions.isEmpty)
        #expect(f.gateway.initialMaxConcurrentStreams(for: Fixture.connection(certificate: [0x30])) == 1500)
        let open = Fixture {
            $0.oneStreamUntilValidToken = false; $0.maxConcurrentStreams = 100
        }
        #expect(open.gateway.initialMaxConcurrentStreams(for: Fixture.connection()) == 100)
    }

    @Test func bindingStoredOnTheConnection() {
        let c = Fixture.connection()
        _ = f.send(f.request(), on: c)
        let state = c.withValue(ProviderTokenBindingKey.self) { $0 }
        #expect(state.teamID == Fixture.team)
        #expect(state.boundKeyID == Fixture.kid)
        #expect(state.switches == 1)
        #expect(f.gateway.log().last?.auth == .token(teamID: Fixture.team, keyID: Fixture.kid))
    }
}
