import APNsGateway
@testable import DeviceBridge
@testable import DeviceSimulator
import FCMGateway
import Foundation
@testable import HTTPClient
import HTTPServer
@testable import Provisioning
@testable import PushCrypto
@testable import PushModel
import Testing

/// A hosted device whose app uses Firebase, an FCM gateway in front of the APNs gateway on a real TLS
/// listener, and a sender (`FCMClient`: OAuth JWT-bearer grant at the mock's `/token`, then `messages:send`).
final class FCMBridgeFixture {
    static let ca = try! CertificateAuthority.generate(commonName: "bridge FCM test CA")
    static let saKey = try! RSAPrivateKey.generate()
    static let email = "sa@demo-project.iam.gserviceaccount.com"
    static let project = "demo-project", number = "123456789012"

    let bridge = BridgeFixture()
    let fcm: FCMGateway
    let server: HTTPServer
    let sender: FCMClient

    init() throws {
        var c = FCMGatewayConfiguration()
        c.serviceAccounts = [FCMServiceAccount(clientEmail: Self.email, publicKey: Self.saKey.publicKey)]
        c.projects = [
            FCMProject(
                id: Self.project, number: Self.number,
                apns: FCMAPNsCredentials(
                    teamID: BridgeFixture.team, keyID: BridgeFixture.kid, privateKey: BridgeFixture.key,
                    environment: .sandbox))
        ]
        fcm = FCMGateway(configuration: c, apns: bridge.apns, clock: bridge.clock)
        let leaf = try Self.ca.issueServerCertificate()
        server = HTTPServer(
            listeners: [
                ListenerConfiguration(
                    name: "fcm",
                    tls: TLSConfiguration(certificateChainPEM: leaf.pem, privateKeyPEM: leaf.privateKeyPEM),
                    handler: fcm.handler)
            ], loops: 1)
        let url = try server.start()[0].url
        let clock = bridge.clock
        sender = try FCMClient(
            baseURL: url, account: GoogleServiceAccount(clientEmail: Self.email, privateKey: Self.saKey),
            trustRoots: .pem([Array(Self.ca.certificatePEM.utf8)]), now: { clock.now() })
    }

    deinit {
        sender.shutdown()
        server.beginShutdown(grace: .zero)
        server.waitUntilStopped()
    }

    /// The bridge fixture's app with Firebase; `proxy` is `FirebaseAppDelegateProxyEnabled`.
    static func firebaseApp(proxy: Bool = true, forwards: Bool = false) -> AppDeclaration {
        var app = BridgeFixture.app()
        app.signing.firebaseAppDelegateProxyEnabled = proxy
        app.firebase = FirebaseDeclaration(senderID: number, projectID: project, forwardsAPNsToken: forwards)
        return app
    }

    func host(_ app: AppDeclaration = FCMBridgeFixture.firebaseApp()) -> HostedDevice {
        let declaration = DeviceDeclaration(
            name: "Test iPhone", udid: BridgeFixture.udid, seed: 42, apps: [app.bundleID])
        return try! DeviceFleet(apps: [app], devices: [declaration], apns: bridge.apns, fcm: fcm, clock: bridge.clock)
            .devices[0]
    }

    func send(to token: String, validateOnly: Bool = false) async throws -> FCMSendResponse {
        try await sender.send(
            project: Self.project,
            message: ["token": .string(token), "notification": ["title": "Order shipped"], "data": ["order": "A1"]],
            validateOnly: validateOnly)
    }
}

@Suite("FCM registration of hosted devices")
struct FCMRegistrationTests {
    @Test("an app with firebase: gets its FCM token from the mock, mapped to its APNs token, and a real send arrives")
    func registersAndDelivers() async throws {
        let f = try FCMBridgeFixture()
        let device = f.host()
        let fcmToken = try #require(device.fcmTokens[BridgeFixture.bundleID])
        // Issued by the gateway for the app's installation (not the device's own offline stand-in).
        let fid = String(fcmToken.prefix { $0 != ":" })
        #expect(fcmToken == FCMGateway.registrationToken(installationID: fid, senderID: FCMBridgeFixture.number))
        let offline = DeviceDeclaration(name: "x", udid: BridgeFixture.udid, seed: 42).makeBareDevice(
            clock: f.bridge.clock)
        offline.setUp(FCMBridgeFixture.firebaseApp())
        #expect(offline.registration(of: BridgeFixture.bundleID).fcmToken != fcmToken)
        #expect(offline.registration(of: BridgeFixture.bundleID).fcmToken?.hasPrefix(fid + ":APA91b") == true)
        let kinds = BridgeFixture.kinds(device.iphone!.events)
        #expect(
            kinds.firstIndex(of: "fcm-token")! > kinds.firstIndex(of: "callback:didRegisterForRemoteNotifications")!)
        let apns = try #require(device.tokens[BridgeFixture.bundleID])
        let known = try #require(f.fcm.registeredTokens.first { $0.token.token == fcmToken })
        #expect(known.project == FCMBridgeFixture.project)
        #expect(known.token.apnsToken == apns)
        #expect(known.token.bundleID == BridgeFixture.bundleID)
        #expect(known.token.fid == String(fcmToken.prefix { $0 != ":" }))

