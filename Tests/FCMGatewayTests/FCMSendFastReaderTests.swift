@testable import PushModel
import Testing

@testable import FCMGateway

/// The send path's byte-level reader against the full proto-JSON rules: whatever it accepts, the full rules accept
/// and read the same way; whatever it leaves alone, `parseSendBody` answers exactly as the full rules do.
@Suite struct FCMSendFastReaderTests {
    static let token = "fcmInstanceA1:APA91bHaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

    /// `handled`: whether the fast reader should take the body itself (`false`: it must leave it to the full rules).
    func check(_ text: String, handled: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        check(Array(text.utf8), handled: handled, sourceLocation: sourceLocation)
    }

    func check(_ body: [UInt8], handled: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = FCMSendFastReader.read(body)
        let full = Result { () throws(FCMErrorResponse) in try FCMMessageRules.parseSendBodyByRules(body) }
        let viaPublic = Result { () throws(FCMErrorResponse) in try FCMMessageRules.parseSendBody(body) }
        #expect((fast != nil) == handled, "fast reader took it: \(fast != nil)", sourceLocation: sourceLocation)
        if let fast {
            #expect((try? full.get()) == fast, sourceLocation: sourceLocation)
            // The log's copy of the message, built from the body bytes when read.
            #expect(fast.message.raw == (try? JSONValue.parse(body))?["message"], sourceLocation: sourceLocation)
        }
        #expect(viaPublic == full, sourceLocation: sourceLocation)
    }

