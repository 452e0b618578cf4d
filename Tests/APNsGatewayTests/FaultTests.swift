import Foundation
@testable import HTTPServer
@testable import PushModel
import Testing

@testable import APNsGateway

@Suite struct FaultTests {
    let f = Fixture()

    @Test func forcedAnswerForNextNRequests() throws {
        f.gateway.addFault(APNsFault(.reject(.shutdown), count: 2))
        let o = f.send(f.request())
        #expect(o.status == 503)
        #expect(try JSONValue.parse(o.response.body) == ["reason": "Shutdown"])
        #expect(f.send(f.request()).appleReason == .shutdown)
        #expect(f.send(f.request()).status == 200)
        #expect(f.gateway.activeFaults.isEmpty)
        #expect(f.consumer.pushes.count == 1)
    }

    /// Apple's 410 carries `timestamp`, a forced one too (pyapns_client raised `KeyError: 'timestamp'` without it).
    @Test func aForced410CarriesATimestamp() throws {
        f.gateway.addFault(APNsFault(.reject(.unregistered), count: 1))
        let o = f.send(f.request())
        #expect(o.status == 410)
        let body = try JSONValue.parse(o.response.body)
        #expect(body["reason"] == "Unregistered")
        let ms = try #require(body["timestamp"]?.doubleValue, "\(body)")
        #expect(ms == (f.clock.now().timeIntervalSince1970 * 1000).rounded(.down))
        #expect(f.send(f.request()).status == 200)
    }

    @Test func untilClearedAndCustomStatus() {
        let id = f.gateway.addFault(APNsFault(.respond(status: 500, reason: "InternalServerError")))
        #expect((0..<5).allSatisfy { _ in f.send(f.request()).status == 500 })
        f.gateway.removeFault(id: id)
        #expect(f.send(f.request()).status == 200)
        f.gateway.addFault(APNsFault(.reject(.serviceUnavailable)))
        f.gateway.clearFaults()
        #expect(f.send(f.request()).status == 200)
    }

    @Test func scopedByEndpointAndToken() {
        f.gateway.addFault(APNsFault(.reject(.tooManyRequests), scope: APNsFaultScope(endpoint: .production)))
        f.gateway.addFault(
            APNsFault(.reject(.internalServerError), scope: APNsFaultScope(token: DeviceToken(hex: "0102")!)))
        f.gateway.registerToken(
            RegisteredDeviceToken(token: DeviceToken(hex: "0102")!, topic: Fixture.topic, environment: .sandbox))
        #expect(f.send(f.request()).status == 200)
        #expect(f.send(f.request(token: Fixture.productionToken.hex), endpoint: .production).status == 429)
        #expect(f.send(f.request(token: "0102")).status == 500)
        // Token-scoped fault wins over an endpoint-wide one.
        f.gateway.addFault(APNsFault(.reject(.shutdown)))
        #expect(f.send(f.request(token: "0102")).status == 500)
        #expect(f.send(f.request()).status == 503)
    }

    @Test func goAwayAfterNRequests() throws {
        f.gateway.addFault(APNsFault(.goAway(reason: "Shutdown", afterRequests: 3), count: 1))
        let c = Fixture.connection()
        let jwt = f.jwt()
        let outcomes = (0..<4).map { _ in f.send(f.request(jwt: jwt), on: c) }
        #expect(outcomes.map(\.status) == [200, 200, 200, 200])
        #expect(outcomes[0].actions == [.setMaxConcurrentStreams(1500)])
        #expect(outcomes[1].actions.isEmpty)
        guard case .goAway(let code, let debug) = try #require(outcomes[2].actions.first) else {
            Issue.record("expected GOAWAY, got \(outcomes[2].actions)")
            return
        }
        #expect(code == 0)
        #expect(try JSONValue.parse(debug) == ["reason": "Shutdown"])
        #expect(outcomes[3].actions.isEmpty)
    }

    @Test func dropConnection() {
        f.gateway.addFault(APNsFault(.dropConnection, count: 1))
        let o = f.send(f.request())
        #expect(o.actions == [.drop])
        #expect(o.push == nil)
        #expect(f.consumer.pushes.isEmpty)
        #expect(f.gateway.log().last?.reason == "connection dropped (fault)")
        #expect(f.send(f.request()).actions.contains(.drop) == false)
    }

    @Test func latencyIsReportedNotSlept() {
        f.gateway.addFault(APNsFault(.delay(seconds: 0.25)))
        f.gateway.addFault(
            APNsFault(.delay(seconds: 0.5), scope: APNsFaultScope(token: Fixture.sandboxToken), count: 1))
        let o = f.send(f.request())
        #expect(o.delay == 0.75)
        #expect(o.status == 200)
        let entry = f.gateway.log().last!
        #expect(entry.answeredAt.timeIntervalSince(entry.receivedAt) == 0.75)
        #expect(entry.faultApplied)
        #expect(f.send(f.request()).delay == 0.25)
    }

    @Test func handlerRespondsLaterOnATimer() async throws {
        f.gateway.addFault(APNsFault(.delay(seconds: 0.2)))
        let handler = f.gateway.handler(for: .sandbox)
        let box = ResponseBox()
        handler.handle(f.request(), context: Fixture.connection(), responder: HTTPResponder { box.set($0) })
        #expect(box.get() == nil)  // not answered synchronously
        let response = try await box.wait(timeout: 5)
        #expect(response.status == 200)
    }
}

/// Collects one response from an `HTTPResponder`, with a bounded wait.
final class ResponseBox: Sendable {
    private let value = Mutex<HTTPResponse?>(nil)
    func set(_ r: HTTPResponse) { value.withLock { $0 = r } }
    func get() -> HTTPResponse? { value.withLock { $0 } }
    struct Timeout: Error {}
    func wait(timeout: TimeInterval) async throws -> HTTPResponse {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let r = get() { return r }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        // A busy test run can resume this task only after the deadline: look once more before failing.
        if let r = get() { return r }
        throw Timeout()
    }
}

import Synchronization
