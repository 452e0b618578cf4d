import Foundation
@testable import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import APNsGateway

/// Accept what APNs accepts (a fractional or string `iat`, with a warning) and say why a token is refused.
@Suite struct ProviderTokenExplanationTests {
    let f = Fixture()

    /// The delivery log's entry for one request with `authorization`.
    func entry(_ authorization: String) -> APNsLogEntry? {
        var r = f.request(omit: ["authorization"])
        r.headers.append(HTTPField("authorization", authorization))
        _ = f.send(r)
        return f.gateway.log().last
    }

    func token(iat: Any, kid: String = Fixture.kid) throws -> String {
        try JWT.signES256(
            header: ["alg": "ES256", "kid": kid], claims: ["iss": Fixture.team, "iat": iat], key: Fixture.key)
    }

    var now: Int { Int(f.clock.now().timeIntervalSince1970) }

    @Test func fractionalAndStringIatAreDeliveredWithAWarning() throws {
        let fractional = try #require(entry("bearer \(try token(iat: Double(now) + 0.5))"))
        #expect(fractional.status == 200)
        #expect(fractional.detail?.hasPrefix("iat is a fractional number") == true, "\(fractional)")
        let string = try #require(entry("bearer \(try token(iat: "\(now)"))"))
        #expect(string.status == 200)
        #expect(string.detail?.hasPrefix("iat is a JSON string") == true)
        #expect(string.json["detail"]?.stringValue == string.detail, "the JSON-lines log carries it")
        let integer = try #require(entry("bearer \(try token(iat: now))"))
        #expect(integer.status == 200 && integer.detail == nil)
        // Still refused: a string that is not a number, a boolean.
        #expect(entry("bearer \(try token(iat: "soon"))")?.reason == "InvalidProviderToken")
        #expect(entry("bearer \(try token(iat: true))")?.reason == "InvalidProviderToken")
    }

    @Test func refusalsSayWhichRuleAndByHowMuch() throws {
        let ahead = try #require(entry("bearer \(try token(iat: now + 8 * 3600 + 12 * 60))"))
        #expect(ahead.reason == "InvalidProviderToken")
        #expect(ahead.detail?.hasPrefix("iat is 8 h 12 min ahead of the gateway's clock") == true, "\(ahead)")
        let old = try #require(entry("bearer \(try token(iat: now - 2 * 3600 - 5))"))
        #expect(old.reason == "ExpiredProviderToken")
        #expect(old.detail?.hasPrefix("iat is 2 h 0 min older than the gateway's clock") == true, "\(old)")
        let kid = try #require(entry("bearer \(try token(iat: now, kid: "KEY1234568"))"))
        #expect(kid.detail?.contains("kid KEY1234568 is not a key the gateway knows") == true, "\(kid)")
        #expect(kid.detail?.contains("did you mean KEY1234567?") == true, "\(kid)")
        let unsigned = try #require(entry("bearer \(Base64URL.encode(#"{"alg":"none"}"#)).e30."))
        #expect(unsigned.detail?.contains("alg \"none\"") == true, "\(unsigned)")
        #expect(entry("basic x")?.detail == "the authorization header is not `bearer <JWT>`")
    }

    @Test func durationsReadLikeAPerson() {
        #expect(IssuedAtClaim.describe(seconds: 42) == "42 s")
        #expect(IssuedAtClaim.describe(seconds: -303) == "5 min 3 s")
        #expect(IssuedAtClaim.describe(seconds: 29_520) == "8 h 12 min")
        #expect(IssuedAtClaim.describe(seconds: 3 * 86_400 + 7200) == "3 days 2 h")
        #expect(IssuedAtClaim(string: "1e9") == nil, "exponents are not decimal seconds")
        #expect(IssuedAtClaim(string: "1767225600.9")?.seconds == 1_767_225_600)
    }

    /// Every refusal's log entry has a `detail` (README): the token rules say which rule and by how much; the others
    /// say what their reason means and what to do. They had none (`null`).
    @Test func everyRefusalHasADetail() throws {
        let cases: [(HTTPRequest, APNsReason)] = [
            (f.request(headers: [("apns-push-type", "background"), ("apns-priority", "10")]), .badPriority),
            (f.request(headers: [("apns-push-type", "voip")]), .badTopic),
            (f.request(body: ""), .payloadEmpty),
            (f.request(token: "00ff"), .badDeviceToken),
        ]
        for (request, reason) in cases {
            let o = f.send(request)
            #expect(o.appleReason == reason)
            let entry = try #require(f.gateway.log().last)
            // Background at 10 names the background rule (RefusalDetailTests), not BadPriority's general one.
            let expected =
                reason == .badPriority ? "Background pushes take apns-priority 5 or 1, not 10." : reason.description
            #expect(entry.detail == expected, "\(reason): \(entry)")
        }
        // A rule with its own words keeps them.
        #expect(entry("bearer x.y.z")?.detail != APNsReason.invalidProviderToken.description)
        // A token that passed with a warning (a string iat) before another rule refused the push: the refusal comes
        // first, the warning after it (the warning alone read as the refusal's cause).
        var request = f.request(token: "00ff", omit: ["authorization"])
        request.headers.append(
            HTTPField("authorization", "bearer \(try token(iat: "\(Int(f.clock.now().timeIntervalSince1970))"))"))
        #expect(f.send(request).appleReason == .badDeviceToken)
        let warned = try #require(f.gateway.log().last?.detail)
        #expect(warned.hasPrefix(APNsReason.badDeviceToken.description + " (token: iat is a JSON string"), "\(warned)")
    }
}
