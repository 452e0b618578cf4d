import Foundation
@testable import PushModel
import Testing

@testable import FCMGateway

/// Which details a 400 carries (Tests/reference/fcm.md §12): a proto3 JSON decoding error has a `google.rpc.BadRequest`
/// alone (Google's error-codes page, example 1), a token that is not an FCM registration token the FcmError alone
/// (example 2), FCM's other checks both (the ErrorCode page: INVALID_ARGUMENT comes with a BadRequest naming the field).
@Suite struct ErrorShapeTests {
    let w = World()

    static func json(_ text: String) -> JSONValue { try! JSONValue.parse(Array(text.utf8)) }

    /// Example 1, byte for byte as Google's page shows it (bar key order).
    @Test func nonStringDataValueIsExampleOne() {
        let (status, body) = w.send(#"{"token":"\#(Fixture.tokenA)","data":{"count":12}}"#)
        let text = "Invalid value at 'message.data[0].value' (TYPE_STRING), 12"
        #expect(status == 400)
        #expect(
            body
                == Self.json(
                    #"{"error":{"code":400,"message":"\#(text)","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.data[0].value","description":"\#(text)"}]}]}}"#
                ), "\(body)")
    }

    /// Example 2, as Google's page shows it; also for a malformed `fid` and on a dry run.
    @Test(arguments: [
        (#"{"token":"not-a-token"}"#, false), (#"{"token":"not-a-token"}"#, true), (#"{"fid":"nope"}"#, false),
        (#"{"token":""}"#, false),
    ])
    func invalidRegistrationTokenIsExampleTwo(message: String, validateOnly: Bool) {
        let (status, body) = w.send(message, validateOnly: validateOnly)
        #expect(status == 400)
        #expect(
            body
                == Self.json(
                    #"{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
                ), "\(body)")
    }

    /// Every error of reading the JSON into the proto (unknown or repeated name, wrong type, bad enum, bad Duration,
    /// a second oneof member, not JSON at all): the BadRequest naming the field, no FcmError.
    @Test(arguments: [
        (#"{"message":{"token":"t","colour":1}}"#, "message"),
        (#"{"validate_only":true,"validateOnly":true,"message":{"topic":"news"}}"#, ""),
        (#"{"message":{"topic":"news","android":{"ttl":"3 seconds"}}}"#, "message.android.ttl"),
        (#"{"message":{"topic":"news","android":{"priority":"URGENT"}}}"#, "message.android.priority"),
        (
            #"{"message":{"topic":"news","android":{"notification":{"visibility":9}}}}"#,
            "message.android.notification.visibility"
        ),
        (#"{"message":{"topic":"news","apns":{"headers":{"apns-priority":10}}}}"#, "message.apns.headers[0].value"),
        (#"{"message":{"topic":"news","notification":{"title":7}}}"#, "message.notification.title"),
        (#"{"message":{"token":"a","topic":"news"}}"#, "message"),
        (#"{"validate_only":"yes","message":{"topic":"news"}}"#, "validate_only"),
        (#"{"message":"#, ""),
    ])
    func decodingErrorsCarryBadRequestOnly(body text: String, field: String) {
        let r = w.fcm.evaluate(
            w.request("POST", "/v1/projects/demo-project/messages:send", json: text, bearer: w.bearer()))
        let body = (try? JSONValue.parse(r.body)) ?? .null
        #expect(r.status == 400 && body[path: "error.status"] == "INVALID_ARGUMENT", "\(body)")
        #expect(body.fcmErrorCode == nil, "\(body)")
        #expect(body[path: "error.details"]?.arrayValue?.count == 1, "\(body)")
        #expect(body.violationField == field, "\(body)")
        // The log says which: the rebuilt answer (`run:` steps) must not gain an FcmError the sender never saw.
        #expect(w.fcm.log().last?.fcmErrorDetail == false)
    }

    /// FCM's own checks on a well-formed message keep both details.
    @Test(arguments: [
        (#"{"topic":"news","data":{"from":"x"}}"#, "message.data"),
        (#"{"topic":"bad topic!"}"#, "message.topic"),
        (#"{"topic":"news","data":{"k":"\#(String(repeating: "x", count: 2100))"}}"#, "message"),
        (#"{"data":{"k":"v"}}"#, "message"),
    ])
    func fcmValidationCarriesBoth(message: String, field: String) {
        let (status, body) = w.send(message)
        #expect(status == 400 && body.fcmErrorCode == "INVALID_ARGUMENT", "\(body)")
        #expect(body.violationField == field, "\(body)")
        #expect(w.fcm.log().last?.fcmErrorDetail == true)
    }
}
