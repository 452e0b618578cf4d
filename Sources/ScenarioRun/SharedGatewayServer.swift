import DeviceBridge
import Foundation
import HTTPServer
import Synchronization

/// The runner's one `WorldServer` (DeviceBridge) for every scenario world in the process: a TLS listener per
/// APNs environment, one for FCM and one per channel-management API, each world mounted under `/w/<id>` (`ScenarioWorld.url`, `fcmURL`). Worlds that need a listener
/// of their own (client certificates from `client_certificate_cas`, backend scripts at the root) do not use it.
enum SharedGatewayServer {
    private static let made = Mutex<WorldServer?>(nil)

    /// The process-wide server (started on first use).
    static func shared(_ credentials: SharedCredentials) throws -> WorldServer {
        try made.withLock { (value: inout WorldServer?) throws -> WorldServer in
            if let value { return value }
            let tls = TLSConfiguration(
                certificateChainPEM: credentials.server.pem, privateKeyPEM: credentials.server.privateKeyPEM,
                clientCertificates: .request(trustedCAPEMs: [credentials.ca.certificatePEM]))
            let new = try WorldServer(
                tls: tls, endpoints: [.sandbox, .production, .fcm, .broadcastSandbox, .broadcastProduction],
                loops: min(2, ProcessInfo.processInfo.activeProcessorCount))
            value = new
            return new
        }
    }
}
