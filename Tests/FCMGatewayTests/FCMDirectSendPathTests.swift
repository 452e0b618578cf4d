import Foundation
import HTTPTypes
@testable import PushModel
import Testing

@testable import FCMGateway

/// The send path end to end: a body the direct path takes against its twin with one escaped character in the token
/// (the same message, which only the message path reads), each in its own world on the same fixed clock. Answers,
/// log entries, APNs hops (headers and payload bytes) and message names must be the same, for every target kind
/// (iOS with and without a FID, unregistered, other project, Android, unknown, malformed) and with `validate_only`.
@Suite struct FCMDirectSendPathTests {
    static let messages = [
        #"{"token":"TOKEN","notification":{"title":"bench","body":"hello"},"data":{"url":"https://example.com/a"},"apns":{"payload":{"aps":{"badge":1}}}}"#,
        #"{"token":"TOKEN"}"#,
        #"{"token":"TOKEN","data":{"b":"2","a":"1","go":"x"},"apns":{"payload":{"aps":{"content-available":1}}}}"#,
        #"{"token":"TOKEN","notification":{"body":"b"},"apns":{"payload":{"aps":{"content-available":1,"sound":"s"}}}}"#,
        #"{"token":"TOKEN","apns":{"payload":{"aps":{"badge":-3,"mutable-content":1,"x":true,"y":false}}}}"#,
    ]

    static let tokens = [
        Fixture.tokenA, Fixture.tokenB, Fixture.tokenGone, Fixture.tokenProd, Fixture.tokenAndroid, Fixture.tokenOther,
        "fcmInstanceNone:APA91bHnnnnnnnnnnnnnnnnnnnnnnnnnnn", "fcmInstance",
    ]

    /// The status, the answer, and the log entry without its APNs ids (random per push).
    func outcome(_ w: World, _ body: String) -> (Int, String, String, [[UInt8]], [[HTTPField]]) {
        let r = w.fcm.evaluate(
            w.request("POST", "/v1/projects/demo-project/messages:send", json: body, bearer: w.bearer()))
        guard let entry = w.fcm.log(limit: 1).last else { return (r.status, "", "", [], []) }
        let hops = entry.apns
        // The APNs ids are random per push: left out.
        guard case .object(var json) = entry.json else { return (r.status, "", "", [], []) }
        if case .array(let hs)? = json["apns"] {
            json["apns"] = .array(
                hs.map { h in
                    guard case .object(var o) = h else { return h }
                    o["apns_id"] = .string("-")
                    return .object(o)
                })
        }
        return (
            r.status, String(decoding: r.body, as: UTF8.self),
            String(decoding: JSONValue.object(json).serializedBytes(), as: UTF8.self),
            hops.map(\.payloadBytes), hops.map(\.headerFields)
        )
    }

    @Test func theDirectPathAnswersAndLogsAsTheMessagePath() {
        let clock = ManualClock()
        let direct = World(clock: clock), message = World(clock: clock)
        var taken = 0
        for template in Self.messages {
            for token in Self.tokens {
                for validateOnly in [false, true] {
                    let m = template.replacingOccurrences(of: "TOKEN", with: token)
                    // `fcm` → `f\u0063m`: the same token, which only the full rules read.
                    let twin = m.replacingOccurrences(of: #""token":"fcm"#, with: #""token":"f\u0063m"#)
                    let prefix = validateOnly ? #"{"validate_only":true,"message":"# : #"{"message":"#
                    let body = prefix + m + "}", twinBody = prefix + twin + "}"
                    #expect(FCMDirectSend.read(Array(twinBody.utf8)) == nil)
                    if FCMDirectSend.read(Array(body.utf8)) != nil { taken += 1 }
                    let a = outcome(direct, body), b = outcome(message, twinBody)
                    #expect(a.0 == b.0 && a.1 == b.1, "\(body)")
                    #expect(a.2 == b.2, "\(body)")
                    #expect(a.3 == b.3 && a.4 == b.4, "\(body)")
                }
            }
            clock.advance(by: 1)
        }
        #expect(taken == Self.messages.count * Self.tokens.count * 2)
    }
}
