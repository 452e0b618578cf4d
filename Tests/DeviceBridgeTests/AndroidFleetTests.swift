@testable import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
@testable import FCMGateway
import Foundation
@testable import HTTPServer
import HTTPTypes
import PushCrypto
@testable import PushModel
import Testing
import YAMLSource

/// A world hosting an Android phone: its apps get their tokens from the world's FCM, the fleet is the FCM gateway's
/// Android consumer (a send reaches the phone holding the token; the log's Android hop says what became of it),
/// uninstall and clear data make the old token UNREGISTERED, `reset()` registers the launch tokens again, and the
/// shared device interface (actions, snapshot, events) works on it. In-process: `FCMGateway.evaluate`.
@Suite struct AndroidFleetTests {
    static let email = "sa@shop-demo.iam.gserviceaccount.com"
    static let saKey = try! RSAPrivateKey.generate()

    /// - Parameter device: more keys of the phone's declaration.
    static func world(device: String = "") throws -> WorldHost {
        let yaml = """
            fcm:
              projects: [{ id: shop-demo, number: "123456789012" }]
            apps:
              - package_name: com.example.shop
                firebase: { sender_id: "123456789012", project_id: shop-demo, app_id: "1:123456789012:android:0a1b2c3d" }
                manifest: { default_channel: orders }
                channels: [{ id: orders, importance: high }]
            devices:
              - { name: pixel, platform: android, api_level: 34, apps: [com.example.shop]\(device) }
            """
        let node = try YAMLLoader.load(string: yaml, file: "world.yaml")
        let declaration = try WorldDeclaration.decodeTopLevel(try YAMLMapping(node), file: "world.yaml")
        return try WorldHost(
            declaration, clock: ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000)),
            serviceAccounts: [FCMServiceAccount(clientEmail: Self.email, publicKey: Self.saKey.publicKey)])
    }

    static func send(_ host: WorldHost, _ message: String) -> Int {
        let fcm = host.fcm!
        let bearer = fcm.issueAccessToken(clientEmail: Self.email).token
        let r = fcm.evaluate(
            HTTPRequest(
                version: .http2, method: "POST", path: "/v1/projects/shop-demo/messages:send",
                headers: [HTTPField("authorization", "Bearer \(bearer)")],
                body: Array(#"{"message":\#(message)}"#.utf8)))
        return r.status
    }

    @Test func theFleetDeliversFCMMessagesToThePhoneHoldingTheToken() throws {
        let host = try Self.world()
        defer { host.shutdown() }
        let pixel = try #require(host.device(named: "pixel"))
        #expect(pixel.platform == .android && pixel.iphone == nil)
        let token = try #require(pixel.fcmTokens["com.example.shop"])
        #expect(host.fcm!.isRegistered(token))
        #expect(
            host.fleet.index.holder(of: .fcm(token))
                == TokenHolder(device: "pixel", bundleID: "com.example.shop", kind: .fcm))
        #expect(host.fleet.addressesJSON[path: "pixel.platform"] == "android")

        #expect(Self.send(host, #"{"token":"\#(token)","notification":{"title":"Hi"},"data":{"k":"v"}}"#) == 200)
        #expect(host.fcm!.log().last?.android.first?.disposition == .delivered)
        #expect(pixel.snapshotJSON[path: "tray.0.title"] == "Hi")
        #expect(pixel.snapshotJSON[path: "tray.0.channel"] == "orders")
        #expect(pixel.deliveredCount == 1)

        // The shared device interface: an action, its events as JSON.
        let before = pixel.lastEventSequence
        try pixel.apply(.tap(.latest))
        let events = pixel.eventsJSON(since: before)["events"]?.arrayValue ?? []
        #expect(events.contains { $0["type"] == "callback" && $0["callback"] == "onCreate" })
        #expect(throws: DeviceActionError.self) { try pixel.apply(.expand(.latest)) }

        // A force-stopped app: FCM accepts, the phone drops it, the hop says why.
        try pixel.apply(.forceStop(app: nil))
        #expect(Self.send(host, #"{"token":"\#(token)","data":{"k":"v"}}"#) == 200)
        let hop = host.fcm!.log().last?.android.first
        #expect(hop?.disposition == .dropped("app-force-stopped"))
    }

    /// `event_log_limit:` reaches the hosted phone (its rules are Android's, built apart from the iPhone's).
    @Test func theDeclaredEventLogLimitBoundsThePhonesLog() throws {
        let host = try Self.world(device: ", event_log_limit: 4")
        defer { host.shutdown() }
        let pixel = try #require(host.device(named: "pixel"))
        let token = try #require(pixel.fcmTokens["com.example.shop"])
        for i in 1...8 { #expect(Self.send(host, #"{"token":"\#(token)","data":{"n":"\#(i)"}}"#) == 200) }
        let dropped = try #require(pixel.snapshotJSON["events_dropped"]?.intValue)
        let kept = try #require(pixel.snapshotJSON["event_count"]?.intValue)
        #expect(dropped > 0 && kept <= 6, "\(pixel.snapshotJSON)")
    }

    @Test func uninstallAndClearDataUnregisterTheTokenAndResetRestoresIt() throws {
        let host = try Self.world()
        defer { host.shutdown() }
        let pixel = try #require(host.device(named: "pixel"))
        let token = try #require(pixel.fcmTokens["com.example.shop"])
        try pixel.apply(.clearData(app: "com.example.shop"))
        #expect(!host.fcm!.isRegistered(token))
        #expect(host.fleet.index.holder(of: .fcm(token)) == nil)
        #expect(Self.send(host, #"{"token":"\#(token)","data":{"k":"v"}}"#) == 404)  // UNREGISTERED
        try pixel.apply(.launch(app: "com.example.shop"))
        let fresh = try #require(pixel.fcmTokens["com.example.shop"])
        #expect(fresh != token && host.fcm!.isRegistered(fresh))

        host.reset()
        #expect(pixel.fcmTokens["com.example.shop"] == token)
        #expect(host.fcm!.isRegistered(token))
        #expect(host.fleet.index.holder(of: .fcm(token))?.device == "pixel")
        #expect(Self.send(host, #"{"token":"\#(token)","data":{"k":"v"}}"#) == 200)
        #expect(host.fcm!.log().last?.android.first?.disposition == .delivered)
    }
}
