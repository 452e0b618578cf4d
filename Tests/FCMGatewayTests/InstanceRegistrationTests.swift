import APNsGateway
import Foundation
@testable import PushModel
import Testing

@testable import FCMGateway

/// `registerInstance`: what the simulated device's Firebase SDK registration records, and what a send then does.
@Suite struct InstanceRegistrationTests {
    static func registration(
        _ token: String, sender: String = "123456789012", project: String = "demo-project",
        apns: DeviceToken? = Fixture.sandboxAPNs2
    ) -> FCMInstanceRegistration {
        FCMInstanceRegistration(
            token: token, senderID: sender, projectID: project, bundleID: Fixture.bundle,
            fid: String(token.prefix { $0 != ":" }), apnsToken: apns)
    }

    @Test func theSenderIDPicksTheProjectThenTheProjectIDAndUnknownIsNil() {
        let w = World()
        // The sender ID (project number) wins over the configured project id, as Firebase keys instances by sender.
        #expect(
            w.fcm.registerInstance(
                Self.registration("instanceNew01:APA91bNNNNNNNNNNNNNNNNNNNNNNNN", project: "other-project"))
                == "demo-project")
        #expect(
            w.fcm.registerInstance(
                Self.registration("instanceNew02:APA91bNNNNNNNNNNNNNNNNNNNNNNNN", sender: "1", project: "other-project")
            ) == "other-project")
        #expect(
            w.fcm.registerInstance(
                Self.registration("instanceNew03:APA91bNNNNNNNNNNNNNNNNNNNNNNNN", sender: "1", project: "nope")) == nil)
        #expect(w.fcm.isRegistered("instanceNew01:APA91bNNNNNNNNNNNNNNNNNNNNNNNN"))
        #expect(!w.fcm.isRegistered("instanceNew03:APA91bNNNNNNNNNNNNNNNNNNNNNNNN"))
        #expect(
            w.fcm.instances(mappedTo: Fixture.sandboxAPNs2).map(\.token).contains(
                "instanceNew01:APA91bNNNNNNNNNNNNNNNNNNNNNNNN"))
    }

    @Test func aRegisteredInstanceIsDeliveredToWithItsFidAndUnregisteringMakesItUnregistered() {
        let w = World()
        let token = "instanceNew04:APA91bNNNNNNNNNNNNNNNNNNNNNNNN"
        w.fcm.registerInstance(Self.registration(token))
        let (status, _) = w.send(#"{"token":"\#(token)","data":{"k":"v"}}"#)
        #expect(status == 200)
        let hop = w.fcm.log().last?.apns.first
        #expect(hop?.apnsToken == Fixture.sandboxAPNs2.hex)
        #expect(hop?.payload["google.c.fid"]?.stringValue == "instanceNew04")
        w.fcm.unregisterToken(token)
        let (gone, body) = w.send(#"{"token":"\#(token)","data":{"k":"v"}}"#)
        #expect(gone == 404 && body.fcmErrorCode == "UNREGISTERED")
        // Without an APNs token (never reached Firebase): accepted, nothing sent to APNs.
        let lost = "instanceNew05:APA91bNNNNNNNNNNNNNNNNNNNNNNNN"
        w.fcm.registerInstance(Self.registration(lost, apns: nil))
        #expect(w.send(#"{"token":"\#(lost)","data":{"k":"v"}}"#).0 == 200)
        #expect(w.fcm.log().last?.apns.isEmpty == true)
    }
}
