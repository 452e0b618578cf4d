import Foundation
@testable import PushModel
import Testing

@testable import FCMGateway

/// FCM message → APNs request, pinned by golden files in `Golden/` (set `PUSHCHECK_UPDATE_GOLDEN=1` to rewrite
/// them after an intended change; a mismatch prints a unified diff).
@Suite struct TranslationGoldenTests {
    static let cases: [(name: String, message: String)] = [
        (
            "notification-and-data",
            #"{"token":"t","notification":{"title":"Order shipped","body":"Arrives Tuesday"},"data":{"order_id":"42","kind":"shipping"}}"#
        ),
        (
            "data-only-background",
            #"{"token":"t","data":{"sync":"1"},"apns":{"payload":{"aps":{"content-available":1}}}}"#
        ),
        (
            "apns-payload-overrides",
            #"{"token":"t","notification":{"title":"Generic","body":"Body"},"apns":{"headers":{"apns-priority":"5","apns-collapse-id":"c1"},"payload":{"aps":{"alert":{"title":"iOS title"},"badge":3,"sound":"default"},"custom":{"deep":true}}}}"#
        ),
        (
            "image",
            #"{"token":"t","notification":{"title":"Look","image":"https://img.example/a.png"},"apns":{"payload":{"aps":{"mutable-content":1}},"fcm_options":{"image":"https://img.example/ios.png"}}}"#
        ),
        (
            "explicit-headers",
            #"{"token":"t","notification":{"body":"b"},"apns":{"headers":{"apns-push-type":"alert","apns-expiration":"1900000000","apns-topic":"com.example.app"}}}"#
        ),
    ]

    static var goldenDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    }

    static func render(_ push: FCMTranslation.APNsPush) -> String {
        let json: JSONValue = [
            "headers": .array(push.headers.map { .array([.string($0.name), .string($0.value)]) }),
            "payload": push.payload,
        ]
        let object = try! JSONSerialization.jsonObject(with: Data(json.serializedBytes()))
        let data = try! JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The send path writes the payload bytes itself: they must be what `JSONValue` writes for the same object (keys
    /// sorted by their UTF-8 bytes, the same escapes and numbers), with later members winning: data, then
    /// apns.payload's keys, then FCM's own.
    @Test func writtenPayloadIsCanonicalAndOverridesInOrder() throws {
        let message =
            #"{"token":"t","data":{"x":"data","aps":"data","z\"q":"tab\there\u0001","é":"1","fcm_options":"d"},"apns":{"payload":{"x":"payload","gcm.message_id":"payload","aps":{"alert":"s"},"n":[1.5,1e300,-0,2.0],"Z":{}}}}"#
        let m = try FCMMessageRules.parseMessage(try JSONValue.parse(message))
        let bytes = FCMTranslation.translatedBytes(m, messageID: "7", senderID: "9", fid: nil, bundleID: "b").payload
        let value = try JSONValue.parse(bytes)
        #expect(value.serializedBytes() == bytes, "\(String(decoding: bytes, as: UTF8.self))")
        #expect(value["x"] == "payload" && value["gcm.message_id"] == "7" && value["fcm_options"] == "d")
        #expect(value["aps"] == ["alert": "s"])
        #expect(value["z\"q"] == "tab\there\u{1}" && value["é"] == "1" && value["Z"] == [:])
        #expect(value["n"] == [1.5, 1e300, 0, 2])
    }

    /// Which keys win, and the push type the merged aps implies.
    @Test func mergeRulesAndDefaultHeaders() throws {
        func translate(_ message: String, fid: String? = nil) throws -> (payload: JSONValue, headers: [String]) {
            let m = try FCMMessageRules.parseMessage(try JSONValue.parse(message))
            let t = FCMTranslation.translatedBytes(m, messageID: "7", senderID: "9", fid: fid, bundleID: "b")
            return (try JSONValue.parse(t.payload), t.headers.map { "\($0.name):\($0.value)" })
        }
        // FCM's keys win only when FCM sets them.
        let noFID = try translate(#"{"token":"t","apns":{"payload":{"google.c.fid":"p","fcm_options":"p"}}}"#)
        #expect(noFID.payload["google.c.fid"] == "p" && noFID.payload["fcm_options"] == "p")
        let withFID = try translate(
            #"{"token":"t","notification":{"image":"i"},"apns":{"payload":{"google.c.fid":"p","fcm_options":"p"}}}"#,
            fid: "F")
        #expect(withFID.payload["google.c.fid"] == "F" && withFID.payload["fcm_options"] == ["image": "i"])
        // An alert object merges over notification's; anything else replaces it.
        let merged = try translate(
            #"{"token":"t","notification":{"title":"T","body":"B"},"apns":{"payload":{"aps":{"alert":{"title":"x","subtitle":"s"}}}}}"#
        )
        #expect(merged.payload["aps"] == ["alert": ["title": "x", "subtitle": "s", "body": "B"]])
        let replaced = try translate(
            #"{"token":"t","notification":{"title":"T"},"apns":{"payload":{"aps":{"alert":"plain"}}}}"#)
        #expect(replaced.payload["aps"] == ["alert": "plain"])
        // Background only for content-available 1 with nothing the user sees.
        let bg = try translate(#"{"token":"t","apns":{"payload":{"aps":{"content-available":1}}}}"#)
        #expect(bg.headers == ["apns-topic:b", "apns-push-type:background", "apns-priority:5"])
        for visible in [#""badge":0"#, #""sound":"s""#, #""alert":null"#] {
            let t = try translate(#"{"token":"t","apns":{"payload":{"aps":{"content-available":1,\#(visible)}}}}"#)
            #expect(t.headers == ["apns-topic:b", "apns-push-type:alert", "apns-priority:10"], "\(visible)")
        }
        let titled = try translate(
            #"{"token":"t","notification":{"title":"x"},"apns":{"payload":{"aps":{"content-available":1}}}}"#)
        #expect(titled.headers.contains("apns-push-type:alert"))
        let sent = try translate(
            #"{"token":"t","apns":{"headers":{"APNS-Push-Type":"background","apns-topic":"x"},"payload":{"aps":{"content-available":1}}}}"#
        )
        #expect(sent.headers == ["apns-push-type:background", "apns-topic:x", "apns-priority:5"])
    }

    @Test(arguments: cases.map(\.name))
    func golden(name: String) throws {
        let message = Self.cases.first { $0.name == name }!.message
        let parsed = try FCMMessageRules.parseMessage(try JSONValue.parse(message))
        let push = FCMTranslation.translate(
            parsed, messageID: "1500415314455276", senderID: "123456789012", fid: "cXh0aW5zdGFsbGF0aW9uQQ",
            bundleID: "com.example.app")
        let actual = Self.render(push)
        let path = Self.goldenDirectory + "/\(name).json"
        if ProcessInfo.processInfo.environment["PUSHCHECK_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        if actual != expected {
            let tmp = NSTemporaryDirectory() + "fcm-golden-\(name)-actual.json"
            try actual.write(toFile: tmp, atomically: true, encoding: .utf8)
            let diff = Process()
            diff.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
            diff.arguments = ["-u", path, tmp]
            let pipe = Pipe()
            diff.standardOutput = pipe
            try diff.run()
            diff.waitUntilExit()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            Issue.record("translated payload differs from \(path):\n\(text)")
        }
    }
}
