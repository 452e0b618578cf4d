import Foundation
import PushcheckTestSupport
import Testing

@testable import YAMLSource

/// A file's text kept deflated (`SourceText.compact()`, `DeflatedText`) reads as the text it was: every line, every
/// item's detached text, any range across its blocks. And a large file read through libyaml's read handler keeps
/// its positions to the end.
@Suite struct DeflatedTextTests {
    /// A suite-like text over several 16 KiB blocks, with multi-byte scalars, CR LF and NEL breaks.
    static let text: String = {
        var text = "name: deflated\nscenarios:\n"
        for i in 0..<1_500 {
            let br = i % 7 == 0 ? "\r\n" : i % 11 == 0 ? "\u{85}" : "\n"
            text += "  - name: 名前 \(i) — café\(br)    steps: [tap, {send: {to: iphone}}]\(br)"
        }
        return text
    }()

    @Test func linesReadTheSameDeflated() throws {
        let plain = SourceText(file: "s.yaml", text: Self.text)
        let compacted = SourceText(file: "s.yaml", text: Self.text)
        compacted.compact()
        let lines = plain.lines
        #expect(lines.count > 3_000)
        #expect(compacted.lines == lines)
        #expect(compacted.line(0) == nil)
        #expect(compacted.line(lines.count + 1) == nil)
    }

    @Test func detachedTextsReadTheSameDeflated() throws {
        let plain = SourceText(file: "s.yaml", text: Self.text)
        let compacted = SourceText(file: "s.yaml", text: Self.text)
        compacted.compact()
        let count = plain.lines.count
        var generator = SystemRandomNumberGenerator()
        var compared = 0
        for _ in 0..<500 {
            let startLine = Int.random(in: 1...count, using: &generator)
            let endLine = Int.random(in: startLine...(count + 1), using: &generator)
            let start = SourcePosition(line: startLine, column: Int.random(in: 1...12, using: &generator))
            let end = SourcePosition(line: endLine, column: Int.random(in: 1...40, using: &generator))
            let expected = plain.detachedText(from: start, to: end)
            #expect(compacted.detachedText(from: start, to: end) == expected, "\(start)–\(end)")
            if expected != nil { compared += 1 }
        }
        #expect(compared > 400)
    }

    @Test func rangesAcrossBlocks() throws {
        let bytes = Array(Self.text.utf8)
        let deflated = try #require(DeflatedText(bytes))
        let size = DeflatedText.blockSize
        #expect(deflated.count == bytes.count)
        for range in [
            0..<0, 0..<bytes.count, size - 3..<size + 3, size..<2 * size, 1..<3 * size + 5,
            bytes.count - 1..<bytes.count, 2 * size + 7..<2 * size + 7,
        ] {
            #expect(deflated.bytes(range) == Array(bytes[range]), "\(range)")
        }
        #expect(deflated.bytes(0..<bytes.count + 1) == nil)
        #expect(deflated.bytes(-1..<2) == nil)
    }

    @Test func textThatDoesNotDeflateStaysPlain() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<40_000).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
        #expect(DeflatedText(noise) == nil)
        let text = SourceText(file: "noise", bytes: noise + [0x0A] + noise)
        text.compact()
        #expect(text.line(2) == String(decoding: noise, as: UTF8.self))
    }

    /// libyaml pulls a file through the read handler a chunk at a time: a document of many chunks keeps its
    /// positions and values to its last line.
    @Test func largeFileKeepsItsPositions() throws {
        let dir = try TempDirectory("deflated")
        defer { dir.remove() }
        let path = dir.file("large.yaml")
        try Data(Self.text.utf8).write(to: URL(fileURLWithPath: path))
        let root = try YAMLLoader.load(path: path)
        let items = try #require(root["scenarios"]?.items)
        #expect(items.count == 1_500)
        let last = try #require(items.last)
        #expect(last["name"]?.scalar?.value == "名前 1499 — café")
        #expect(last.range.start == SourcePosition(line: 3 + 2 * 1_499, column: 5))
    }
}
