import Testing

@testable import PushModel

@Suite struct HarnessErrorKindTests {
    /// The raw values are the report's `type` attribute: pinned so a rename cannot change JUnit output.
    @Test func rawValuesAreTheReportedTypes() {
        #expect(
            HarnessErrorKind.allCases.map(\.rawValue) == [
                "world", "interrupted", "timeout", "command", "transport", "page", "snapshot", "variable",
            ])
    }

    @Test func textThatIsNoKindStaysUnclassified() {
        #expect(HarnessErrorKind(rawValue: "timeout") == .timeout)
        #expect(HarnessErrorKind(rawValue: "assertion") == nil)
        #expect(HarnessErrorKind(rawValue: "Timeout") == nil)
    }
}
