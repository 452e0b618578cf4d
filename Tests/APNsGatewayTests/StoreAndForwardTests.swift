import Foundation
@testable import HTTPServer
@testable import PushModel
import Synchronization
import Testing

@testable import APNsGateway

@Suite struct StoreAndForwardTests {
    let f = Fixture()
    var token: DeviceToken { Fixture.sandboxToken }

    func push(_ body: String, expiration: Int64? = nil, topic: String = Fixture.topic, type: String = "alert")
        -> APNsOutcome
    {
        var h = [("apns-topic", topic), ("apns-push-type", type)]
        if let expiration { h.append(("apns-expiration", String(expiration))) }
        return f.send(f.request(headers: h, body: body))
    }

    var now: Int64 { Int64(f.clock.now().timeIntervalSince1970) }

    @Test func onlineDeviceGetsPushAtOnce() {
        #expect(push(#"{"n":1}"#).status == 200)
        #expect(f.consumer.pushes.map { $0.json["n"] } == [1])
        #expect(f.gateway.deliveryHistory.map(\.disposition) == [.delivered])
    }

    /// The history is numbered like the log: sequences keep counting past evictions and `reset`, so a poller's
    /// `after` cursor never sees an event twice.
    @Test func historyIsNumberedAndPagedAcrossEvictionAndReset() {
        var store = StoreAndForward(historyCapacity: 3)
        let at = Date(timeIntervalSince1970: 1_000)
        let p = DeliveredPush(
            environment: .sandbox, token: token, topic: Fixture.topic, pushType: .alert, priority: .immediate,
            apnsID: "A", apnsUniqueID: nil, collapseID: nil, expiration: nil, payload: [], receivedAt: at)
        for _ in 0..<5 { _ = store.accept(p, now: at) }
        #expect(store.history.map(\.sequence) == [3, 4, 5])
        #expect(store.evicted == 2)
        store.reset()
        _ = store.accept(p, now: at)
        #expect(store.history.map(\.sequence) == [6])

        for _ in 0..<4 { #expect(push(#"{"n":1}"#).status == 200) }
        let page = f.gateway.deliveryPage(after: 1, limit: 2)
        #expect(page.events.map(\.sequence) == [2, 3])
        #expect(page.hasMore)
        #expect(page.latestSequence == 4)
        #expect(f.gateway.deliveryPage(limit: 1).events.map(\.sequence) == [4])
    }

    @Test func offlineKeepsLatestPerTopicUntilOnline() {
        f.gateway.setDeviceOnline(token, false)
        #expect(!f.gateway.isDeviceOnline(token))
        #expect(push(#"{"n":1}"#, expiration: now + 100).status == 200)
        f.clock.advance(by: 1)
        #expect(push(#"{"n":2}"#, expiration: now + 100).status == 200)
        f.clock.advance(by: 1)
        #expect(push(#"{"n":3}"#, topic: "com.example.app.voip", type: "voip").status == 200)
        #expect(f.consumer.pushes.isEmpty)
        #expect(f.gateway.storedPushes(for: token).map { $0.json["n"] } == [2, 3])
        f.gateway.setDeviceOnline(token, true)
        #expect(f.consumer.pushes.map { $0.json["n"] } == [2, 3])
        #expect(f.gateway.storedPushes(for: token).isEmpty)
        #expect(
            f.gateway.deliveryHistory.map(\.disposition) == [
                .stored, .superseded, .stored, .stored, .delivered, .delivered,
            ])
    }

    @Test func expirationZeroIsDroppedWhenOffline() {
        f.gateway.setDeviceOnline(token, false)
        #expect(push(#"{"n":1}"#, expiration: 0).status == 200)
        f.gateway.setDeviceOnline(token, true)
        #expect(f.consumer.pushes.isEmpty)
        #expect(f.gateway.deliveryHistory.map(\.disposition) == [.droppedNoStorage])
        // Online, expiration 0 is delivered (one attempt succeeds).
        #expect(push(#"{"n":2}"#, expiration: 0).status == 200)
        #expect(f.consumer.pushes.count == 1)
    }

