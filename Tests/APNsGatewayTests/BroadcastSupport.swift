import Foundation
import HTTPServer
import HTTPTypes
@testable import PushModel

@testable import APNsGateway

/// A gateway with broadcast channels: `com.example.app` and `com.example.other` have the capability
/// (`com.example.nocap` has none), one Most Recent Message Stored and one No Message Stored channel in sandbox,
/// one channel in production; certificates by first DER byte as in `CertificateAuthTests`.
struct BroadcastFixture {
    static let stored = "c3BvcnRzLWZpbmFs"  // "sports-final"
    static let unstored = "c2NvcmUtdGlja2Vy"  // "score-ticker"
    static let productionOnly = "cHJvZC1vbmx5"  // "prod-only"
    static let otherApp = "b3RoZXItYXBw"  // "other-app"
    static let facts: [UInt8: APNsClientCertificate] = [
        1: APNsClientCertificate(uid: Fixture.topic),
        3: APNsClientCertificate(uid: Fixture.topic, environments: [.production]),
        4: APNsClientCertificate(uid: "com.example.other"),
    ]

    let base: Fixture

    init(_ configure: (inout APNsGatewayConfiguration) -> Void = { _ in }) {
        base = Fixture { c in
            c.certificateInspector = { der in der.first.flatMap { BroadcastFixture.facts[$0] } }
            c.broadcast.enabledApps = [Fixture.topic, "com.example.other"]
            c.broadcast.seed = 7
            c.broadcast.channels = [
                APNsChannelDeclaration(
                    bundleID: Fixture.topic, channelID: Self.stored, storagePolicy: .mostRecentMessageStored),
                APNsChannelDeclaration(
                    bundleID: Fixture.topic, channelID: Self.unstored, storagePolicy: .noMessageStored),
                APNsChannelDeclaration(
                    bundleID: Fixture.topic, channelID: Self.productionOnly, environment: .production,
                    storagePolicy: .mostRecentMessageStored),
                APNsChannelDeclaration(bundleID: "com.example.other", channelID: Self.otherApp),
            ]
            configure(&c)
        }
    }

    var gateway: APNsGateway { base.gateway }
    var consumer: RecordingConsumer { base.consumer }
    var clock: ManualClock { base.clock }

    /// A broadcast send `POST /4/broadcasts/apps/<bundle>` with a Live Activity update, tweaked by `headers`
    /// (replacing same-named ones) and `omit`.
    func broadcast(
        bundle: String = Fixture.topic, channel: String? = BroadcastFixture.stored,
        headers extra: [(String, String)] = [],
        omit: Set<String> = [], body: String = #"{"aps":{"timestamp":1,"event":"update","content-state":{"eta":5}}}"#,
        method: String = "POST", path: String? = nil, jwt: String? = nil
    ) -> HTTPRequest {
        var base: [(String, String)] = [
            ("authorization", "bearer \(jwt ?? self.base.jwt())"), ("apns-push-type", "liveactivity"),
            ("apns-expiration", "0"),
        ]
        if let channel { base.append(("apns-channel-id", channel)) }
        var fields: [HTTPField] = []
        for (n, v) in base where !omit.contains(n) && !extra.contains(where: { $0.0 == n }) {
            fields.append(HTTPField(n, v))
        }
        for (n, v) in extra { fields.append(HTTPField(n, v)) }
        return HTTPRequest(
            version: .http2, method: method, path: path ?? "/4/broadcasts/apps/\(bundle)", authority: "localhost",
            scheme: "https", headers: fields, body: Array(body.utf8), streamID: 1)
    }

    func send(_ r: HTTPRequest, cert: UInt8? = nil, endpoint: APNsEnvironment = .sandbox) -> APNsOutcome {
        base.send(r, on: Fixture.connection(certificate: cert.map { [$0] }), endpoint: endpoint)
    }

    /// A channel-management request (token auth unless `cert` or `omit` says otherwise).
    func channelRequest(
        _ method: String, _ path: String, channel: String? = nil, headers extra: [(String, String)] = [],
        omit: Set<String> = [], body: String = "", cert: UInt8? = nil, environment: APNsEnvironment = .sandbox
    ) -> APNsChannelOutcome {
        var fields: [HTTPField] = []
        if cert == nil && !omit.contains("authorization") && !extra.contains(where: { $0.0 == "authorization" }) {
            fields.append(HTTPField("authorization", "bearer \(base.jwt())"))
        }
        if let channel { fields.append(HTTPField("apns-channel-id", channel)) }
        for (n, v) in extra { fields.append(HTTPField(n, v)) }
        return gateway.evaluateChannelRequest(
            APNsChannelRequest(
                environment: environment, method: method, path: path, fields: fields, body: Array(body.utf8),
                connection: APNsConnectionFacts(Fixture.connection(certificate: cert.map { [$0] }))))
    }

    static let createBody = #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#
    static let channelsPath = "/1/apps/\(Fixture.topic)/channels"
}
