import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
import Foundation
import HTTPServer
@testable import Provisioning
@testable import PushModel
import Testing

/// The fleet is the gateway's one consumer: a push goes to the device and app the token index names, and the
/// index follows the devices' registrations (new token, uninstall, reset).
@Suite struct TokenIndexTests {
    let f = BridgeFixture()

    @Test func anAppHoldsOneAddressPerKindAndANewOneReplacesIt() {
        let index = TokenIndex()
        let a = TokenHolder(device: "A", bundleID: "com.example.app", kind: .apns)
        let first = DeviceToken(hex: "01")!, second = DeviceToken(hex: "02")!
        index.register(.apns(first), holder: a)
        #expect(index.holder(of: .apns(first)) == a)
        index.register(.apns(second), holder: a)
        #expect(index.holder(of: .apns(first)) == nil, "the old token is nobody's")
        #expect(index.holder(of: .apns(second)) == a && index.address(of: a) == .apns(second))
        // Another app taking the same token (a restored backup) leaves the first one without it.
        let b = TokenHolder(device: "B", bundleID: "com.example.app", kind: .apns)
        index.register(.apns(second), holder: b)
        #expect(index.holder(of: .apns(second)) == b && index.address(of: a) == nil)
        index.remove(.apns(second))
        #expect(index.count == 0 && index.address(of: b) == nil)
    }

    @Test func reinstallAndUninstallMoveTheIndexWithTheDevice() throws {
        let fleet = f.fleet()
        let hosted = fleet.devices[0]
        let old = try #require(hosted.tokens[BridgeFixture.bundleID])
        #expect(fleet.holder(ofAPNsToken: old)?.device == "Test iPhone")
        try hosted.iphone!.apply(.uninstall(app: BridgeFixture.bundleID))
        #expect(fleet.holder(ofAPNsToken: old) == nil, "an uninstalled app holds nothing")
        hosted.iphone!.setUp(BridgeFixture.app())
        let new = try #require(hosted.tokens[BridgeFixture.bundleID])
        #expect(new != old && fleet.holder(ofAPNsToken: new)?.bundleID == BridgeFixture.bundleID)
    }

    @Test func aPushWhoseTopicNamesAnotherAppIsNotHandedToTheHolder() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        f.apns.setAcceptUnknownTokens(true)
        f.apns.removeToken(token)  // unknown now: accepted for any topic (load-test mode)
        let before = hosted.iphone!.events.count
        #expect(
            f.push(#"{"aps":{"alert":"x"}}"#, to: token, topic: "com.example.other").status == 200)
        #expect(hosted.deliveredCount == 0 && hosted.iphone!.events.count == before)
    }

    @Test func theDeviceGoingOfflineBetweenTwoPushesKeepsTheSecondAtTheGateway() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        #expect(f.push(#"{"aps":{"alert":{"title":"one"}}}"#, to: token).status == 200)
        // The device changes its own state only: the gateway learns it from the next hand-off's answer.
        hosted.iphone!.setOnline(false)
        #expect(f.push(#"{"aps":{"alert":{"title":"two"}}}"#, to: token).status == 200)
        #expect(f.apns.deliveryHistory.map(\.disposition) == [.delivered, .stored])
        #expect(hosted.deliveredCount == 1)
        hosted.iphone!.setOnline(true)
        #expect(f.apns.deliveryHistory.map(\.disposition) == [.delivered, .stored, .delivered])
        #expect(hosted.iphone!.snapshot.notificationCenter.map(\.content.title) == ["one", "two"])
    }

    @Test func resetToLaunchStateForgetsTokensOfAppsInstalledLater() throws {
        var other = BridgeFixture.app()
        other.signing.bundleID = "com.example.later"
        other.profile.appID = AppID(applicationIdentifier: "\(BridgeFixture.team).com.example.later")
        let fleet = f.fleet()
        let hosted = fleet.devices[0]
        hosted.iphone!.setUp(other)
        let later = try #require(hosted.tokens["com.example.later"])
        #expect(fleet.holder(ofAPNsToken: later)?.bundleID == "com.example.later")
        hosted.resetToLaunchState()
        #expect(fleet.holder(ofAPNsToken: later) == nil)
        #expect(fleet.holder(ofAPNsToken: try #require(hosted.tokens[BridgeFixture.bundleID])) != nil)
    }
}