    /// An `apns-expiration` already past leaves APNs no time to retry: like 0, the push is not stored, and the
    /// stored push before it stays (it was stored, superseding it, and then dropped as expired: nothing delivered).
    @Test func anExpirationAlreadyPastIsDroppedAndSupersedesNothing() {
        f.gateway.setDeviceOnline(token, false)
        _ = push(#"{"n":1}"#, expiration: now + 3600)
        #expect(push(#"{"n":2}"#, expiration: now - 10).status == 200)
        f.gateway.setDeviceOnline(token, true)
        #expect(f.consumer.pushes.map { $0.json["n"] } == [1])
        #expect(f.gateway.deliveryHistory.map(\.disposition) == [.stored, .droppedNoStorage, .delivered])
    }

    @Test func expiredWhileOfflineIsDropped() {
        f.gateway.setDeviceOnline(token, false)
        _ = push(#"{"n":1}"#, expiration: now + 10)
        f.clock.advance(by: 11)
        f.gateway.setDeviceOnline(token, true)
        #expect(f.consumer.pushes.isEmpty)
        #expect(f.gateway.deliveryHistory.map(\.disposition) == [.stored, .droppedExpired])
    }

    @Test func noExpirationIsKeptThirtyDays() {
        f.gateway.setDeviceOnline(token, false)
        _ = push(#"{"n":1}"#)
        f.clock.advance(by: 29 * 24 * 3600)
        f.gateway.setDeviceOnline(token, true)
        #expect(f.consumer.pushes.count == 1)
        f.gateway.setDeviceOnline(token, false)
        _ = push(#"{"n":2}"#)
        f.clock.advance(by: 31 * 24 * 3600)
        f.gateway.setDeviceOnline(token, true)
        #expect(f.consumer.pushes.count == 1)
    }

    @Test func rejectedPushesAreNotDelivered() {
        _ = f.send(f.request(body: ""))
        #expect(f.consumer.pushes.isEmpty)
        #expect(f.gateway.deliveryHistory.isEmpty)
    }

    @Test func devicesOfflineByDefault() {
        let g = Fixture { $0.devicesOnlineByDefault = false }
        _ = g.send(g.request())
        #expect(g.consumer.pushes.isEmpty)
        g.gateway.setDeviceOnline(Fixture.sandboxToken, true)
        #expect(g.consumer.pushes.count == 1)
    }

    @Test func resetReturnsToConfiguration() {
        f.gateway.setDeviceOnline(token, false)
        _ = push(#"{"n":1}"#)
        f.gateway.removeToken(token)
        f.gateway.reset()
        #expect(f.gateway.storedPushes(for: token).isEmpty)
        #expect(f.gateway.isDeviceOnline(token))
        #expect(f.gateway.log().isEmpty)
        #expect(push(#"{"n":2}"#).status == 200)
        #expect(f.consumer.pushes.count == 1)
    }
}

/// A consumer whose device can be switched off: the reachability of a followed token is its answer.
final class SwitchableConsumer: PushDeliveryConsumer {
    let online = Mutex(true)
    let received = Mutex<[DeliveredPush]>([])
    func deliver(_ push: DeliveredPush) -> PushHandOff {
        guard online.withLock({ $0 }) else { return .recipientOffline }
        received.withLock { $0.append(push) }
        return .delivered
    }
}

@Suite struct FollowedReachabilityTests {
    let f = Fixture()
    let device = SwitchableConsumer()
    var token: DeviceToken { Fixture.sandboxToken }

    init() {
        f.gateway.setConsumer(device)
        f.gateway.followRecipientReachability(of: Fixture.sandboxToken)
    }

    @Test func theDevicesAnswerDecidesBetweenDeliveredAndKept() {
        #expect(f.send(f.request(body: #"{"n":1}"#)).status == 200)
        device.online.withLock { $0 = false }
        #expect(f.gateway.isDeviceOnline(token), "the gateway keeps no copy: it hands on and the device answers")
        #expect(f.send(f.request(body: #"{"n":2}"#)).status == 200)
        #expect(f.gateway.storedPushes(for: token).map { $0.json["n"] } == [2])
        device.online.withLock { $0 = true }
        f.gateway.recipientCameOnline(token)
        #expect(device.received.withLock { $0.map { $0.json["n"] } } == [1, 2])
        #expect(f.gateway.deliveryHistory.map(\.disposition) == [.delivered, .stored, .delivered])
    }

    /// Told "online" while the device still answers offline, the release stops at the first refusal (the push is
    /// kept again) instead of handing the same push over and over.
    @Test func aReleaseTheDeviceRefusesStopsAndKeepsThePush() {
        device.online.withLock { $0 = false }
        #expect(f.send(f.request(body: #"{"n":1}"#)).status == 200)
        f.gateway.recipientCameOnline(token)
        #expect(f.gateway.storedPushes(for: token).count == 1)
        #expect(f.gateway.deliveryHistory.map(\.disposition) == [.stored, .stored])
    }
}
