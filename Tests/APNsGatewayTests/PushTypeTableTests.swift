import Foundation
import HTTPServer
@testable import PushModel
import Testing

@testable import APNsGateway

/// Every push type at the gateway, row by row of Apple's table (../shared/reference/apns.md §1.3,
/// Tests/reference/apns.md §6.1–§6.3): topic suffix, which auth kinds it takes, which priorities, its payload limit,
/// and the type read from a request without `apns-push-type`.
@Suite struct PushTypeTableTests {
    static let mdmTopic = "com.apple.mgmt.External.5e3b0c6a-1f0d-4a62-9d5e-0123456789ab"
    static let mdmToken = DeviceToken(hex: String(repeating: "3d", count: 32))!

    /// Certificates by first DER byte: 1 the app's with every suffixed topic in its extension; 2 the MDM push
    /// certificate (its UID is the MDM topic).
    static let facts: [UInt8: APNsClientCertificate] = [
        1: APNsClientCertificate(
            uid: Fixture.topic,
            extensionTopics: [Fixture.topic]
                + APNsPushType.allCases.filter { !$0.topicSuffix.isEmpty }.map { Fixture.topic + $0.topicSuffix }),
        2: APNsClientCertificate(uid: mdmTopic),
    ]

    let f = Fixture { c in
        c.certificateInspector = { der in der.first.flatMap { PushTypeTableTests.facts[$0] } }
        c.deviceTokens.append(RegisteredDeviceToken(token: mdmToken, topic: mdmTopic, environment: .sandbox))
    }

    /// What the gateway answers for one push type (nil: 200).
    struct Row: Sendable, CustomStringConvertible {
        var type: APNsPushType
        var onCertificate: APNsReason?
        var atPriority1: APNsReason?
        var atPriority10: APNsReason?
        var description: String { type.rawValue }
    }

    static let rows: [Row] = [
        Row(type: .alert),
        Row(type: .background, atPriority10: .badPriority),
        Row(type: .complication),
        Row(type: .controls),
        Row(type: .fileprovider, onCertificate: .topicDisallowed),
        Row(type: .liveactivity, onCertificate: .topicDisallowed, atPriority1: .badPriority),
        Row(type: .location, onCertificate: .topicDisallowed),
        Row(type: .mdm),
        Row(type: .pushtotalk),
        Row(type: .voip),
        Row(type: .widgets),
    ]

    @Test func everyTypeHasARow() {
        #expect(Set(Self.rows.map(\.type)) == Set(APNsPushType.allCases))
    }

    func topic(_ t: APNsPushType) -> String { t == .mdm ? Self.mdmTopic : Fixture.topic + t.topicSuffix }
    func token(_ t: APNsPushType) -> String { (t == .mdm ? Self.mdmToken : Fixture.sandboxToken).hex }
    func body(_ t: APNsPushType) -> String {
        t == .background ? #"{"aps":{"content-available":1}}"# : #"{"aps":{"alert":"hi"}}"#
    }

    func send(_ t: APNsPushType, extra: [(String, String)] = [], omit: Set<String> = [], cert: UInt8? = nil)
        -> APNsOutcome
    {
        var headers = [("apns-push-type", t.rawValue), ("apns-topic", topic(t))]
        headers.removeAll { h in omit.contains(h.0) || extra.contains { $0.0 == h.0 } }
        let r = f.request(
            token: token(t), headers: headers + extra, omit: omit.union(cert == nil ? [] : ["authorization"]),
            body: body(t))
        return f.send(r, on: cert.map { Fixture.connection(certificate: [$0]) })
    }

    @Test(arguments: rows)
    func tokenAuthTakesEveryTypeAtItsTopic(_ row: Row) throws {
        let o = send(row.type)
        #expect(o.status == 200, "\(row.type): \(o.reason ?? "")")
        #expect(try #require(o.push).pushType == row.type)
    }

    @Test(arguments: rows)
    func certificateAuth(_ row: Row) {
        let o = send(row.type, cert: row.type == .mdm ? 2 : 1)
        #expect(o.appleReason == row.onCertificate, "\(row.type) on a certificate connection")
        #expect(o.auth == .certificate(uid: row.type == .mdm ? Self.mdmTopic : Fixture.topic))
    }

