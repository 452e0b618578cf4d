import APNsGateway
import FCMGateway
@testable import PushCrypto
@testable import PushModel
import Testing

@testable import DeviceBridge

/// The console's FCM form (`"via": "fcm"`): what it accepts, the body it sends, and its check by FCM's own rules
/// (no socket: the check sends and logs nothing). The send itself is tested in a browser against `serve`
/// (Tests/python/test_web_console.py).
struct ConsoleFCMFormTests {
    static func decode(_ json: String) -> Result<ConsoleSend, QueryError> { ConsoleSendForm.decode(Array(json.utf8)) }

    static func fcmForm(_ json: String) throws -> ConsoleFCMForm {
        guard case .success(.fcm(let form)) = decode(json) else {
            Issue.record("not an FCM form: \(decode(json))")
            throw QueryError("not an FCM form")
        }
        return form
    }

    @Test func viaPicksTheFormAndUnknownFieldsAreRefused() throws {
        guard case .success(.apns(let apns)) = Self.decode(#"{"token": "ab", "topic": "com.x"}"#) else {
            Issue.record("no via: an APNs push")
            return
        }
        #expect(apns.topic == "com.x")
        guard case .success(.apns) = Self.decode(#"{"via": "apns", "token": "ab"}"#) else {
            Issue.record("via apns: an APNs push")
            return
        }
        let form = try Self.fcmForm(
            #"{"via": "fcm", "project": "shop", "message": "{}", "validate_only": true, "auth": "bearer", "bearer": "Bearer t0k"}"#
        )
        #expect(form.project == "shop" && form.validateOnly && form.auth == .bearer("t0k"))
        let refusals: [(String, String)] = [
            (#"{"via": "fcm", "project": "shop", "topic": "news"}"#, "unknown field 'topic'"),
            (#"{"via": "fcm", "message": "{}"}"#, "needs 'project'"),
            (#"{"via": "fcm", "project": "../x"}"#, "project id or number"),
            (#"{"via": "fcm", "project": "p", "validate_only": "yes"}"#, "validate_only must be true or false"),
            (#"{"via": "fcm", "project": "p", "auth": "bearer"}"#, "needs the token in 'bearer'"),
            (#"{"via": "sms"}"#, "via must be apns or fcm"),
        ]
        for (json, words) in refusals {
            guard case .failure(let e) = Self.decode(json) else {
                Issue.record("accepted: \(json)")
                continue
            }
            #expect(e.message.contains(words), "\(json): \(e.message)")
        }
    }

    @Test func theBodyIsTheMessageAsTyped() throws {
        var form = try Self.fcmForm(#"{"via": "fcm", "project": "p", "message": " {\"topic\": \"news\"} "}"#)
        #expect(String(decoding: form.body, as: UTF8.self) == #"{"message":{"topic": "news"}}"#)
        form.validateOnly = true
        #expect(String(decoding: form.body, as: UTF8.self) == #"{"message":{"topic": "news"},"validate_only":true}"#)
        form.message = "not json"
        form.validateOnly = false
        #expect(String(decoding: form.body, as: UTF8.self) == #"{"message":not json}"#)
        form.message = ""
        #expect(String(decoding: form.body, as: UTF8.self) == #"{"message":{}}"#)
        #expect(form.path == "/v1/projects/p/messages:send")
    }

    @Test func theCheckRunsFCMsRulesAndTheTargetRule() throws {
        var c = FCMGatewayConfiguration()
        c.projects = [FCMProject(id: "shop", number: "111"), FCMProject(id: "other", number: "222")]
        let apns = try APNsGateway()
        let fcm = FCMGateway(configuration: c, apns: apns)
        let token = "c" + String(repeating: "A", count: 21) + ":APA91b" + String(repeating: "x", count: 134)
        fcm.registerToken(FCMRegisteredToken(token: token), project: "shop")
        func problems(_ project: String, _ message: String) -> [String] {
            var form = ConsoleFCMForm()
            form.project = project
            form.message = message
            let answer = form.check(fcm)
            let list = answer["problems"]?.arrayValue ?? []
            #expect((answer["ok"] == .bool(true)) == list.isEmpty)
            return list.map { "\($0["status"]?.serialized() ?? "") \($0["reason"]?.stringValue ?? "")" }
        }
        #expect(problems("shop", #"{"token": "\#(token)", "notification": {"title": "Hi"}}"#) == [])
        #expect(problems("111", #"{"token": "\#(token)"}"#) == [])
        #expect(problems("other", #"{"token": "\#(token)"}"#) == ["403 SENDER_ID_MISMATCH"])
        #expect(problems("nope", #"{"token": "\#(token)"}"#) == ["403 PERMISSION_DENIED"])
        #expect(problems("shop", #"{"token": "\#(token)", "data": {"from": "x"}}"#) == ["400 INVALID_ARGUMENT"])
        #expect(problems("shop", #"{"token": "not-a-token"}"#) == ["400 INVALID_ARGUMENT"])
        #expect(problems("shop", #"{"token": "\#(token.dropLast())y"}"#) == ["404 UNREGISTERED"])
        #expect(problems("shop", "{\"token\": ") == ["400 INVALID_ARGUMENT"])
        fcm.unregisterToken(token)
        #expect(problems("shop", #"{"token": "\#(token)"}"#) == ["404 UNREGISTERED"])
    }
}