    @Test func usualShapesAreReadByteWise() {
        let t = Self.token
        check(
            #"{"message":{"token":"\#(t)","notification":{"title":"bench","body":"hello"},"data":{"url":"https://example.com/a"},"apns":{"payload":{"aps":{"badge":1}}}}}"#,
            handled: true)
        check(#"{"validate_only":true,"message":{"token":"\#(t)"}}"#, handled: true)
        check(#"{"validateOnly":false,"message":{"token":"\#(t)","data":{}}}"#, handled: true)
        check(#"{"message":{"topic":"/topics/news","notification":{}}}"#, handled: true)
        check(#"{"message":{"condition":"'a' in topics && !('b' in topics)"}}"#, handled: true)
        check(
            #"{"message":{"fid":"cRnVyWOjRsmZt3h8SprUdw","notification":{"image":"https://x/i.png"}}}"#, handled: true)
        check(
            #"{"message":{"token":"\#(t)","apns":{"headers":{"apns-priority":"5","apns-push-type":"background"},"payload":{"aps":{"content-available":1},"n":[1,2.50,-3e2,true,null,{"x":{}}]},"fcmOptions":{"analyticsLabel":"l_1","image":"https://i/x.png"},"liveActivityToken":"ab"}}}"#,
            handled: true)
        check(
            #"{"message":{"token":"\#(t)","apns":{"fcm_options":{"analytics_label":"x"},"live_activity_token":"cd"}}}"#,
            handled: true)
        // Braces inside payload strings do not end the payload.
        check(#"{"message":{"token":"\#(t)","apns":{"payload":{"a":"}{\"]","aps":{}}}}}"#, handled: true)
        // Blanks anywhere JSON allows them, raw UTF-8 text.
        check(
            " \n{ \"message\" :\t{ \"token\" : \"\(t)\" , \"notification\" : { \"title\" : \"héllo 🎉\" } } }\r\n",
            handled: true)
    }

    /// Valid JSON the fast reader leaves to the full rules, which decide (accepting or refusing) as before.
    @Test func oddButValidJSONGoesToTheFullRules() {
        let t = Self.token
        // Escapes in values and in keys.
        check(#"{"message":{"token":"\#(t)","data":{"k":"caf\u00e9 \"q\" \n"}}}"#, handled: false)
        check(#"{"message":{"tok\u0065n":"\#(t)"}}"#, handled: false)
        check(#"{"message":{"token":"\#(t)","data":{"emoji":"\ud83c\udf89"}}}"#, handled: false)
        // Duplicate keys: JSON's last one wins in the full rules; the same field in both spellings is refused there.
        check(#"{"message":{"token":"x","token":"\#(t)"}}"#, handled: false)
        check(#"{"message":{"token":"\#(t)","data":{"a":"1","a":"2"}}}"#, handled: false)
        check(#"{"validate_only":true,"validateOnly":false,"message":{"token":"\#(t)"}}"#, handled: false)
        check(
            #"{"message":{"token":"\#(t)","apns":{"fcm_options":{"image":"a"},"fcmOptions":{"image":"b"}}}}"#,
            handled: false)
        // null means "not set" in proto JSON.
        check(#"{"message":{"token":"\#(t)","notification":null,"topic":null}}"#, handled: false)
        check(#"{"validate_only":null,"message":{"token":"\#(t)"}}"#, handled: false)
        // Numbers and booleans where strings belong (refused, with Google's "Invalid value" message), and the reverse.
        check(#"{"message":{"token":"\#(t)","data":{"n":12}}}"#, handled: false)
        check(#"{"message":{"token":"\#(t)","data":{"b":true}}}"#, handled: false)
        check(#"{"validate_only":"true","message":{"token":"\#(t)"}}"#, handled: false)
        check(#"{"message":{"token":12}}"#, handled: false)
        // Fields only the full rules read.
        check(#"{"message":{"token":"\#(t)","android":{"ttl":"3.5s","priority":"HIGH"}}}"#, handled: false)
        check(#"{"message":{"token":"\#(t)","webpush":{"fcm_options":{"link":"https://x"}}}}"#, handled: false)
        check(#"{"message":{"token":"\#(t)","fcm_options":{"analytics_label":"x"},"name":"n"}}"#, handled: false)
        // A large payload (parsed with the whole body, for the nesting limit).
        let big = String(repeating: "x", count: 600)
        check(#"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{},"big":"\#(big)"}}}}"#, handled: false)
        let deep = String(repeating: "[", count: 240) + String(repeating: "]", count: 240)
        check(#"{"message":{"token":"\#(t)","apns":{"payload":{"d":\#(deep)}}}}"#, handled: true)
    }

    /// Everything the rules refuse is the full rules' answer, word for word.
    @Test func refusalsAreTheFullRulesAnswers() {
        let t = Self.token
        for text in [
            "", "{}", "[]", "null", #"{"message":{}}"#, #"{"message":{"data":{"a":"b"}}}"#,
            #"{"message":{"token":"\#(t)","topic":"news"}}"#, #"{"message":{"token":""}}"#, #"{"message":{"fid":""}}"#,
            #"{"message":{"topic":"bad topic"}}"#, #"{"message":{"condition":"'a' in topics &&"}}"#,
            #"{"message":{"token":"\#(t)","data":{"google.x":"1"}}}"#,
            #"{"message":{"token":"\#(t)","data":{"from":"1"}}}"#,
            #"{"message":{"token":"\#(t)","unknown":1}}"#, #"{"extra":1,"message":{"token":"\#(t)"}}"#,
            #"{"message":{"token":"\#(t)","Token":"x"}}"#,
            #"{"message":{"token":"\#(t)","notification":{"titel":"x"}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":"x"}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":[]}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"headers":{"apns-priority":5}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"fcm_options":{"analytics_label":"bad label"}}}}"#,
            #"{"message":{"token":"\#(t)"}} x"#, #"{"message":{"token":"\#(t)"},}"#, #"{"message":{"token":"\#(t)",}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"a":01}}}}"#,
            "{\"message\":{\"token\":\"\(t)\",\"data\":{\"k\":\"a\u{1}b\"}}}",
        ] {
            check(text, handled: false)
        }
    }

    /// Unknown and repeated names are reported as met in wire order (not in a dictionary's arbitrary order, which
    /// made the answer vary between runs); a field in both spellings is a duplicate even if one is null.
    @Test func badNamesAreReportedInWireOrder() {
        let t = Self.token
        func message(_ body: String) -> String? {
            do { _ = try FCMMessageRules.parseSendBody(Array(body.utf8)) } catch { return error.message }
            return nil
        }
        for _ in 0..<20 {
            #expect(
                message(#"{"message":{"token":"\#(t)","zz":1,"aa":2,"mm":3}}"#)
                    == #"Invalid JSON payload received. Unknown name "zz" at 'message': Cannot find field."#)
            #expect(
                message(#"{"message":{"token":"\#(t)","apns":{"fcmOptions":{},"fcm_options":{}}}}"#)
                    == #"Invalid JSON payload received. Duplicate field "fcm_options"."#)
            #expect(
                message(#"{"validateOnly":true,"validate_only":null,"message":{"token":"\#(t)"}}"#)
                    == #"Invalid JSON payload received. Duplicate field "validate_only"."#)
            #expect(message(#"{"message":{"token":"\#(t)","token":"\#(t)"}}"#) == nil)
        }
    }

    /// Every cut of a good body (truncated uploads) and invalid UTF-8 inside a string.
    @Test func truncatedAndInvalidUTF8() {
        let body = Array(
            #"{"validateOnly":true,"message":{"token":"\#(Self.token)","notification":{"title":"é"},"data":{"a":"b"},"apns":{"headers":{"apns-topic":"x"},"payload":{"aps":{"badge":1}}}}}"#
                .utf8)
        for n in 0..<body.count { check(Array(body[..<n]), handled: false) }
        check(body, handled: true)
        let i = body.firstIndex(of: 0xC3)!
        var broken = body
        broken[i] = 0xFF
        check(broken, handled: false)
    }
}
