import Testing
@testable import Reports

@Suite struct XMLTextTests {
    @Test func stripsAnsiColourSequences() {
        #expect(XMLText.sanitize("\u{1B}[31mred\u{1B}[0m and \u{1B}[1;32mbold\u{1B}[m") == "red and bold")
    }
}
