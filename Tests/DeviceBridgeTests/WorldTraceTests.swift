import APNsGateway
@testable import DeviceSimulator
import Foundation
@testable import PushModel
import Testing

@testable import DeviceBridge

/// `WorldTrace`: the report's hops from a world's own records, for a push sent in-process to a foreground app.
@Suite struct WorldTraceTests {
    @Test func aPushBecomesRequestAnswerDeliveryCallbackAndPicture() throws {
        let fixture = try WorldFixture()
        let phone = try #require(fixture.world.device(named: "phone"))
        let token = try #require(phone.iphone!.snapshot.apps[WorldFixture.bundleID]?.token)
        _ = try phone.iphone!.apply(.launch(app: WorldFixture.bundleID))
        let seen = phone.iphone!.events.count
        let payload = #"{"aps":{"alert":{"title":"Order 42","body":"shipped"},"thread-id":"orders","badge":2}}"#
        #expect(try fixture.push(payload, to: token).status == 200)
        let entry = try #require(fixture.world.gatewayLog().last)

        let sender = WorldTrace.sender(of: entry, sentByRunner: [entry.sequence], fcmAPNsIDs: [])
        #expect(sender == .runner)
        #expect(WorldTrace.sender(of: entry, sentByRunner: [], fcmAPNsIDs: [entry.apnsID]) == .fcm)
        // The runner's FCM send made this APNs request: FCM sent it.
        #expect(WorldTrace.sender(of: entry, sentByRunner: [entry.sequence], fcmAPNsIDs: [entry.apnsID]) == .fcm)
        #expect(WorldTrace.sender(of: entry, sentByRunner: [], fcmAPNsIDs: []) == .backend)
        let start = WorldFixture.start
        let gateway = WorldTrace.events(for: entry, from: sender, start: start, stepLine: 7)
        #expect(gateway.map(\.kind) == [.request, .response])
        #expect(gateway[0].from == .runner && gateway[0].to == .apns && gateway[0].stepLine == 7)
        #expect(gateway[0].jwt.map { $0.claims.contains(WorldFixture.team) } == true)
        let authorization = try #require(gateway[0].headers.first { $0.name == "authorization" }?.value)
        #expect(authorization.hasSuffix(".…"))  // the signature never reaches a report
        #expect(gateway[0].body == payload)
        #expect(gateway[1].status == 200 && gateway[1].headers.first?.value == entry.apnsID)

        let state = phone.iphone!.snapshot
        let device = state.events.dropFirst(seen).flatMap {
            WorldTrace.events(for: $0, device: "phone", state: state, start: start)
        }
        #expect(device.map(\.kind).contains(.delivery) && device.map(\.kind).contains(.callback))
        let shown = try #require(device.first { $0.kind == .presented }?.notification)
        #expect(shown.title == "Order 42" && shown.threadID == "orders" && shown.badge == 2 && shown.banner)
        #expect(device.first { $0.kind == .callback }?.label == "willPresent")
    }
}
