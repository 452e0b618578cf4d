import Foundation
import HTTPServer
import HTTPTypes
@testable import PushModel
import Testing

@testable import APNsGateway

/// Every reason of Apple's broadcast/channel error table (Tests/reference/apns.md §8.3), each produced by a request to
/// the broadcast send or the channel-management API, like `RequestValidationTests` does for the device-token table.
@Suite struct BroadcastReasonTableTests {
    enum Target: Sendable { case send, channels }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var target: Target = .send
        var method = "POST"
        var path: String?
        var bundle = Fixture.topic
        var channel: String? = BroadcastFixture.stored
        var headers: [(String, String)] = []
        var omit: Set<String> = []
        var body: String?
        var cert: UInt8?
        var environment = APNsEnvironment.sandbox
        /// A fault added before the request (the 429/500/503 answers APNs gives under load).
        var fault: APNsFaultAction?
        var jwtAge: TimeInterval = 0
        var expected: String?
        var status: Int
    }

    static let la = #"{"aps":{"event":"update","timestamp":1,"content-state":{"eta":5}}}"#
    static let big = #"{"aps":{"event":"update"},"x":""# + String(repeating: "x", count: 5120) + #""}"#

    static let cases: [Case] = [
        Case(description: "accepted send", expected: nil, status: 200),
        Case(
            description: "accepted create", target: .channels, channel: nil, body: BroadcastFixture.createBody,
            status: 201),
        // 400
        Case(
            description: "app without the capability", bundle: "com.example.nocap", expected: "FeatureNotEnabled",
            status: 400),
        Case(
            description: "create for an app without the capability", target: .channels,
            path: "/1/apps/com.example.nocap/channels", channel: nil, body: BroadcastFixture.createBody,
            expected: "FeatureNotEnabled", status: 400),
        Case(description: "no apns-channel-id", channel: nil, expected: "MissingChannelId", status: 400),
        Case(
            description: "read without apns-channel-id", target: .channels, method: "GET", channel: nil,
            expected: "MissingChannelId", status: 400),
        Case(description: "channel id not base64", channel: "not base64!", expected: "BadChannelId", status: 400),
        Case(
            description: "channel id too long", channel: Data(repeating: 1, count: 65).base64EncodedString(),
            expected: "BadChannelId", status: 400),
        Case(description: "unknown channel", channel: "dW5rbm93bg==", expected: "ChannelNotRegistered", status: 400),
        Case(
            description: "production channel on sandbox", channel: BroadcastFixture.productionOnly,
            expected: "ChannelNotRegistered", status: 400),
        Case(
            description: "another app's channel", channel: BroadcastFixture.otherApp, expected: "ChannelNotRegistered",
            status: 400),
        Case(
            description: "delete an unknown channel", target: .channels, method: "DELETE", channel: "dW5rbm93bg==",
            expected: "ChannelNotRegistered", status: 400),
        Case(
            description: "create with an unknown attribute", target: .channels, channel: nil,
            body: #"{"message-storage-policy":1,"push-type":"LiveActivity","ttl":5}"#, expected: "BadRequestParams",
            status: 400),
        Case(
            description: "create with policy 2", target: .channels, channel: nil,
            body: #"{"message-storage-policy":2,"push-type":"LiveActivity"}"#, expected: "BadRequestParams", status: 400
        ),
        Case(
            description: "create without a policy", target: .channels, channel: nil,
            body: #"{"push-type":"LiveActivity"}"#,
            expected: "BadRequestParams", status: 400),
        Case(
            description: "create body not JSON", target: .channels, channel: nil, body: "{policy",
            expected: "BadRequestPayload", status: 400),
        Case(
            description: "create body an array", target: .channels, channel: nil, body: "[1]",
            expected: "BadRequestPayload", status: 400),
        Case(description: "send body not JSON", body: "{aps", expected: "BadRequestPayload", status: 400),
        Case(description: "send without a body", body: "", expected: "PayloadEmpty", status: 400),
        Case(
            description: "create without a body", target: .channels, channel: nil, body: "", expected: "PayloadEmpty",
            status: 400),
        Case(
            description: "uppercase apns-id", headers: [("apns-id", "3F2504E0-4F89-11D3-9A0C-0305E82C3301")],
            expected: "BadMessageId", status: 400),
        Case(
            description: "bad apns-request-id", headers: [("apns-request-id", "42")], expected: "BadMessageId",
            status: 400),
        Case(
            description: "create with a bad apns-request-id", target: .channels, channel: nil,
            headers: [("apns-request-id", "x")], body: BroadcastFixture.createBody, expected: "BadMessageId",
            status: 400),
        Case(description: "no apns-push-type", omit: ["apns-push-type"], expected: "MissingPushType", status: 400),
        Case(
            description: "create without push-type", target: .channels, channel: nil,
            body: #"{"message-storage-policy":1}"#,
            expected: "MissingPushType", status: 400),
        Case(
            description: "alert push type", headers: [("apns-push-type", "alert")], expected: "InvalidPushType",
            status: 400),
        Case(
            description: "create for widgets", target: .channels, channel: nil,
            body: #"{"message-storage-policy":1,"push-type":"Widgets"}"#, expected: "InvalidPushType", status: 400),
        Case(
            description: "channel limit", target: .channels, channel: nil, body: BroadcastFixture.createBody,
            expected: "CannotCreateChannelConfig", status: 400),
        Case(
            description: "expiration not a number", headers: [("apns-expiration", "soon")],
            expected: "BadExpirationDate", status: 400),
        Case(
            description: "No Messages Stored with an expiration", channel: BroadcastFixture.unstored,
            headers: [("apns-expiration", "1900000000")], expected: "BadExpirationDate", status: 400),
        Case(
            description: "No Messages Stored without an expiration", channel: BroadcastFixture.unstored,
            omit: ["apns-expiration"], expected: "BadExpirationDate", status: 400),
        Case(
            description: "suffix on the bundle ID", bundle: Fixture.topic + ".push-type.liveactivity",
            expected: "TopicDisallowed", status: 400),
        Case(
            description: "apns-topic with a suffix",
            headers: [("apns-topic", Fixture.topic + ".push-type.liveactivity")],
            expected: "TopicDisallowed", status: 400),
        Case(
            description: "create with a suffix", target: .channels,
            path: "/1/apps/\(Fixture.topic).push-type.liveactivity/channels", channel: nil,
            body: BroadcastFixture.createBody, expected: "TopicDisallowed", status: 400),
        Case(description: "priority 7", headers: [("apns-priority", "7")], expected: "BadPriority", status: 400),
        // 403
        Case(
            description: "certificate not trusted", omit: ["authorization"], cert: 9, expected: "BadCertificate",
            status: 403),
        Case(
            description: "production certificate on sandbox", target: .channels, channel: nil,
            body: BroadcastFixture.createBody, cert: 3, expected: "BadCertificateEnvironment", status: 403),
        Case(
            description: "another app's certificate", omit: ["authorization"], cert: 4, expected: "TopicMismatch",
            status: 403),
        Case(
            description: "team not allowed this app", target: .channels, method: "GET",
            path: "/1/apps/com.example.app/all-channels",
            channel: nil, expected: "TopicMismatch", status: 403),
        Case(description: "no credentials", omit: ["authorization"], expected: "MissingProviderToken", status: 403),
        Case(
            description: "list without credentials", target: .channels, method: "GET",
            path: "/1/apps/\(Fixture.topic)/all-channels", channel: nil, omit: ["authorization"],
            expected: "MissingProviderToken", status: 403),
        Case(description: "token over an hour old", jwtAge: 3601, expected: "ExpiredProviderToken", status: 403),
        Case(
            description: "garbage token", headers: [("authorization", "bearer x.y.z")],
            expected: "InvalidProviderToken", status: 403),
        // 404, 405
        Case(
            description: "broadcast path without a bundle ID", path: "/4/broadcasts/apps/", expected: "BadPath",
            status: 404),
        Case(
            description: "broadcast path with a channel segment", path: "/4/broadcasts/apps/com.example.app/x",
            expected: "BadPath", status: 404),
        Case(
            description: "APNSwift's read path", target: .channels, method: "GET",
            path: "/1/apps/com.example.app/channels/abc", expected: "BadPath", status: 404),
        Case(description: "GET a broadcast", method: "GET", expected: "MethodNotAllowed", status: 405),
        Case(
            description: "PUT a channel", target: .channels, method: "PUT", channel: nil, expected: "MethodNotAllowed",
            status: 405),
        Case(
            description: "POST all-channels", target: .channels, path: "/1/apps/com.example.app/all-channels",
            channel: nil, expected: "MethodNotAllowed", status: 405),
        // 413
        Case(description: "payload over 5120 bytes", body: big, expected: "PayloadTooLarge", status: 413),
        // 429
        Case(description: "over the channel's send limit", expected: "TooManyRequests", status: 429),
        Case(
            description: "throttled (fault)", fault: .reject(.tooManyRequests), expected: "TooManyRequests", status: 429
        ),
        Case(description: "token changed within 20 minutes", expected: "TooManyProviderTokenUpdates", status: 429),
        // 500, 503
        Case(
            description: "internal error (fault)", target: .channels, channel: nil, body: BroadcastFixture.createBody,
            fault: .respond(status: 500, reason: "InternalServerError"), expected: "InternalServerError", status: 500),
        Case(
            description: "unavailable (fault, Apple's spelling)",
            fault: .respond(status: 503, reason: "Service Unavailable"),
            expected: "Service Unavailable", status: 503),
        Case(
            description: "shutting down (fault)", target: .channels, channel: nil, fault: .reject(.shutdown),
            expected: "Shutdown", status: 503),
    ]

    @Test func everyReasonOfApplesTableHasACase() {
        let covered = Set(Self.cases.compactMap(\.expected))
        for r in APNsBroadcastReason.allCases {
            #expect(covered.contains(r.rawValue), "no case for \(r.rawValue)")
        }
    }

    @Test func statusesAreApples() {
        for c in Self.cases {
            if let r = c.expected.flatMap(APNsBroadcastReason.init(rawValue:)) {
                #expect(r.status == c.status, "\(c.description)")
            }
        }
    }

    @Test(arguments: cases)
    func rule(_ c: Case) throws {
        let f = BroadcastFixture { config in
            if c.description == "channel limit" { config.broadcast.channelLimit = 2 }
            if c.description == "over the channel's send limit" {
                config.broadcast.rateLimit = APNsRateLimit(burst: 1, perSecond: 0.001)
            }
            if c.description == "team not allowed this app" {
                config.teamTopics = [Fixture.team: ["com.example.other"]]
            }
        }
        if let fault = c.fault { f.gateway.addFault(APNsFault(fault)) }
        let jwt = f.base.jwt(age: c.jwtAge)
        let (status, reason): (Int, String?)
        switch c.target {
        case .send:
            let request = f.broadcast(
                bundle: c.bundle, channel: c.channel, headers: c.headers, omit: c.omit, body: c.body ?? Self.la,
                method: c.method, path: c.path, jwt: jwt)
            let connection = Fixture.connection(certificate: c.cert.map { [$0] })
            if c.description == "over the channel's send limit" {
                #expect(f.base.send(request, on: connection).status == 200)
            }
            if c.description == "token changed within 20 minutes" {
                #expect(f.base.send(request, on: connection).status == 200)
                f.clock.advance(by: 60)
                let fresh = f.broadcast(jwt: f.base.jwt())
                let o = f.base.send(fresh, on: connection)
                (status, reason) = (o.status, o.reason)
            } else {
                let o = f.base.send(request, on: connection, endpoint: c.environment)
                (status, reason) = (o.status, o.reason)
                #expect(o.requestID != nil, "every broadcast answer carries apns-request-id")
            }
        case .channels:
            var extra = c.headers
            if !c.omit.contains("authorization"), c.cert == nil, !extra.contains(where: { $0.0 == "authorization" }) {
                extra.insert(("authorization", "bearer \(jwt)"), at: 0)
            }
            let o = f.gateway.evaluateChannelRequest(
                APNsChannelRequest(
                    environment: c.environment, method: c.method, path: c.path ?? BroadcastFixture.channelsPath,
                    fields: (c.channel.map { [HTTPField("apns-channel-id", $0)] } ?? [])
                        + extra.map { HTTPField($0.0, $0.1) }, body: Array((c.body ?? "").utf8),
                    connection: APNsConnectionFacts(Fixture.connection(certificate: c.cert.map { [$0] }))))
            (status, reason) = (o.status, o.reason)
            #expect(APNsRequestValidation.isCanonicalLowercaseUUID(o.requestID))
            #expect(o.response.headers.contains { $0.name == "apns-request-id" })
        }
        #expect(reason == c.expected, "\(c.description)")
        #expect(status == c.status, "\(c.description)")
    }
}
