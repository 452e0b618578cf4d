import DeviceBridge
import FCMGateway
import Foundation
import HTTPClient

extension ScenarioWorld {
    /// The world's mock FCM service (`gateway: { fcm: … }`), nil when it declares none.
    var fcm: FCMGateway? { host.fcm }

    /// The runner's FCM sender for this world (see the world-host wiring).
    func fcmClient() throws -> FCMClient { throw HTTPClientError.shutDown }
}
