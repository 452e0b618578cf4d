import HTTPTypes
@testable import PushModel
import Testing

@testable import FCMGateway

/// The send path's direct translation (from the body's bytes) against the message path: whatever body it takes,
/// the fast reader (itself checked against the full rules) takes too, with the same target, `validate_only` and
/// logged message, and the translation of its message gives the same APNs headers and payload, byte for byte.
@Suite struct FCMDirectSendTests {
    static let token = "fcmInstanceA1:APA91bHaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

    /// Checks one body; whether the direct reader took it.
    @discardableResult
    func check(_ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let direct = FCMDirectSend.read(body) else { return false }
        guard let fast = FCMSendFastReader.readParts(body) else {
            Issue.record(
                "direct took a body the fast reader leaves: \(String(decoding: body, as: UTF8.self))",
                sourceLocation: sourceLocation)
            return true
        }
        let m = fast.message
        #expect(fast.validateOnly == direct.validateOnly, sourceLocation: sourceLocation)
        #expect(m.target == .token(direct.token), sourceLocation: sourceLocation)
        #expect(m.liveActivityToken == nil && m.android == nil, sourceLocation: sourceLocation)
        if case .slice(_, let range) = m.rawStorage {
            #expect(range == direct.messageRange, sourceLocation: sourceLocation)
        } else {
            Issue.record("fast reader's message is not a slice", sourceLocation: sourceLocation)
        }
        for (sender, fid, bundle) in [
            ("123456789012", nil, "com.example.app"), ("1", "cRnVyWOjRsmZt3h8SprUdw", "com.example.bench"),
            ("a\"b\\c\n\r\t\u{1}\u{1f}é\u{7f}", "f\"i\u{0}d", "b"),
        ] as [(String, String?, String)] {
            for id: UInt64 in [1_500_415_314_455_276, 7] {
                let full = FCMTranslation.translatedFields(
                    m, messageID: .micros(id), senderID: sender, fid: fid, bundleID: bundle)
                let mine = direct.translatedFields(body, messageID: id, senderID: sender, fid: fid, bundleID: bundle)
                #expect(
                    String(decoding: mine.payload, as: UTF8.self) == String(decoding: full.payload, as: UTF8.self),
                    "\(String(decoding: body, as: UTF8.self))", sourceLocation: sourceLocation)
                #expect(mine.fields == full.fields, sourceLocation: sourceLocation)
            }
        }
        return true
    }

    func check(_ text: String, taken: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(check(Array(text.utf8), sourceLocation: sourceLocation) == taken, sourceLocation: sourceLocation)
    }

    static var corpus: [String] {
        let t = token
        return [
            #"{"message":{"token":"\#(t)","notification":{"title":"bench","body":"hello"},"data":{"url":"https://example.com/a"},"apns":{"payload":{"aps":{"badge":1}}}}}"#,
            #"{"validate_only":true,"message":{"token":"\#(t)"}}"#,
            #"{"validateOnly":false,"message":{"token":"\#(t)","data":{}}}"#,
            #"{"message":{"token":"\#(t)","notification":{"body":"b"},"apns":{"payload":{"aps":{"content-available":1}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"content-available":1,"sound":"default"}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"content-available":1,"badge":-12}}}}}"#,
            #"{"message":{"token":"\#(t)","data":{"b":"2","a":"1","apt":"x","fcm_options":"f","go":"g","gooz":"z","":"e"},"notification":{"title":"t"},"apns":{"payload":{"aps":{"mutable-content":1,"category":"C","thread-id":"x","z":true,"a":false,"n":0,"m":123456789012345}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{}}}}"#,
            #"{"message":{"token":"\#(t)","notification":{},"apns":{"payload":{"aps":{}}}}}"#,
            " \n{ \"message\" :\t{ \"token\" : \"\(t)\" , \"notification\" : { \"title\" : \"a b\" } } ,\"validate_only\": false}\r\n",
        ]
    }

    @Test func usualShapesAreTakenAndTranslatedAlike() {
        for text in Self.corpus { check(text, taken: true) }
    }

    @Test func unusualShapesAreLeftToTheMessagePath() {
        let t = Self.token
        for text in [
            #"{"message":{"topic":"news"}}"#, #"{"message":{"fid":"cRnVyWOjRsmZt3h8SprUdw"}}"#,
            #"{"message":{"token":"\#(t)","notification":{"image":"https://x/i.png"}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"headers":{"apns-priority":"5"}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"alert":"x"}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"badge":1,"badge":2}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"n":-0}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"n":1.5}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"n":null}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"n":{}}}}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{},"x":1}}}}"#,
            #"{"message":{"token":"\#(t)","data":{"aps":"1"}}}"#,
            #"{"message":{"token":"\#(t)","data":{"k":"caf\u00e9"}}}"#,
            #"{"message":{"token":"\#(t)","data":{"k":"café"}}}"#,
            #"{"message":{"token":"\#(t)","apns":{"live_activity_token":"ab"}}}"#,
            #"{"message":{"token":"\#(t)","android":{"priority":"HIGH"}}}"#,
            #"{"message":{"token":""}}"#,
            #"{"message":{"token":"\#(t)","apns":{"payload":{"aps":{"s":"\#(String(repeating: "x", count: 500))"}}}}}"#,
        ] {
            check(text, taken: false)
        }
    }

    /// Every one-byte change (replaced, removed, doubled) of the usual bodies: whichever the direct reader still
    /// takes translates as the message path does.
    @Test func oneByteMutations() {
        let replacements: [UInt8] = Array(#""\{}[],: 1-0a.eEt"#.utf8) + [0x7F, 0xC3, 0x0A, 0x01]
        var taken = 0
        for text in Self.corpus {
            let body = Array(text.utf8)
            for i in body.indices {
                for r in replacements where r != body[i] {
                    var m = body
                    m[i] = r
                    if check(m) { taken += 1 }
                }
                var removed = body
                removed.remove(at: i)
                if check(removed) { taken += 1 }
                var doubled = body
                doubled.insert(body[i], at: i)
                if check(doubled) { taken += 1 }
            }
        }
        #expect(taken > 1000)
    }
}
