import Foundation
import PushModel

/// Everything that shapes the mock's answers. A value: build it, hand it to `APNsGateway`, change the
/// running gateway through its methods.
package struct APNsGatewayConfiguration: Sendable {
    /// Provider (.p8) keys by key ID.
    package var providerKeys: [APNsProviderKey] = []
    /// Bundle IDs each team may push to (team ID → bundle IDs). A team not listed may push to any topic.
    var teamTopics: [String: Set<String>] = [:]
    /// Turns a client certificate (DER) into the facts certificate auth needs; `nil` from it → BadCertificate.
    /// Default: PushCrypto's X.509 reader, trusting whatever the TLS layer verified. Use
    /// `APNsClientCertificate.inspector(trustedCAPEMs:)` to require specific issuing CAs.
    var certificateInspector: (@Sendable ([UInt8]) -> APNsClientCertificate?)? =
        APNsClientCertificate.inspector()
    /// A client certificate the listener did not verify against its trusted CAs
    /// (`ConnectionContext.clientCertificateTrusted == false`) gets BadCertificate.
    var requireTransportTrustedCertificates = true
    /// Bundle IDs for which certificate authentication is accepted; a certificate for any other app gets
    /// TopicDisallowed. `nil`: every app whose certificate the connection presents.
    var certificateTopics: Set<String>?
    /// Known device tokens.
    var deviceTokens: [RegisteredDeviceToken] = []
    /// Load-test mode: unknown device tokens are accepted.
    var acceptUnknownTokens = false
    /// Per-device-token limit (TooManyRequests); `nil` = off.
    var rateLimit: APNsRateLimit?
    /// Faults active from the start.
    package var faults: [APNsFault] = []
    /// How many requests the in-memory delivery log keeps.
    package var logCapacity = 10_000
    /// Bytes the in-memory delivery log may hold (entries beyond it are dropped, oldest first).
    var logMaxBytes = 64 << 20
    /// Bytes of each request body the log keeps (the rest is cut; the entry says so). Applies to the
    /// JSON-lines file too.
    var logMaxStoredPayload = 8 << 10
    /// Also append every log entry to this JSON-lines file.
    package var logFilePath: String?
    /// SETTINGS_MAX_CONCURRENT_STREAMS once authenticated (Pushy's default: 1500).
    package var maxConcurrentStreams: UInt32 = 1500
    /// Token connections start with one stream until a request carries a valid token (as APNs does).
    var oneStreamUntilValidToken = true
    /// APNs speaks only HTTP/2 (production fails an HTTP/1.1 client's connection; Pushy's mock refuses HTTP/1.x): HTTP/1.1
    /// requests get 505 with `{"reason":"HTTP2Required"}` and the connection is closed. `allow_http1: true` turns it
    /// off, for a test client that cannot speak HTTP/2.
    var requireHTTP2 = true
    /// Whether devices are online (pushes delivered at once) unless set offline.
    var devicesOnlineByDefault = true
    /// How many store-and-forward events are kept.
    var deliveryHistoryCapacity = 10_000
    /// Broadcast push (iOS 18): capability, channels from the start, limits (`broadcast:`).
    package var broadcast = APNsBroadcastConfiguration()

    package init() {}
}

extension APNsGatewayConfiguration {
    /// The delivery log's bounds from `logCapacity`, `logMaxBytes` and `logMaxStoredPayload`.
    var logLimits: APNsLogLimits {
        APNsLogLimits(capacity: logCapacity, maxBytes: logMaxBytes, maxStoredPayload: logMaxStoredPayload)
    }
}
