import Foundation
@testable import Provisioning
@testable import PushModel
import Synchronization
import Testing

@testable import DeviceSimulator

/// An app's Firebase SDK asking the device's Firebase service for its FCM token, after the APNs registration and
/// outside the device lock. (The world's real service, the FCM gateway, is tested in DeviceBridgeTests.)
@Suite struct FirebaseServiceTests {
    /// Records what it was asked and answers with a fixed token, or refuses.
    final class Recorder: FirebaseTokenService {
        let asked = Mutex<[FirebaseTokenRequest]>([])
        let refuse: Bool
        init(refuse: Bool = false) { self.refuse = refuse }
        func fcmToken(for request: FirebaseTokenRequest) -> Result<String, FirebaseTokenRefusal> {
            asked.withLock { $0.append(request) }
            return refuse
                ? .failure(FirebaseTokenRefusal("no such sender")) : .success(request.installationID + ":APA91bISSUED")
        }
    }

    static let firebase = FirebaseDeclaration(senderID: "123456789012", projectID: "demo")

    @Test func theTokenComesFromTheServiceAfterTheAPNsRegistration() throws {
        let (d, _) = Fixture.device()
        let service = Recorder()
        d.useFirebaseService(service)
        let app = Fixture.app(firebase: Self.firebase)
        d.setUp(app)
        let request = try #require(service.asked.withLock { $0 }.first)
        let apns = d.registration(of: app.bundleID).token
        #expect(request.apnsToken == apns && request.senderID == "123456789012" && request.installationID.count == 22)
        #expect(d.registration(of: app.bundleID).fcmToken == request.installationID + ":APA91bISSUED")
        let kinds = d.events.map { $0.jsonValue["type"]?.stringValue ?? "" }
        #expect(kinds.lastIndex(of: "fcm-token")! > kinds.lastIndex(of: "registered")!)

        // Swizzling off, not forwarded: the SDK registers without an APNs token.
        let (d2, _) = Fixture.device()
        let s2 = Recorder()
        d2.useFirebaseService(s2)
        d2.setUp(Fixture.app(firebase: Self.firebase, proxyEnabled: false))
        #expect(s2.asked.withLock { $0 }.first?.apnsToken == nil)
    }

    @Test func aRefusalLeavesNoTokenAndSaysWhy() {
        let (d, _) = Fixture.device()
        d.useFirebaseService(Recorder(refuse: true))
        d.setUp(Fixture.app(firebase: Self.firebase))
        #expect(d.registration(of: Fixture.bundleID).fcmToken == nil)
        #expect(d.events.last?.description.hasSuffix("FCM token not issued: no such sender") == true)
        #expect(d.events.last?.jsonValue["type"] == "fcm-token-failed")
    }

    @Test func withoutAServiceTheDeviceIssuesItsSeededStandIn() {
        let (d, _) = Fixture.device()
        d.setUp(Fixture.app(firebase: Self.firebase))
        let token = d.registration(of: Fixture.bundleID).fcmToken
        #expect(
            token
                == TokenGenerator(seed: 42).fcmToken(
                    udid: Fixture.udid, bundleID: Fixture.bundleID, senderID: "123456789012", generation: 1))
    }
}