    @Test(arguments: rows)
    func priorities(_ row: Row) {
        #expect(send(row.type, extra: [("apns-priority", "1")]).appleReason == row.atPriority1, "\(row.type) at 1")
        #expect(send(row.type, extra: [("apns-priority", "5")]).appleReason == nil, "\(row.type) at 5")
        #expect(send(row.type, extra: [("apns-priority", "10")]).appleReason == row.atPriority10, "\(row.type) at 10")
    }

    @Test(arguments: rows)
    func topicMustCarryTheTypesSuffix(_ row: Row) {
        guard !row.type.topicSuffix.isEmpty else { return }
        #expect(send(row.type, extra: [("apns-topic", Fixture.topic)]).appleReason == .badTopic, "\(row.type)")
        let other = row.type == .voip ? APNsPushType.pushtotalk : .voip
        #expect(
            send(row.type, extra: [("apns-topic", Fixture.topic + other.topicSuffix)]).appleReason == .badTopic,
            "\(row.type) at the \(other) topic")
    }

    @Test(arguments: rows)
    func payloadLimit(_ row: Row) {
        let limit = row.type == .voip ? 5120 : 4096
        #expect(row.type.maxPayloadBytes == limit)
        func padded(_ size: Int) -> String {
            let head = row.type == .background ? #"{"aps":{"content-available":1},"x":""# : #"{"aps":{},"x":""#
            return head + String(repeating: "a", count: size - head.utf8.count - 2) + #""}"#
        }
        let headers = [("apns-push-type", row.type.rawValue), ("apns-topic", topic(row.type))]
        let atLimit = f.send(f.request(token: token(row.type), headers: headers, body: padded(limit)))
        #expect(atLimit.status == 200, "\(row.type): \(limit) bytes")
        let over = f.send(f.request(token: token(row.type), headers: headers, body: padded(limit + 1)))
        #expect(over.appleReason == .payloadTooLarge, "\(row.type): \(limit + 1) bytes")
    }

    /// No `apns-push-type` (real clients omit it for the types they lack): the topic's suffix says the type.
    @Test(arguments: rows)
    func missingPushTypeIsReadFromTheTopic(_ row: Row) throws {
        guard !row.type.topicSuffix.isEmpty else { return }
        let o = send(row.type, omit: ["apns-push-type"])
        #expect(o.status == 200, "\(row.type): \(o.reason ?? "")")
        #expect(try #require(o.push).pushType == row.type)
        #expect(f.gateway.log().last?.pushType == row.type)
    }

    /// A bare topic and no header: a payload of only `content-available: 1` is a background push (priority 5 by
    /// default, 10 refused as with the header), anything else an alert.
    @Test func missingPushTypeAtTheBareTopicIsReadFromThePayload() throws {
        let background = #"{"aps":{"content-available":1}}"#
        let quiet = f.send(f.request(omit: ["apns-push-type"], body: background))
        #expect(quiet.status == 200)
        #expect(try #require(quiet.push).pushType == .background)
        #expect(quiet.push?.priority == .conserve)
        let loud = f.send(f.request(headers: [("apns-priority", "10")], omit: ["apns-push-type"], body: background))
        #expect(loud.appleReason == .badPriority)
        let alert = f.send(f.request(omit: ["apns-push-type"], body: #"{"aps":{"badge":0,"content-available":1}}"#))
        #expect(try #require(alert.push).pushType == .alert)
        let notJSON = f.send(f.request(omit: ["apns-push-type"], body: "nope"))
        #expect(notJSON.appleReason == .payloadEmpty)
        // Past any limit the payload is not read for its type (too large whatever it is).
        let big = #"{"aps":{"content-available":1},"x":""# + String(repeating: "a", count: 5000) + #""}"#
        #expect(f.send(f.request(omit: ["apns-push-type"], body: big)).appleReason == .payloadTooLarge)
        #expect(f.gateway.log().last?.pushType == .alert)
    }

    /// Header values APNs does not know are refused; every one of Apple's eleven is taken (pyapns_client sends
    /// whatever string it is given, aioapns sends `liveactivity`).
    @Test func pushTypeStrings() {
        for bad in ["LiveActivity", "Alert", "banner", "voip ", ""] {
            #expect(send(.alert, extra: [("apns-push-type", bad)]).appleReason == .invalidPushType, "'\(bad)'")
        }
    }

    /// The payload-implied type runs only when the header is absent: a background payload sent as `alert` stays
    /// an alert.
    @Test func aSentPushTypeWins() throws {
        let o = f.send(f.request(body: #"{"aps":{"content-available":1}}"#))
        #expect(try #require(o.push).pushType == .alert)
    }
}
