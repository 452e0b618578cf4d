import Foundation
import HTTPServer
import HTTPTypes
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import APNsGateway

/// A gateway with one team key, one sandbox and one production token, on a manual clock.
struct Fixture {
    static let team = "TEAM123456"
    static let kid = "KEY1234567"
    static let topic = "com.example.app"
    static let sandboxToken = DeviceToken(hex: String(repeating: "ab", count: 32))!
    static let productionToken = DeviceToken(hex: String(repeating: "cd", count: 32))!
    /// One key pair for the whole test run (generation is the slow part).
    static let key = try! P256PrivateKey.generate()
    static let otherKey = try! P256PrivateKey.generate()

    let clock = ManualClock()
    let gateway: APNsGateway
    let consumer = RecordingConsumer()

    init(_ configure: (inout APNsGatewayConfiguration) -> Void = { _ in }) {
        var c = APNsGatewayConfiguration()
        c.providerKeys = [APNsProviderKey(keyID: Self.kid, teamID: Self.team, publicKey: Self.key.publicKey)]
        c.deviceTokens = [
            RegisteredDeviceToken(token: Self.sandboxToken, topic: Self.topic, environment: .sandbox),
            RegisteredDeviceToken(token: Self.productionToken, topic: Self.topic, environment: .production),
        ]
        configure(&c)
        gateway = try! APNsGateway(configuration: c, clock: clock)
        gateway.setConsumer(consumer)
    }

    /// A provider token signed now (or `age` seconds ago) by `key` under `kid`/`team`.
    func jwt(
        kid: String = Fixture.kid, team: String = Fixture.team, age: TimeInterval = 0, key: P256PrivateKey = Fixture.key
    )
        -> String
    {
        try! JWT.apnsProviderToken(
            teamID: team, keyID: kid, issuedAt: Int(clock.now().timeIntervalSince1970 - age), key: key)
    }

    /// A valid alert request for the sandbox token; tweak it with `edit`.
    func request(
        token: String = Fixture.sandboxToken.hex, jwt: String? = nil, headers extra: [(String, String)] = [],
        omit: Set<String> = [], body: String = #"{"aps":{"alert":"hi"}}"#, method: String = "POST"
    ) -> HTTPRequest {
        var h: [HTTPField] = []
        let base: [(String, String)] = [
            ("authorization", "bearer \(jwt ?? self.jwt())"), ("apns-topic", Fixture.topic),
            ("apns-push-type", "alert"),
        ]
        for (n, v) in base where !omit.contains(n) && !extra.contains(where: { $0.0 == n }) {
            h.append(HTTPField(n, v))
        }
        for (n, v) in extra { h.append(HTTPField(n, v)) }
        return HTTPRequest(
            version: .http2, method: method, path: "/3/device/\(token)", authority: "localhost", scheme: "https",
            headers: h, body: Array(body.utf8), streamID: 1)
    }

    func send(_ r: HTTPRequest, on c: ConnectionContext? = nil, endpoint: APNsEnvironment = .sandbox) -> APNsOutcome {
        gateway.evaluate(r, connection: c ?? Fixture.connection(), endpoint: endpoint)
    }

    static let ids = Mutex<UInt64>(0)

    static func connection(certificate: [UInt8]? = nil, listener: String = "sandbox", trusted: Bool = true)
        -> ConnectionContext
    {
        let id = ids.withLock {
            $0 += 1
            return $0
        }
        return ConnectionContext(
            id: id, listenerName: listener, remoteAddress: "127.0.0.1", localPort: 443,
            security: .tls(alpn: "h2", peerCertificateDER: certificate), version: .http2,
            clientCertificateTrusted: trusted && certificate != nil)
    }
}

import Synchronization
