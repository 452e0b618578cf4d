import Foundation
import Synchronization
import Testing
@testable import Reports

@Suite struct AtomicWriteTests {
    /// A reader polling the file while two different large reports are written alternately must only
    /// ever see one complete document or the other, never a prefix or a mix.
    @Test func readersNeverSeeAPartialFile() async throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("junit.xml")

        var big = Fixtures.mixed()
        big.suites[0].cases[0].systemOut = String(repeating: "transcript line with some text\n", count: 20_000)
        let first = Data(JUnitXMLWriter.render(big).utf8)
        big.suites[0].cases[0].systemOut = String(repeating: "another transcript, different\n", count: 15_000)
        let second = Data(JUnitXMLWriter.render(big).utf8)
        try AtomicFile.write(first, to: url)

        let finished = Flag()
        let reader = Task.detached { () throws -> (reads: Int, torn: Int) in
            var reads = 0
            var torn = 0
            while !finished.isSet, reads < 100_000 {
                let seen = try Data(contentsOf: url)
                if seen != first, seen != second { torn += 1 }
                reads += 1
            }
            return (reads, torn)
        }
        for round in 0..<60 { try AtomicFile.write(round % 2 == 0 ? second : first, to: url) }
        finished.set()
        let (reads, torn) = try await reader.value
        #expect(torn == 0, "\(torn) of \(reads) reads saw a partial or mixed file")
        #expect(try Data(contentsOf: url) == first)  // the 60th write (round 59) wrote `first`
    }

    @Test func noTemporaryFilesAreLeftBehind() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("junit.xml")
        for _ in 0..<5 { try JUnitXMLWriter.write(Fixtures.mixed(), to: url) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["junit.xml"])
        #expect(try String(contentsOf: url, encoding: .utf8) == JUnitXMLWriter.render(Fixtures.mixed()))
    }

    @Test func failedWriteKeepsTheOldFileAndNamesThePath() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("no-such-dir/junit.xml")
        #expect(throws: ReportsError.writeFailed(path: missing.path, reason: "No such file or directory")) {
            try JUnitXMLWriter.write(Fixtures.mixed(), to: missing)
        }
        // Renaming onto a directory fails after the temporary file is written: it must be removed.
        let blocker = directory.appendingPathComponent("junit.xml")
        try FileManager.default.createDirectory(
            at: blocker.appendingPathComponent("occupied"), withIntermediateDirectories: true)
        do {
            try JUnitXMLWriter.write(Fixtures.mixed(), to: blocker)
            Issue.record("writing over a non-empty directory should fail")
        } catch {
            #expect(error.description.hasPrefix(blocker.path + ": cannot write the report"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["junit.xml"])
    }
}

/// A thread-safe one-way switch.
final class Flag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
