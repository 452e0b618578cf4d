import Testing
@testable import YAMLSource

@testable import SuiteFormat

/// The names `capture:` and `${device.…}` accept come from one typed list each (`SendCapture`, `RunCapture`,
/// `DeviceVariable`): every entry decodes, and a device variable is both capturable and referencable.
@Suite struct CaptureTableTests {
    static func step(_ yaml: String) throws(SourceError) -> Step {
        try StepDecoder.decode(try YAMLLoader.load(string: yaml, file: "steps.yaml"), file: "steps.yaml")
    }

    @Test func everySourceOfEachStepKindDecodes() throws {
        let kinds: [(step: String, sources: [String])] = [
            ("send: { payload: { aps: { alert: Hi } } }", SendCapture.allCases.map(\.rawValue) + ["header.apns-id"]),
            ("send: { via: fcm, message: { topic: news } }", FCMSendCapture.allCases.map(\.rawValue)),
            ("run: echo hi", RunCapture.allCases.map(\.rawValue) + ["json.a.b"]),
            ("register: null", DeviceVariable.allCases.map(\.rawValue)),
        ]
        for (yaml, sources) in kinds {
            for source in sources {
                let step = try Self.step("{ \(yaml), capture: { v: \(source) } }")
                #expect(step.captures.map(\.source) == [source], "\(yaml) \(source)")
            }
        }
        let wrong = try #require(throws: SourceError.self) { try Self.step("{ run: echo hi, capture: { v: stdot } }") }
        #expect(wrong.expected == "expected one of: stdout, stderr, exit, json.<path>")
        #expect(wrong.suggestion == "did you mean 'stdout'?")
        // FCM's answer has no headers to capture: `header.<name>` is an APNs send's.
        #expect(throws: SourceError.self) {
            try Self.step("{ send: { via: fcm, message: { topic: news } }, capture: { v: header.apns-id } }")
        }
    }

    static let here = SourceRange(
        file: "s.yaml", start: SourcePosition(line: 1, column: 1), end: SourcePosition(line: 1, column: 1))

    @Test func everyDeviceVariableIsReferencable() throws {
        for variable in DeviceVariable.allCases {
            try VariableCheck.checkName(
                "device.iphone.\(variable.rawValue)", at: Self.here,
                devices: ["iphone"], bare: [])
        }
        #expect(throws: SourceError.self) {
            try VariableCheck.checkName(
                "device.iphone.tokn", at: Self.here, devices: ["iphone"], bare: [])
        }
    }
}
