import Foundation
import PushModel
import Testing
import YAMLSource

@testable import Scenarios

/// `send: { via: fcm, … }` in suite files: what decodes, and every mistake at its line and column with what to do.
@Suite struct FCMSendStepTests {
    static func steps(_ body: String) -> String { "scenarios:\n  - name: a\n    steps:\n" + body }

    static func firstSend(_ text: String) throws -> SendStep {
        let url = URL(fileURLWithPath: NSTemporaryDirectory() + "fcm-step-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let suite = try Support.load(url.path)
        guard case .send(let s)? = suite.scenarios.first?.steps.first?.action else {
            Issue.record("no send step")
            throw CancellationError()
        }
        return s
    }

    @Test func decodesTheV1MessageAndItsOptions() throws {
        let s = try Self.firstSend(
            Self.steps(
                """
                      - send:
                          via: fcm
                          to: iphone
                          validate_only: true
                          project: demo-project
                          message: { notification: { title: Hi }, data: { order: "${order}" }, apns: { headers: { apns-priority: "5" } } }
                """) + "\nvariables: { order: A1 }\n")
        #expect(s.via == "fcm" && s.to == "iphone" && s.validateOnly && !s.messageHasTarget)
        #expect(s.project != nil)
        let json = try JSONValue.parse(try s.payload.render { $0 == "order" ? "A1" : nil })
        #expect(json["notification"]?["title"] == "Hi")
        #expect(json["data"]?["order"] == "A1")
        #expect(s.payloadScalars.count >= 3)

        let targeted = try Self.firstSend(Self.steps("      - send: { via: fcm, message: { topic: news, data: { a: b } } }\n"))
        #expect(targeted.messageHasTarget && !targeted.validateOnly)
        let raw = try Self.firstSend(Self.steps("      - send: { via: fcm, message: '{\"token\": \"x:y\", \"data\": {\"n\": 1}}' }\n"))
        #expect(raw.messageHasTarget)
    }

    @Test func mistakesAreReportedWhereTheyAreWithWhatToDo() throws {
        let via = try #require(try Support.loadError(Self.steps("      - send: { via: fmc, message: {} }\n")))
        #expect(via.line == 4 && via.column == 22)
        #expect(via.suggestion == "did you mean 'fcm'?")

        let key = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, message: { notifcation: { title: Hi } } }\n")))
        #expect(key.kind == .unknownKey && key.line == 4 && key.column == 38)
        #expect(key.suggestion == "did you mean 'notification'?")

        let option = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, validateonly: true, message: {} }\n")))
        #expect(option.kind == .unknownKey && option.line == 4)
        #expect(option.suggestion == "did you mean 'validate_only'?")

        let payload = try #require(try Support.loadError(Self.steps("      - send: { via: fcm, payload: { aps: {} } }\n")))
        #expect(payload.line == 4 && payload.expected?.contains("message:") == true)

        let missing = try #require(try Support.loadError(Self.steps("      - send: { via: fcm, to: iphone }\n")))
        #expect(missing.kind == .missingKey && missing.message.contains("message"))

        let notJSON = try #require(try Support.loadError(Self.steps("      - send: { via: fcm, message: 'token: x' }\n")))
        #expect(notJSON.line == 4 && notJSON.expected?.contains("JSON object") == true)

        let capture = try #require(
            try Support.loadError(
                Self.steps("      - send: { via: fcm, message: {} }\n        capture: { x: reason }\n")))
        #expect(capture.message.contains("cannot capture 'reason'") && capture.expected?.contains("error_code") == true)

        let validate = try #require(
            try Support.loadError(Self.steps("      - send: { via: fcm, validate_only: maybe, message: {} }\n")))
        #expect(validate.line == 4)
    }

    @Test func checksOnTheFCMAnswerDecodeFromTheTable() throws {
        let e = try ExpectationDecoder.decode(
            try YAMLLoader.load(string: "status: 404\nerror_code: UNREGISTERED\nname: none\n", file: "x.yaml"))
        #expect(e.checks.map(\.subject) == [.status, .fcmErrorCode, .fcmName])
        do {
            _ = try ExpectationDecoder.decode(try YAMLLoader.load(string: "error_cod: UNREGISTERED\n", file: "x.yaml"))
            Issue.record("accepted error_cod")
        } catch {
            #expect(error.suggestion == "did you mean 'error_code'?")
        }
    }
}
