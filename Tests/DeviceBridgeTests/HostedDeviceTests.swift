import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
import Foundation
import HTTPServer
import HTTPTypes
@testable import Provisioning
@testable import PushCrypto
@testable import PushModel
import Synchronization
import Testing

/// A gateway with one provider key and a hosted device on a shared manual clock; pushes go through
/// `APNsGateway.evaluate` (in-process, the same code the sockets use).
struct BridgeFixture {
    static let team = "ABCDE12345", kid = "KEY1234567", bundleID = "com.example.app"
    static let udid = "00008110-000A1C2E0E12801E"
    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let key = try! P256PrivateKey.generate()
    static let connectionIDs = Mutex<UInt64>(0)

    let clock = ManualClock(start: BridgeFixture.start)
    let apns: APNsGateway

    init() {
        var c = APNsGatewayConfiguration()
        c.providerKeys = [APNsProviderKey(keyID: Self.kid, teamID: Self.team, publicKey: Self.key.publicKey)]
        apns = try! APNsGateway(configuration: c, clock: clock)
    }

    static func app(aps: APSEnvironment? = .development, navigation: NavigationDeclaration = NavigationDeclaration())
        -> AppDeclaration
    {
        let profile = ProvisioningProfile(
            name: "Example Dev", uuid: "U-1", teamID: team, appID: AppID(applicationIdentifier: "\(team).\(bundleID)"),
            apsEnvironment: aps, getTaskAllow: aps == .development, provisionedDevices: [udid],
            provisionsAllDevices: false, creationDate: start.addingTimeInterval(-86_400),
            expirationDate: start.addingTimeInterval(365 * 86_400))
        return AppDeclaration(
            signing: AppSigningConfiguration(
                bundleID: bundleID, teamID: team, apsEnvironment: aps, backgroundModes: ["remote-notification"],
                firebaseAppDelegateProxyEnabled: true),
            profile: profile, navigation: navigation)
    }

    func host(name: String = "Test iPhone", app: AppDeclaration = BridgeFixture.app(), online: Bool = true)
        -> HostedDevice
    {
        fleet(name: name, app: app, online: online).devices[0]
    }

    /// A fleet of one device, the gateway's consumer.
    func fleet(name: String = "Test iPhone", app: AppDeclaration = BridgeFixture.app(), online: Bool = true)
        -> DeviceFleet
    {
        let declaration = DeviceDeclaration(name: name, udid: Self.udid, seed: 42, online: online, apps: [app.bundleID])
        return try! DeviceFleet(apps: [app], devices: [declaration], apns: apns, clock: clock)
    }

    /// Sends `body` to `token` as a provider would; returns the gateway's answer.
    func push(
        _ body: String, to token: DeviceToken, endpoint: APNsEnvironment = .sandbox, pushType: String = "alert",
        topic: String = BridgeFixture.bundleID, extra: [(String, String)] = []
    ) -> APNsOutcome {
        let jwt = try! JWT.apnsProviderToken(
            teamID: Self.team, keyID: Self.kid, issuedAt: Int(clock.now().timeIntervalSince1970), key: Self.key)
        let headers =
            [("authorization", "bearer \(jwt)"), ("apns-topic", topic), ("apns-push-type", pushType)] + extra
        let request = HTTPRequest(
            version: .http2, method: "POST", path: "/3/device/\(token.hex)", authority: "localhost", scheme: "https",
            headers: headers.map { HTTPField($0.0, $0.1) }, body: Array(body.utf8), streamID: 1)
        let id = Self.connectionIDs.withLock {
            $0 += 1
            return $0
        }
        return apns.evaluate(request, connection: Self.connection(id: id, endpoint: endpoint), endpoint: endpoint)
    }

    /// A TLS connection without a client certificate, as a provider using tokens opens.
    static func connection(id: UInt64, endpoint: APNsEnvironment = .sandbox) -> ConnectionContext {
        ConnectionContext(
            id: id, listenerName: endpoint.rawValue, remoteAddress: "in-process", localPort: 0,
            security: .tls(alpn: "h2", peerCertificateDER: nil), version: .http2)
    }

    /// The `type`/`callback` of events after `since`, e.g. `callback:willPresent`, `state`.
    static func kinds(_ events: [DeviceEvent]) -> [String] {
        events.map { e in
            let type = e.jsonValue["type"]?.stringValue ?? "?"
            return e.jsonValue["callback"]?.stringValue.map { "\(type):\($0)" } ?? type
        }
    }
}

@Suite struct HostedDeviceTests {
    let f = BridgeFixture()

    @Test func setUpRegistersTheTokenWithTopicAndEnvironment() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        let entry = try #require(f.apns.registeredTokens.first { $0.token == token })
        #expect(entry.topic == BridgeFixture.bundleID)
        #expect(entry.environment == .sandbox)
        #expect(entry.unregisteredAt == nil)
        #expect(f.apns.isDeviceOnline(token))

