import Foundation
@testable import HTTPServer
@testable import PushModel
import Testing

@testable import APNsGateway

/// Broadcast sends ("Sending broadcast push notification requests to APNs"; Tests/reference/apns.md §8.2): the fan-out
/// through the consumer, the storage policies, the answer, the log and the history.
@Suite struct BroadcastSendTests {
    let f = BroadcastFixture()

    @Test func fanOutThroughTheConsumer() throws {
        f.consumer.setSubscribers(3, for: BroadcastFixture.stored)
        let o = f.send(
            f.broadcast(headers: [
                ("apns-request-id", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"),
                ("apns-id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"),
                ("apns-priority", "5"),
            ]))
        #expect(o.status == 200)
        let response = o.response
        #expect(response.body.isEmpty)
        #expect(
            response.headers.first { $0.name == "apns-request-id" }?.value == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        #expect(response.headers.first { $0.name == "apns-id" }?.value == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        let push = try #require(f.consumer.pushes.last)
        #expect(push.channelID == BroadcastFixture.stored)
        #expect(push.token == DeliveredPush.broadcastToken)
        #expect(push.token.hex == "62726f616463617374")
        #expect(push.topic == Fixture.topic + ".push-type.liveactivity")
        #expect(push.pushType == .liveactivity)
        #expect(push.priority == .conserve)
        #expect(push.expiration == Date(timeIntervalSince1970: 0))
        #expect(push.json[path: "aps.content-state.eta"] == 5)
        // Apple's success answer: 200, `apns-request-id` and `apns-unique-id` (Tests/reference/apns.md §8.2).
        let uniqueID = try #require(push.apnsUniqueID)
        #expect(response.headers.first { $0.name == "apns-unique-id" }?.value == uniqueID)
        #expect(uniqueID.count == 36 && uniqueID == uniqueID.lowercased())
        let entry = try #require(f.gateway.log().last)
        #expect(entry.apnsUniqueID == uniqueID)
        #expect(entry.channelID == BroadcastFixture.stored)
        #expect(entry.apnsRequestID == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        #expect(entry.pushType == .liveactivity && entry.topic == Fixture.topic && entry.token == nil)
        #expect(entry.detail == "reached 3 subscribed devices")
        let event = try #require(f.gateway.deliveryHistory.last)
        #expect(event.disposition == .delivered && event.push.channelID == BroadcastFixture.stored)
    }

    @Test func noSubscribersIsStillAccepted() {
        let o = f.send(f.broadcast())
        #expect(o.status == 200)
        #expect(f.gateway.log().last?.detail == "reached 0 subscribed devices")
        #expect(APNsRequestValidation.isCanonicalLowercaseUUID(o.requestID ?? ""))
    }

    /// Most Recent Message Stored: the latest message, for at most 8 hours or until its earlier expiration.
    @Test func mostRecentMessageStored() throws {
        #expect(f.broadcastToChannel(BroadcastFixture.stored).status == 200)
        let first = try #require(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox))
        #expect(
            f.gateway.log().last?.detail == "reached 0 subscribed devices; kept as the channel's most recent message")
        f.clock.advance(by: 60)
        #expect(
            f.send(f.broadcast(omit: ["apns-expiration"], body: #"{"aps":{"event":"update","timestamp":2}}"#)).status
                == 200)
        let second = try #require(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox))
        #expect(second.apnsID != first.apnsID)
        #expect(second.json[path: "aps.timestamp"] == 2)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .production) == nil)
        f.clock.advance(by: 8 * 3600)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) != nil)
        f.clock.advance(by: 1)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) == nil)
    }

    /// "You can't use broadcast push notifications to start a Live Activity" (Tests/reference/apns.md §8); APNs's
    /// answer to one is undocumented, so it is accepted and stored, and the log says iOS ignores it (it said nothing).
    @Test func aBroadcastStartIsAcceptedWithAWarning() throws {
        let body = #"{"aps":{"event":"start","timestamp":3,"attributes-type":"T","attributes":{},"content-state":{}}}"#
        #expect(f.send(f.broadcast(omit: ["apns-expiration"], body: body)).status == 200)
        let detail = try #require(f.gateway.log().last?.detail)
        #expect(detail.contains("aps.event is start: iOS ignores it"), "\(detail)")
        #expect(detail.contains("a late subscriber gets this start"), "\(detail)")
        let stored = f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox)
        #expect(stored?.json[path: "aps.event"] == "start")
        #expect(
            f.send(f.broadcast(channel: BroadcastFixture.unstored, body: body)).status == 200)
        let unstored = try #require(f.gateway.log().last?.detail)
        #expect(unstored.contains("iOS ignores it") && !unstored.contains("late subscriber"), "\(unstored)")
    }

    @Test func anEarlierExpirationShortensTheStorage() {
        let until = Int(f.clock.now().timeIntervalSince1970) + 600
        #expect(f.send(f.broadcast(headers: [("apns-expiration", String(until))])).status == 200)
        f.clock.advance(by: 600)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) != nil)
        f.clock.advance(by: 1)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) == nil)
    }

    /// `apns-expiration: 0` is one attempt: nothing kept, and the channel's most recent message is now that one.
    @Test func expirationZeroKeepsNothing() {
        #expect(f.broadcastToChannel(BroadcastFixture.stored).status == 200)
        #expect(f.send(f.broadcast()).status == 200)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) == nil)
    }

    @Test func noMessageStoredTakesOnlyExpirationZero() {
        #expect(f.send(f.broadcast(channel: BroadcastFixture.unstored)).status == 200)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.unstored, environment: .sandbox) == nil)
        let refused = f.broadcastToChannel(BroadcastFixture.unstored)
        #expect(refused.reason == "BadExpirationDate")
        #expect(f.gateway.log().last?.detail == "the channel stores no messages: only apns-expiration: 0 is allowed")
    }

    @Test func deletingAChannelDropsItsStoredMessage() {
        #expect(f.broadcastToChannel(BroadcastFixture.stored).status == 200)
        #expect(
            f.channelRequest("DELETE", BroadcastFixture.channelsPath, channel: BroadcastFixture.stored).status == 204)
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) == nil)
        #expect(f.broadcastToChannel(BroadcastFixture.stored).reason == "ChannelNotRegistered")
    }

    @Test func certificateAuth() {
        let o = f.send(f.broadcast(omit: ["authorization"]), cert: 1)
        #expect(o.status == 200)
        #expect(o.auth == .certificate(uid: Fixture.topic))
        #expect(f.send(f.broadcast(omit: ["authorization"]), cert: 3).reason == "BadCertificateEnvironment")
    }

    /// The first valid token lifts the one-stream limit, as on the device-token route.
    @Test func firstValidTokenOpensTheStreams() {
        let c = Fixture.connection()
        let first = f.base.send(f.broadcast(), on: c)
        #expect(first.actions == [.setMaxConcurrentStreams(1500)])
        #expect(f.base.send(f.broadcast(), on: c).actions.isEmpty)
    }

    @Test func faultsCoverBroadcasts() {
        f.gateway.addFault(APNsFault(.reject(.serviceUnavailable), scope: APNsFaultScope(token: Fixture.sandboxToken)))
        #expect(f.send(f.broadcast()).status == 200, "a token's fault is not a broadcast's")
        f.gateway.addFault(APNsFault(.reject(.shutdown), scope: APNsFaultScope(route: .broadcast), count: 1))
        let o = f.send(f.broadcast())
        #expect(o.status == 503 && o.reason == "Shutdown")
        #expect(f.gateway.log().last?.faultApplied == true)
        #expect(f.consumer.pushes.count == 1, "the refused broadcast reached no one")
        f.gateway.addFault(APNsFault(.dropConnection, scope: APNsFaultScope(endpoint: .sandbox), count: 1))
        #expect(f.send(f.broadcast()).actions == [.drop])
        #expect(f.base.send(f.base.request()).status == 503, "the token's fault still applies to its pushes")
    }

    /// Device-token pushes do not change: a `/3/device/` path never reaches the broadcast rules.
    @Test func deviceTokenPushesAreUnchanged() {
        let o = f.base.send(f.base.request(headers: [("apns-channel-id", BroadcastFixture.stored)]))
        #expect(o.status == 200 && o.requestID == nil)
        #expect(f.base.consumer.pushes.last?.channelID == nil)
        var r = f.base.request()
        r.path = "/4/broadcast/apps/com.example.app"
        #expect(f.base.send(r).appleReason == .badPath, "a near miss is the device-token API's BadPath")
    }

    @Test func headerCaseOfThePushType() {
        #expect(f.send(f.broadcast(headers: [("apns-push-type", "LiveActivity")])).status == 200)
    }

    @Test func duplicateHeaders() {
        let o = f.send(
            f.broadcast(headers: [("apns-channel-id", BroadcastFixture.stored), ("apns-channel-id", "YQ==")]))
        #expect(o.reason == "DuplicateHeaders" && o.status == 400)
    }

    @Test func aBareTopicHeaderIsTolerated() {
        #expect(f.send(f.broadcast(headers: [("apns-topic", Fixture.topic)])).status == 200)
        #expect(f.send(f.broadcast(headers: [("apns-topic", "com.example.other")])).reason == "TopicDisallowed")
    }

    @Test func resetDropsStoredMessages() {
        #expect(f.broadcastToChannel(BroadcastFixture.stored).status == 200)
        f.gateway.reset()
        #expect(f.gateway.storedBroadcast(channelID: BroadcastFixture.stored, environment: .sandbox) == nil)
    }
}
