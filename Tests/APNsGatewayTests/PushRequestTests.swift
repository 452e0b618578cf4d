import Foundation
import HTTPServer
import HTTPTypes
@testable import PushModel
import Testing

@testable import APNsGateway

/// `APNsGateway.evaluate(_:)` takes a typed `APNsPushRequest`; the HTTP handler and in-process providers (the FCM
/// gateway) both build one. These tests pin that both ways in get the same answer, and that a validated push is not
/// checked again.
@Suite struct PushRequestTests {
    /// The same request built as a provider with no socket would, on a connection of its own.
    func typed(_ r: HTTPRequest, _ f: Fixture, connection: APNsInProcessConnection) -> APNsPushRequest {
        let segment = APNsRequestValidation.tokenSegment(ofPath: r.path)
        return APNsPushRequest(
            environment: .sandbox, method: r.method, path: r.path, tokenSegment: segment,
            token: segment.flatMap { DeviceToken(hex: $0) }, headers: APNsHeaderFields(r.headers),
            loggedHeaders: r.headers, payload: r.body, connection: connection.facts)
    }

    @Test(arguments: [
        [("apns-priority", "10")],
        [("apns-priority", "7")],
        [("apns-push-type", "background"), ("apns-priority", "10")],
        [("apns-topic", "com.example.app.voip")],
        [("apns-topic", "com.other.app")],
        [("apns-id", "NOT-A-UUID")],
        [("apns-expiration", "-1")],
        [("apns-collapse-id", String(repeating: "c", count: 65))],
        [("apns-topic", "com.example.app"), ("apns-topic", "com.example.app")],
        [("apns-push-type", "nonsense")],
    ])
    func theHTTPAdapterAndATypedRequestAnswerAlike(headers: [(String, String)]) {
        let viaHTTP = Fixture(), viaTyped = Fixture()
        let r = viaHTTP.request(headers: headers)
        let http = viaHTTP.send(r)
        let typed = viaTyped.gateway.evaluate(typed(r, viaTyped, connection: APNsInProcessConnection(id: 1)))
        #expect(http.status == typed.status)
        #expect(http.reason == typed.reason)
        let a = viaHTTP.gateway.log(), b = viaTyped.gateway.log()
        #expect(a.count == 1 && b.count == 1)
        #expect(a.first?.headers == b.first?.headers && a.first?.path == b.first?.path)
        #expect(a.first?.pushType == b.first?.pushType && a.first?.topic == b.first?.topic)
    }

    @Test func aBodyOverTheLimitAndAWrongPathAreRefusedAsOnTheWire() {
        let f = Fixture()
        var oversized = f.request()
        oversized.body = []
        oversized.bodyOverLimit = 2 << 20
        #expect(f.send(oversized).reason == "PayloadTooLarge")
        #expect(f.send(f.request(method: "GET")).reason == "MethodNotAllowed")
        let wrongPath = HTTPRequest(version: .http2, method: "POST", path: "/3/devices/ab", headers: [], body: [])
        #expect(f.send(wrongPath).reason == "BadPath")
    }

    /// A provider that validates before it decides to send (the FCM gateway) hands the result on: the gateway
    /// trusts it and does not run the header, topic-shape and payload rules again.
    @Test func aValidatedPushIsNotCheckedAgain() {
        let f = Fixture()
        let connection = APNsInProcessConnection(id: 2)
        var push = typed(f.request(), f, connection: connection)
        #expect(APNsRequestValidation.validate(&push) == nil)
        #expect(push.validated?.pushType == .alert)
        // Changed after validation: an unvalidated push would be BadPriority; this one was checked already.
        push.headers.priority = "7"
        #expect(f.gateway.evaluate(push).status == 200)
        push.validated = nil
        #expect(f.gateway.evaluate(push).reason == "BadPriority")
    }

    @Test func validationFindsWhatTheGatewayWouldRefuse() {
        let f = Fixture()
        var badTopic = typed(
            f.request(headers: [("apns-topic", "com.example.app.voip"), ("apns-push-type", "alert")]), f,
            connection: APNsInProcessConnection(id: 3))
        #expect(APNsRequestValidation.validate(&badTopic) == .badTopic)
        #expect(badTopic.validated == nil)
        var empty = typed(f.request(body: ""), f, connection: APNsInProcessConnection(id: 4))
        #expect(APNsRequestValidation.validate(&empty) == .payloadEmpty)
    }

    /// The provider token is added after validation; a second `authorization` makes the push DuplicateHeaders
    /// again, so the gateway checks its headers itself.
    @Test func anAuthorizationAddedTwiceUndoesTheValidation() {
        let f = Fixture()
        let jwt = f.jwt()
        var push = APNsPushRequest(
            environment: .sandbox, token: Fixture.sandboxToken,
            fields: [HTTPField("apns-topic", Fixture.topic), HTTPField("apns-push-type", "alert")],
            payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8), connection: APNsInProcessConnection(id: 5).facts)
        #expect(APNsRequestValidation.validate(&push) == nil)
        var once = push
        once.setAuthorization("bearer \(jwt)")
        #expect(once.validated?.authorization == "bearer \(jwt)")
        #expect(f.gateway.evaluate(once).status == 200)
        var twice = once
        twice.setAuthorization("bearer \(jwt)")
        #expect(twice.validated == nil)
        #expect(f.gateway.evaluate(twice).reason == "DuplicateHeaders")
        #expect(f.gateway.log().last?.headers.filter { $0.name == "authorization" }.count == 2)
    }
}