        // A production (ad hoc / App Store) build's token lives on the production endpoint only.
        let other = BridgeFixture()
        let prod = other.host(app: BridgeFixture.app(aps: .production))
        let prodToken = try #require(prod.tokens[BridgeFixture.bundleID])
        #expect(other.apns.registeredTokens.first { $0.token == prodToken }?.environment == .production)
        #expect(other.push(#"{"aps":{"alert":"x"}}"#, to: prodToken, endpoint: .sandbox).reason == "BadDeviceToken")
        #expect(other.push(#"{"aps":{"alert":"x"}}"#, to: prodToken, endpoint: .production).status == 200)
    }

    @Test func gatewayPushReachesTheAppCallbacksByState() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        hosted.iphone!.launch(BridgeFixture.bundleID)
        let before = hosted.iphone!.events.count
        let outcome = f.push(#"{"aps":{"alert":{"title":"Hi","body":"there"}},"k":"v"}"#, to: token)
        #expect(outcome.status == 200)
        let added = Array(hosted.iphone!.events[before...])
        #expect(BridgeFixture.kinds(added).contains("callback:willPresent"), "\(added)")
        #expect(hosted.deliveredCount == 1)
        let received = try #require(added.first { $0.jsonValue["type"] == "push-received" })
        #expect(
            received.jsonValue["apns_id"]?.stringValue == outcome.apnsID, "the gateway's apns-id reaches the device")

        // Not running: nothing in the app, the alert goes to Notification Center.
        hosted.iphone!.terminate(BridgeFixture.bundleID)
        let mark = hosted.iphone!.events.count
        #expect(f.push(#"{"aps":{"alert":{"title":"Later"}}}"#, to: token).status == 200)
        let later = Array(hosted.iphone!.events[mark...])
        #expect(!BridgeFixture.kinds(later).contains { $0.hasPrefix("callback:") }, "\(later)")
        #expect(hosted.iphone!.snapshot.notificationCenter.contains { $0.content.title == "Later" })
    }

    @Test func offlinePushIsStoredAndDeliveredWhenTheDeviceComesOnline() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        try hosted.iphone!.apply(.online(false))
        // The gateway keeps no copy of the device's state: it hands the push on, the device answers offline.
        #expect(f.push(#"{"aps":{"alert":{"title":"Kept"}}}"#, to: token).status == 200)
        #expect(f.apns.storedPushes(for: token).count == 1)
        #expect(hosted.deliveredCount == 0)
        #expect(!hosted.iphone!.snapshot.notificationCenter.contains { $0.content.title == "Kept" })

        try hosted.iphone!.apply(.online(true))
        #expect(f.apns.storedPushes(for: token).isEmpty)
        #expect(hosted.deliveredCount == 1)
        #expect(hosted.iphone!.snapshot.notificationCenter.contains { $0.content.title == "Kept" })
        #expect(f.apns.deliveryHistory.map(\.disposition) == [.stored, .delivered])
    }

    @Test func deviceDeclaredOfflineStartsOfflineAtTheGateway() throws {
        let hosted = f.host(online: false)
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        #expect(f.push(#"{"aps":{"alert":"x"}}"#, to: token).status == 200)
        #expect(f.apns.deliveryHistory.map(\.disposition) == [.stored])
        #expect(
            !hosted.iphone!.events.contains { $0.jsonValue["type"] == "push-received" }, "an offline phone sees nothing"
        )
    }

    @Test func uninstallMakesTheNextPush410Unregistered() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        f.clock.advance(by: 60)
        let uninstalledAt = f.clock.now()
        try hosted.iphone!.apply(.uninstall(app: BridgeFixture.bundleID))
        f.clock.advance(by: 5)
        let outcome = f.push(#"{"aps":{"alert":"x"}}"#, to: token)
        #expect(outcome.status == 410)
        #expect(outcome.reason == "Unregistered")
        #expect(outcome.timestamp == uninstalledAt, "410's timestamp is when the app was uninstalled")
        #expect(hosted.deliveredCount == 0)
    }

    @Test func reinstallIssuesATokenTheGatewayAcceptsAgain() throws {
        let hosted = f.host()
        try hosted.iphone!.apply(.uninstall(app: BridgeFixture.bundleID))
        hosted.iphone!.setUp(BridgeFixture.app())
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        #expect(f.push(#"{"aps":{"alert":"back"}}"#, to: token).status == 200)
        #expect(hosted.deliveredCount == 1)
    }

    @Test func pushesGoOnlyToTheDeviceHoldingTheToken() throws {
        let app = BridgeFixture.app()
        let devices = [
            DeviceDeclaration(name: "A", udid: BridgeFixture.udid, seed: 1, apps: [app.bundleID]),
            DeviceDeclaration(name: "B", udid: BridgeFixture.udid, seed: 2, apps: [app.bundleID]),
        ]
        let fleet = try DeviceFleet(apps: [app], devices: devices, apns: f.apns, clock: f.clock)
        let a = try #require(fleet.device(named: "A"))
        let b = try #require(fleet.device(named: "B"))
        let tokenB = try #require(b.tokens[app.bundleID])
        #expect(a.tokens[app.bundleID] != tokenB, "different seeds, different tokens")
        #expect(f.push(#"{"aps":{"alert":"for B"}}"#, to: tokenB).status == 200)
        #expect(a.deliveredCount == 0 && b.deliveredCount == 1)
        #expect(fleet.addressesJSON["B"]?["tokens"]?[app.bundleID]?.stringValue == tokenB.hex)
        #expect(fleet.addressesJSON[path: "A.udid"]?.stringValue == BridgeFixture.udid)

        #expect(throws: DeviceFleetError.duplicateName("A")) {
            try DeviceFleet(apps: [app], devices: [devices[0], devices[0]], apns: f.apns, clock: f.clock)
        }
    }

    @Test func resetThenSyncRegistersTheDeviceTokensAgain() throws {
        let hosted = f.host()
        let token = try #require(hosted.tokens[BridgeFixture.bundleID])
        f.apns.reset()
        #expect(f.push(#"{"aps":{"alert":"x"}}"#, to: token).reason == "BadDeviceToken")
        hosted.syncRegistrations()
        #expect(f.push(#"{"aps":{"alert":"x"}}"#, to: token).status == 200)
    }
}
