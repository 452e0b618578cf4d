import Foundation
@testable import HTTPServer
@testable import PushModel
import Testing

@testable import APNsGateway

@Suite struct RequestValidationTests {
    let f = Fixture()

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var method = "POST"
        var token = Fixture.sandboxToken.hex
        var omit: Set<String> = []
        var extra: [(String, String)] = []
        var body = #"{"aps":{"alert":"hi"}}"#
        var expected: APNsReason?
    }

    static let big = "{\"a\":\"" + String(repeating: "x", count: 4090) + "\"}"  // 4098 bytes
    static let voipOK = "{\"a\":\"" + String(repeating: "x", count: 5000) + "\"}"
    static let voipBig = "{\"a\":\"" + String(repeating: "x", count: 5115) + "\"}"  // 5123 bytes

    static let cases: [Case] = [
        Case(description: "valid alert"),
        Case(description: "GET", method: "GET", expected: .methodNotAllowed),
        Case(description: "PUT", method: "PUT", expected: .methodNotAllowed),
        Case(description: "empty token", token: "", expected: .missingDeviceToken),
        Case(description: "non-hex token", token: "zz" + String(repeating: "ab", count: 31), expected: .badDeviceToken),
        Case(description: "odd-length token", token: "abc", expected: .badDeviceToken),
        Case(description: "extra path segment", token: "ab/cd", expected: .badPath),
        Case(
            description: "duplicate topic",
            extra: [("apns-topic", "com.example.app"), ("apns-topic", "com.example.app")], expected: .duplicateHeaders),
        Case(
            description: "duplicate authorization",
            extra: [("authorization", "bearer x"), ("authorization", "bearer y")], expected: .duplicateHeaders),
        Case(
            description: "duplicate apns-priority", extra: [("apns-priority", "10"), ("apns-priority", "10")],
            expected: .duplicateHeaders),
        Case(
            description: "uppercase apns-id", extra: [("apns-id", "3F2504E0-4F89-11D3-9A0C-0305E82C3301")],
            expected: .badMessageId),
        Case(description: "short apns-id", extra: [("apns-id", "3f2504e0-4f89-11d3-9a0c")], expected: .badMessageId),
        Case(description: "lowercase apns-id", extra: [("apns-id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301")]),
        Case(description: "expiration text", extra: [("apns-expiration", "tomorrow")], expected: .badExpirationDate),
        Case(description: "expiration negative", extra: [("apns-expiration", "-5")], expected: .badExpirationDate),
        Case(description: "expiration zero", extra: [("apns-expiration", "0")]),
        Case(description: "priority 7", extra: [("apns-priority", "7")], expected: .badPriority),
        Case(description: "priority 1", extra: [("apns-priority", "1")]),
        Case(description: "priority 5", extra: [("apns-priority", "5")]),
        Case(
            description: "background priority 10", extra: [("apns-push-type", "background"), ("apns-priority", "10")],
            expected: .badPriority),
        Case(description: "background priority 5", extra: [("apns-push-type", "background"), ("apns-priority", "5")]),
        Case(description: "background default priority", extra: [("apns-push-type", "background")]),
        Case(description: "unknown push type", extra: [("apns-push-type", "banner")], expected: .invalidPushType),
        Case(description: "collapse 64 bytes", extra: [("apns-collapse-id", String(repeating: "c", count: 64))]),
        Case(
            description: "collapse 65 bytes", extra: [("apns-collapse-id", String(repeating: "c", count: 65))],
            expected: .badCollapseId),
        Case(
            description: "collapse 22 UTF-8 é (66 bytes)",
            extra: [("apns-collapse-id", String(repeating: "éé", count: 11) + String(repeating: "c", count: 22))],
            expected: .badCollapseId),
        Case(description: "missing topic with token auth", omit: ["apns-topic"], expected: .missingTopic),
        Case(description: "voip type with bare topic", extra: [("apns-push-type", "voip")], expected: .badTopic),
        Case(
            description: "alert type with voip topic", extra: [("apns-topic", "com.example.app.voip")],
            expected: .badTopic),
        Case(
            description: "voip type with voip topic",
            extra: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")]),
        Case(
            description: "pushtotalk with .voip topic",
            extra: [("apns-push-type", "pushtotalk"), ("apns-topic", "com.example.app.voip")], expected: .badTopic),
        Case(
            description: "widgets",
            extra: [("apns-push-type", "widgets"), ("apns-topic", "com.example.app.push-type.widgets")]),
        Case(
            description: "controls",
            extra: [("apns-push-type", "controls"), ("apns-topic", "com.example.app.push-type.controls")]),
        Case(
            description: "liveactivity",
            extra: [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.app.push-type.liveactivity")]),
        Case(
            description: "location with token auth",
            extra: [("apns-push-type", "location"), ("apns-topic", "com.example.app.location-query")]),
        Case(
            description: "push type inferred from topic", omit: ["apns-push-type"],
            extra: [("apns-topic", "com.example.app.complication")]),
        Case(description: "empty payload", body: "", expected: .payloadEmpty),
        Case(description: "payload is an array", body: "[1]", expected: .payloadEmpty),
        Case(description: "payload not JSON", body: "hello", expected: .payloadEmpty),
        Case(description: "payload 4098 bytes", body: big, expected: .payloadTooLarge),
        Case(
            description: "voip payload 5006 bytes",
            extra: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")], body: voipOK),
        Case(
            description: "voip payload 5123 bytes",
            extra: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")], body: voipBig,
            expected: .payloadTooLarge),
        Case(description: "unknown device token", token: String(repeating: "ef", count: 32), expected: .badDeviceToken),
        Case(description: "production token on sandbox", token: Fixture.productionToken.hex, expected: .badDeviceToken),
        Case(description: "short but valid token unknown", token: "abcd", expected: .badDeviceToken),
        // Check order: method beats path; path beats headers; headers beat auth; auth beats topic; topic beats payload.
        Case(description: "GET with bad path", method: "GET", token: "ab/cd", expected: .methodNotAllowed),
        Case(
            description: "bad token and bad priority", token: "zz", extra: [("apns-priority", "7")],
            expected: .badDeviceToken),
        Case(
            description: "bad priority and no auth", omit: ["authorization"], extra: [("apns-priority", "7")],
            expected: .badPriority),
        Case(
            description: "no auth and no topic", omit: ["authorization", "apns-topic"], expected: .missingProviderToken),
        Case(
            description: "bad topic and empty payload", extra: [("apns-push-type", "voip")], body: "",
            expected: .badTopic),
        Case(
            description: "empty payload and unknown token", token: String(repeating: "ef", count: 32), body: "",
            expected: .payloadEmpty),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) {
        var r = f.request(token: c.token, headers: c.extra, omit: c.omit, body: c.body, method: c.method)
        if c.description == "extra path segment" { r.path = "/3/device/ab/cd" }
        let o = f.send(r)
        #expect(o.appleReason == c.expected, "\(c.description)")
        #expect(o.status == (c.expected?.status ?? 200), "\(c.description)")
    }

    /// APNs answers no HTTP/1.1 request, so by default neither does the mock (it answered 200: a backend whose client
    /// fell back to HTTP/1.1 passed every test and failed in production); `allow_http1: true` answers them.
    @Test func http1OnlyWhenAllowed() {
        var s = f.request()
        s.version = .http1_1
        s.streamID = nil
        let o = f.send(s)
        #expect(o.status == 505)
        #expect(o.reason == APNsGateway.http2RequiredReason)
        #expect(o.actions == [.goAway(errorCode: 0, debugData: [])])
        #expect(f.gateway.log().last?.detail == APNsGateway.http2RequiredDetail)
        #expect(f.consumer.pushes.isEmpty)
        let lenient = Fixture { $0.requireHTTP2 = false }
        var r = lenient.request()
        r.version = .http1_1
        r.streamID = nil
        #expect(lenient.send(r).status == 200)
        #expect(f.send(f.request()).status == 200)
    }

    @Test func badPathShapes() {
        for path in ["/3/devices/ab", "/2/device/ab", "/", "/3/device"] {
            var r = f.request()
            r.path = path
            #expect(f.send(r).appleReason == .badPath, "\(path)")
        }
    }

    @Test func successResponseShape() throws {
        let o = f.send(f.request(headers: [("apns-id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301")]))
        let r = o.response
        #expect(r.status == 200)
        #expect(r.body.isEmpty)
        #expect(r.headers.first { $0.name == "apns-id" }?.value == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        let unique = try #require(r.headers.first { $0.name == "apns-unique-id" }?.value)
        #expect(APNsRequestValidation.isCanonicalLowercaseUUID(unique))
        #expect(!r.headers.contains { $0.name == "content-type" })
    }

    @Test func generatedIDAndNoUniqueIDOnProduction() throws {
        let o = f.send(f.request(token: Fixture.productionToken.hex), endpoint: .production)
        #expect(o.status == 200)
        #expect(APNsRequestValidation.isCanonicalLowercaseUUID(o.apnsID))
        #expect(o.apnsUniqueID == nil)
        #expect(!o.response.headers.contains { $0.name == "apns-unique-id" })
    }

    @Test func errorResponseShape() throws {
        let o = f.send(f.request(headers: [("apns-priority", "7")]))
        let r = o.response
        #expect(r.status == 400)
        #expect(r.headers.first { $0.name == "content-type" }?.value == "application/json")
        #expect(try JSONValue.parse(r.body) == ["reason": "BadPriority"])
        #expect(APNsRequestValidation.isCanonicalLowercaseUUID(r.headers.first { $0.name == "apns-id" }!.value))
        #expect(!r.headers.contains { $0.name == "apns-unique-id" })
    }

    @Test func acceptedPushCarriesTheRequest() throws {
        _ = f.send(
            f.request(
                headers: [("apns-collapse-id", "c1"), ("apns-expiration", "1900000000"), ("apns-priority", "5")],
                body: #"{"aps":{"alert":{"title":"T"}}}"#))
        let p = try #require(f.consumer.pushes.first)
        #expect(p.topic == Fixture.topic)
        #expect(p.pushType == .alert)
        #expect(p.priority == .conserve)
        #expect(p.collapseID == "c1")
        #expect(p.expiration == Date(timeIntervalSince1970: 1_900_000_000))
        #expect(p.json[path: "aps.alert.title"] == "T")
        #expect(p.apnsUniqueID != nil)
        #expect(p.environment == .sandbox)
        #expect(p.receivedAt == f.clock.now())
    }
}
