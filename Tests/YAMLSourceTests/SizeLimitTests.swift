import Foundation
import PushcheckTestSupport
import Testing
@testable import YAMLSource

/// Large files are bounded by their size, not mistaken for alias bombs.
@Suite struct SizeLimitTests {
    @Test func fiftyMegabytesOfPlainNodesLoad() throws {
        let dir = try TempDirectory("yaml-size")
        defer { dir.remove() }
        // 500 000 plain scalars of 100 bytes: five times the alias budget, none of it from aliases.
        let line = "- " + String(repeating: "p", count: 97) + "\n"
        let text = String(repeating: line, count: 500_000)
        let path = try dir.write("big.yaml", text)
        let root = try YAMLLoader.load(path: path)
        #expect(root.items?.count == 500_000)
        #expect(text.utf8.count == 50_000_000)
    }

    @Test func aliasesStillHaveTheirOwnBudgetInABigFile() throws {
        // Plain nodes first (they do not count), then aliases that add more than the budget.
        var text = "plain: [" + Array(repeating: "x", count: 150_000).joined(separator: ", ") + "]\n"
        text += "a: &a [" + Array(repeating: "y", count: 1000).joined(separator: ", ") + "]\n"
        text += "b: [" + Array(repeating: "*a", count: 120).joined(separator: ", ") + "]\n"
        let error = expectError { try YAMLLoader.load(string: text, file: "t.yaml") }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message == "aliases expand the document by more than 100000 nodes")
        #expect(error?.line == 3)
    }

    @Test func textOverTheSizeLimitIsTooLargeWithItsOwnError() throws {
        let text = "# " + String(repeating: "c", count: 2000) + "\nkey: value\n"
        let error = expectError {
            try YAMLLoader.load(string: text, file: "t.yaml", limits: YAMLLimits(maxDocumentBytes: 1000))
        }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message == "t.yaml is 2014 bytes, over the 1000 bytes limit")
        _ = try YAMLLoader.load(string: text, file: "t.yaml", limits: YAMLLimits(maxDocumentBytes: 2014))
    }

    @Test func theDefaultSizeLimitIs64MiB() throws {
        #expect(YAMLLimits.standard.maxDocumentBytes == 64 << 20)
        let dir = try TempDirectory("yaml-size")
        defer { dir.remove() }
        let path = dir.file("huge.yaml")
        // Sparse: the size is what counts, and the loader refuses before reading a byte.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: (64 << 20) + 2)
        try handle.close()
        let error = expectError { try YAMLLoader.load(path: path) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message == "\(path) is 67108866 bytes, over the 64 MiB limit")
        #expect(error?.suggestion == "split it into several files (e.g. one suite per file, with include:)")
    }
}
