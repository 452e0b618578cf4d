import Foundation
import Testing

@testable import ScenarioChecks
@testable import ScenarioRun
@testable import SuiteFormat

/// The head/tail buffer behind a run: step's transcript: exact counts whatever the chunking.
struct BoundedOutputTests {
    private func feed(_ text: String, chunk: Int, head: Int, tail: Int) -> BoundedOutput {
        var output = BoundedOutput(headLimit: head, tailLimit: tail)
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let end = min(i + chunk, bytes.count)
            bytes[i..<end].withUnsafeBytes { output.append($0) }
            i = end
        }
        return output
    }

    @Test(arguments: [1, 3, 7, 64, 10_000])
    func keepsHeadAndTailAndCountsTheRest(chunk: Int) {
        let text = (0..<1000).map { "line \($0)\n" }.joined()
        let output = feed(text, chunk: chunk, head: 100, tail: 50)
        let rendered = output.text(stream: "stdout")
        let bytes = Array(text.utf8)
        let dropped = bytes.count - 150
        let lines = bytes[100..<(bytes.count - 50)].filter { $0 == 0x0A }.count
        #expect(rendered.hasPrefix(String(decoding: bytes[0..<100], as: UTF8.self)))
        #expect(rendered.hasSuffix(String(decoding: bytes[(bytes.count - 50)...], as: UTF8.self)))
        #expect(rendered.contains("dropped \(dropped) bytes (\(lines) line breaks) of stdout"))
    }

    @Test func shortOutputIsKeptWhole() {
        let output = feed("hello\nworld\n", chunk: 4, head: 100, tail: 50)
        #expect(output.text(stream: "stdout") == "hello\nworld\n")
        let exact = feed(String(repeating: "a", count: 150), chunk: 9, head: 100, tail: 50)
        #expect(exact.text(stream: "stderr") == String(repeating: "a", count: 150))
    }
}
