@testable import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing

/// Tokens per purpose through the gateway and the fleet (Tests/reference/ios-push-types.md §1): each kind is
/// registered with its kind, the gateway answers what APNs answers for a type at a token of another kind, and the
/// fleet hands a push to the holder of its token whatever the kind.
@Suite struct TokenKindRoutingTests {
    let f = BridgeFixture()

    /// A device on iOS 26 (every kind's API exists) with the app declaring `kinds`.
    func host(_ kinds: [PushTokenKind] = AppDeclaration.declarableTokenKinds) -> HostedDevice {
        var app = BridgeFixture.app()
        app.pushTypes = kinds
        // VoIP and Push to Talk pushes need their background modes (ios-push-types.md §4.5).
        app.signing.backgroundModes += ["voip", "push-to-talk"]
        let declaration = DeviceDeclaration(
            name: "Test iPhone", udid: BridgeFixture.udid, iosVersion: "26.0", seed: 42, apps: [app.bundleID])
        return try! DeviceFleet(apps: [app], devices: [declaration], apns: f.apns, clock: f.clock).devices[0]
    }

    /// §1.1: every kind is registered with the gateway (with its kind) and the index, and listed in the addresses.
    @Test func everyKindIsRegisteredIndexedAndListed() throws {
        let hosted = host()
        let tokens = try #require(hosted.pushTokens[BridgeFixture.bundleID])
        #expect(Set(tokens.keys) == Set(AppDeclaration.declarableTokenKinds))
        for (kind, token) in tokens {
            #expect(f.apns.registeredTokens.first { $0.token == token }?.kind == kind)
        }
        let fleet = f.fleet(
            app: {
                var a = BridgeFixture.app(); a.pushTypes = [.voip]; return a
            }())
        let voip = try #require(fleet.devices[0].pushTokens[BridgeFixture.bundleID]?[.voip])
        #expect(fleet.index.holder(ofToken: voip)?.kind == .voip)
        let listed = fleet.addressesJSON["Test iPhone"]?["push_tokens"]?[BridgeFixture.bundleID]?["voip"]
        #expect(listed?.stringValue == voip.hex)
    }

    /// §1.2–§1.4 at the gateway and on the device, every type at the APNs token and at the VoIP token.
    @Test func theGatewayAndTheDeviceApplyTheOneTable() throws {
        for type in APNsPushType.allCases where type != .mdm {
            for kind in [PushTokenKind.apns, .voip] {
                let hosted = host()
                let app = try #require(hosted.iphone!.snapshot.apps[BridgeFixture.bundleID])
                let token = try #require(kind == .apns ? app.token : app.pushTokens[kind])
                let before = hosted.iphone!.events.count
                let body = type == .background ? #"{"aps":{"content-available":1}}"# : #"{"aps":{"alert":"x"}}"#
                let outcome = f.push(
                    body, to: token, pushType: type.rawValue,
                    topic: BridgeFixture.bundleID + type.topicSuffix,
                    extra: type == .background ? [("apns-priority", "5")] : [])
                let added = Array(hosted.iphone!.events[before...])
                let received = added.contains { if case .pushReceived = $0.kind { true } else { false } }
                switch PushTokenKind.outcome(of: type, at: kind) {
                case .refuse(let reason):
                    #expect(outcome.appleReason == reason, "\(type) at \(kind)")
                    #expect(added.isEmpty, "\(type) at \(kind)")
                case .deliver:
                    #expect(outcome.status == 200 && received, "\(type) at \(kind): \(outcome.reason ?? "")")
                case .mismatch:
                    #expect(outcome.status == 200 && !received, "\(type) at \(kind)")
                    #expect(
                        added.contains {
                            $0.kind == .pushDropped(apnsID: outcome.apnsID, reason: .tokenKindMismatch(type, kind))
                        },
                        "\(type) at \(kind)")
                case .notModelled:
                    #expect(outcome.status == 200 && !received, "\(type) at \(kind)")
                }
            }
        }
    }

    /// §1.5: after an uninstall the VoIP token is 410 Unregistered, and out of the index.
    @Test func uninstallUnregistersEveryKind() throws {
        let fleet = f.fleet(
            app: {
                var a = BridgeFixture.app(); a.pushTypes = [.voip]; return a
            }())
        let hosted = fleet.devices[0]
        let voip = try #require(hosted.pushTokens[BridgeFixture.bundleID]?[.voip])
        hosted.iphone!.uninstall(BridgeFixture.bundleID)
        let outcome = f.push(#"{"aps":{}}"#, to: voip, pushType: "voip", topic: BridgeFixture.bundleID + ".voip")
        #expect(outcome.status == 410 && outcome.appleReason == .unregistered)
        #expect(fleet.index.holder(ofToken: voip) == nil)
        // A reset to the launch state registers it again.
        hosted.resetToLaunchState()
        #expect(
            f.push(#"{"aps":{}}"#, to: voip, pushType: "voip", topic: BridgeFixture.bundleID + ".voip").status == 200)
    }

    /// Store and forward follows every kind: a VoIP push to an offline phone is kept and handed over on reconnect.
    @Test func aVoIPPushToAnOfflinePhoneIsKeptAndHandedOver() throws {
        let hosted = host([.voip])
        let voip = try #require(hosted.pushTokens[BridgeFixture.bundleID]?[.voip])
        try hosted.iphone!.apply(.online(false))
        let topic = BridgeFixture.bundleID + ".voip"
        #expect(f.push(#"{"aps":{},"caller":"A"}"#, to: voip, pushType: "voip", topic: topic).status == 200)
        #expect(f.apns.storedPushes(for: voip).count == 1)
        let before = hosted.iphone!.events.count
        try hosted.iphone!.apply(.online(true))
        #expect(f.apns.storedPushes(for: voip).isEmpty)
        let added = Array(hosted.iphone!.events[before...])
        #expect(BridgeFixture.kinds(added).contains("callback:didReceiveIncomingPush"), "\(added)")
    }

    /// A token declared only in the gateway's configuration has no kind: the gateway takes every type at it.
    @Test func configuredTokensTakeEveryType() throws {
        var registry = DeviceTokenRegistry()
        let t = try #require(DeviceToken(hex: String(repeating: "ab", count: 32)))
        registry.register(RegisteredDeviceToken(token: t, topic: "com.a", environment: .sandbox))
        #expect(
            registry.check(token: t, topic: "com.a.voip", environment: .sandbox, pushType: .voip, now: Date())
                == .accepted)
        registry.register(RegisteredDeviceToken(token: t, topic: "com.a", environment: .sandbox, kind: .apns))
        #expect(
            registry.check(token: t, topic: "com.a.voip", environment: .sandbox, pushType: .voip, now: Date())
                == .rejected(.deviceTokenNotForTopic, timestamp: nil))
    }
}
