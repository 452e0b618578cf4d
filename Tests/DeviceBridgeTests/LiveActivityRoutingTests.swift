import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing

/// The fleet's ActivityKit routes (Tests/reference/live-activities.md §2, §5): push-to-start and activity tokens are
/// registered at the gateway and held in the index under their own kinds, a liveactivity push to one reaches the
/// device's ActivityKit, and the tokens follow the device (reset, uninstall).
@Suite struct LiveActivityRoutingTests {
    let f = BridgeFixture()

    static func app() -> AppDeclaration {
        var a = BridgeFixture.app()
        a.supportsLiveActivities = true
        a.liveActivities = [
            LiveActivityDeclaration(
                attributesType: "RideAttributes",
                contentState: [ActivityField("eta", ActivityFieldType(.int))])
        ]
        return a
    }

    @Test func pushToStartAndActivityTokensAreRoutedToActivityKit() throws {
        let fleet = f.fleet(app: Self.app())
        let hosted = fleet.devices[0]
        let start = try #require(
            hosted.iphone!.snapshot.liveActivities.pushToStartTokens[BridgeFixture.bundleID]?["RideAttributes"])
        let holder = try #require(fleet.index.holder(of: IndexedAddress(kind: .pushToStart, value: start.hex)))
        #expect(holder.slot == "RideAttributes" && holder.device == "Test iPhone")
        #expect(fleet.index.holder(of: .apns(start)) == nil, "the APNs route does not know it")
        let topic = BridgeFixture.bundleID + ".push-type.liveactivity"
        let now = Int(f.clock.now().timeIntervalSince1970)
        let body =
            #"{"aps":{"event":"start","timestamp":\#(now),"attributes-type":"RideAttributes","attributes":{},"content-state":{"eta":7},"input-push-token":1}}"#
        let started = f.push(body, to: start, pushType: "liveactivity", topic: topic)
        #expect(started.status == 200, "\(started.reason.map { "\($0)" } ?? "")")
        let activity = try #require(hosted.iphone!.snapshot.liveActivities.activities.first)
        let token = try #require(activity.pushToken)
        #expect(fleet.index.holder(of: IndexedAddress(kind: .activity, value: token.hex))?.slot == activity.id)
        let update = #"{"aps":{"event":"update","timestamp":\#(now + 1),"content-state":{"eta":3}}}"#
        #expect(f.push(update, to: token, pushType: "liveactivity", topic: topic).status == 200)
        #expect(hosted.iphone!.snapshot.liveActivities.activities.first?.contentState["eta"] == 3)
        // Reset: the launch state has no activity; its token is gone from the index, the push-to-start one is back.
        fleet.resetToLaunchState()
        #expect(fleet.index.holder(of: IndexedAddress(kind: .pushToStart, value: start.hex)) != nil)
        #expect(fleet.index.holder(of: IndexedAddress(kind: .activity, value: token.hex)) == nil)
    }

    @Test func anUninstalledAppsActivityTokenIsUnregistered() throws {
        let fleet = f.fleet(app: Self.app())
        let hosted = fleet.devices[0]
        try hosted.iphone!.apply(.launch(app: BridgeFixture.bundleID))
        try hosted.iphone!.apply(
            .startActivity(
                app: BridgeFixture.bundleID, ActivityRequest(contentState: .object(["eta": 5]))))
        let token = try #require(hosted.iphone!.snapshot.liveActivities.activities.first?.pushToken)
        let start = try #require(
            hosted.iphone!.snapshot.liveActivities.pushToStartTokens[BridgeFixture.bundleID]?["RideAttributes"])
        try hosted.iphone!.apply(.uninstall(app: BridgeFixture.bundleID))
        #expect(fleet.index.holder(of: IndexedAddress(kind: .pushToStart, value: start.hex)) == nil)
        #expect(fleet.index.holder(of: IndexedAddress(kind: .activity, value: token.hex)) == nil)
        let topic = BridgeFixture.bundleID + ".push-type.liveactivity"
        let answer = f.push(
            #"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":1}}}"#, to: token,
            pushType: "liveactivity", topic: topic)
        #expect(answer.status == 410)
    }
}
