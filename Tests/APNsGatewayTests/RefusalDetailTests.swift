import Foundation
@testable import HTTPServer
@testable import PushModel
import Testing

@testable import APNsGateway

/// A refusal's log detail names the rule the request broke where the request tells more than the reason (the status
/// and reason stay APNs's).
@Suite struct RefusalDetailTests {
    /// Tests/reference/ios-push-types.md §1.3: an alert (bare topic) at a PushKit token is TopicDisallowed; the
    /// detail said "certificates: never to location, liveactivity or fileprovider".
    @Test func anAlertAtAVoIPTokenNamesThePushKitRule() throws {
        let voip = try #require(DeviceToken(bytes: Array(repeating: 0x5A, count: 32)))
        let f = Fixture {
            $0.deviceTokens.append(
                RegisteredDeviceToken(token: voip, topic: Fixture.topic, environment: .sandbox, kind: .voip))
        }
        let o = f.send(f.request(token: voip.hex))
        #expect(o.appleReason == .topicDisallowed)
        let detail = try #require(f.gateway.log().last?.detail)
        #expect(
            detail.contains("is a PushKit VoIP token: APNs refuses an alert push (topic without .voip)"), "\(detail)")
        #expect(!detail.contains("certificates"), "\(detail)")
        // The article follows the push type's first sound (it said "an background push").
        _ = f.send(
            f.request(
                token: voip.hex, headers: [("apns-push-type", "background"), ("apns-priority", "5")],
                body: #"{"aps":{"content-available":1}}"#))
        let background = try #require(f.gateway.log().last?.detail)
        #expect(background.contains("APNs refuses a background push (topic without .voip)"), "\(background)")
    }

    /// Background at priority 10 with no apns-push-type: the detail says background takes 5 or 1 and that the type
    /// was inferred (it said "must be 1, 5 or 10", which the push was).
    @Test func backgroundAtPriority10SaysTheTypeWasInferred() throws {
        let f = Fixture()
        let o = f.send(
            f.request(
                headers: [("apns-priority", "10")], omit: ["apns-push-type"], body: #"{"aps":{"content-available":1}}"#)
        )
        #expect(o.appleReason == .badPriority)
        let detail = try #require(f.gateway.log().last?.detail)
        #expect(detail.hasPrefix("Background pushes take apns-priority 5 or 1, not 10"), "\(detail)")
        #expect(detail.contains("inferred from the payload"), "\(detail)")
        #expect(!detail.contains("1, 5 or 10"), "\(detail)")
        _ = f.send(f.request(headers: [("apns-priority", "10"), ("apns-push-type", "background")]))
        #expect(f.gateway.log().last?.detail == "Background pushes take apns-priority 5 or 1, not 10.")
    }

    /// Channel management sent to the push listener: APNs's push host answers (405, 404 BadPath), and the detail
    /// points at the channel-management listener; BadPath names both push paths (it named /3/device only).
    @Test func channelManagementOnThePushListenerPointsAtItsListener() throws {
        let f = Fixture()
        var list = f.request(method: "GET")
        list.path = "/1/apps/\(Fixture.topic)/all-channels"
        #expect(f.send(list).appleReason == .methodNotAllowed)
        let listDetail = try #require(f.gateway.log().last?.detail)
        #expect(listDetail.contains("channel-management listener (`broadcast` in serve's ready line"), "\(listDetail)")
        var create = f.request()
        create.path = "/1/apps/\(Fixture.topic)/channels"
        #expect(f.send(create).appleReason == .badPath)
        let createDetail = try #require(f.gateway.log().last?.detail)
        #expect(createDetail.contains("/4/broadcasts/apps/<bundle id> for a broadcast"), "\(createDetail)")
        #expect(createDetail.contains("`broadcast` in serve's ready line"), "\(createDetail)")
        var other = f.request()
        other.path = "/3/devices/ab"
        _ = f.send(other)
        #expect(f.gateway.log().last?.detail?.contains("ready line") == false)
    }

    /// An mdm push at an app's bundle ID: accepted (APNs's answer for it is undocumented), with a log detail that
    /// real APNs expects the MDM certificate's topic (Tests/reference/apns.md §1.3); it said nothing.
    @Test func anMDMPushSaysTheRealTopicIsTheMDMCertificates() throws {
        let f = Fixture()
        let o = f.send(f.request(headers: [("apns-push-type", "mdm")], body: #"{"mdm":"magic"}"#))
        #expect(o.status == 200, "\(o.reason ?? "")")
        let detail = try #require(f.gateway.log().last?.detail)
        #expect(detail.contains("real APNs expects the MDM push certificate's UID topic"), "\(detail)")
    }
}