        let answer = try await f.send(to: fcmToken)
        #expect(answer.status == 200, "\(answer.http.bodyText)")
        #expect(answer.name?.hasPrefix("projects/demo-project/messages/") == true)
        #expect(device.deliveredCount == 1)
        let received = device.iphone!.events.compactMap { e -> JSONValue? in
            if case .notificationPresented(_, let content, _) = e.kind { return content.userInfo }
            return nil
        }
        #expect(received.last?["order"] == "A1")
        #expect(received.last?["google.c.sender.id"] == .string(FCMBridgeFixture.number))

        // The ready line's addresses list the FCM token beside the APNs token.
        let fleet = try DeviceFleet(
            apps: [FCMBridgeFixture.firebaseApp()],
            devices: [
                DeviceDeclaration(name: "phone", udid: BridgeFixture.udid, seed: 7, apps: [BridgeFixture.bundleID])
            ],
            apns: f.bridge.apns, fcm: f.fcm, clock: f.bridge.clock)
        let addresses = fleet.addressesJSON["phone"]
        #expect(
            addresses?["fcm_tokens"]?[BridgeFixture.bundleID]?.stringValue
                == fleet.devices[0].fcmTokens[BridgeFixture.bundleID])
        #expect(addresses?["tokens"]?[BridgeFixture.bundleID] != nil)
    }

    @Test("uninstall makes the FCM token UNREGISTERED for a real sender; the reinstalled app gets a new one")
    func uninstallUnregisters() async throws {
        let f = try FCMBridgeFixture()
        let device = f.host()
        let old = try #require(device.fcmTokens[BridgeFixture.bundleID])
        device.iphone!.uninstall(BridgeFixture.bundleID)
        #expect(!f.fcm.isRegistered(old))
        let gone = try await f.send(to: old)
        #expect(gone.status == 404)
        #expect(gone.errorCode == "UNREGISTERED")
        #expect(gone.errorStatus == "NOT_FOUND")
        let dryRun = try await f.send(to: old, validateOnly: true)
        #expect(dryRun.errorCode == "UNREGISTERED")

        device.iphone!.setUp(FCMBridgeFixture.firebaseApp())
        let new = try #require(device.fcmTokens[BridgeFixture.bundleID])
        #expect(new != old)
        #expect(device.iphone!.snapshot.previousFCMToken(of: BridgeFixture.bundleID) == old)
        let answer = try await f.send(to: new)
        #expect(answer.status == 200, "\(answer.http.bodyText)")
        #expect(device.deliveredCount == 1)
    }

    @Test(
        "swizzling off and the APNs token not forwarded: the instance has no APNs token, FCM accepts, nothing arrives")
    func notForwarded() async throws {
        let f = try FCMBridgeFixture()
        let device = f.host(FCMBridgeFixture.firebaseApp(proxy: false, forwards: false))
        let token = try #require(device.fcmTokens[BridgeFixture.bundleID])
        let known = try #require(f.fcm.registeredTokens.first { $0.token.token == token })
        #expect(known.token.apnsToken == nil)
        let answer = try await f.send(to: token)
        #expect(answer.status == 200)
        #expect(device.deliveredCount == 0)

        // Forwarded by the app itself: mapped again.
        let forwarded = try FCMBridgeFixture()
        let d2 = forwarded.host(FCMBridgeFixture.firebaseApp(proxy: false, forwards: true))
        let t2 = try #require(d2.fcmTokens[BridgeFixture.bundleID])
        #expect(forwarded.fcm.registeredTokens.first { $0.token.token == t2 }?.token.apnsToken != nil)
    }

    @Test("after FCMGateway.reset() the device's instances are registered again by syncRegistrations")
    func resyncAfterReset() throws {
        let f = try FCMBridgeFixture()
        let device = f.host()
        let token = try #require(device.fcmTokens[BridgeFixture.bundleID])
        f.fcm.reset()
        #expect(!f.fcm.isRegistered(token))
        device.syncRegistrations()
        #expect(f.fcm.isRegistered(token))
    }

    @Test("an app whose Firebase project the mock does not know gets no FCM token, and the device says why")
    func unknownProject() throws {
        let f = try FCMBridgeFixture()
        var app = FCMBridgeFixture.firebaseApp()
        app.firebase = FirebaseDeclaration(senderID: "555", projectID: "someone-else")
        let device = f.host(app)
        #expect(device.fcmTokens.isEmpty)
        let failed = device.iphone!.events.compactMap { e -> String? in
            if case .fcmTokenFailed(let reason) = e.kind { return reason }
            return nil
        }
        #expect(
            failed == ["no Firebase project with sender ID 555 or project id 'someone-else' in the world's FCM service"]
        )
        #expect(device.iphone!.registration(of: BridgeFixture.bundleID).token != nil)
    }
}
