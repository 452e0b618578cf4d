import Foundation

/// Suite files for the tests of the suite modules: the repository's `Suites/`, and fresh files written in one
/// directory per test process (removed when it exits).
package enum SuiteFiles {
    /// The package root (…/Tests/PushcheckTestSupport/SuiteFiles.swift → …).
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The repository's suites (`Suites/`).
    package static let suites = root + "/Suites"

    private static let scratchDirectory = Result { try TempDirectory.forProcess("scenarios-tests") }

    /// A path inside the process's scratch directory (not created).
    package static func scratch(_ name: String) throws -> String { try scratchDirectory.get().file(name) }

    /// Writes `text` as `name` in a fresh directory, with `extra` files (relative path → text) beside it;
    /// returns its path.
    package static func write(_ text: String, name: String = "suite.yaml", extra: [String: String] = [:]) throws
        -> String
    {
        let dir = try scratch(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (n, t) in extra {
            let path = dir + "/" + n
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try t.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        recordCorpus(dir)
        return path
    }

    /// Where `make test` collects the suites the tests write (`PUSHCHECK_SUITE_CORPUS`): the schema test
    /// (Tests/python/test_suite_schema.py) checks that every one the loader accepts validates against
    /// Suites/suite.schema.json, so the schema is never stricter than the loader. Nil when not collecting.
    package static let corpusDirectory = ProcessInfo.processInfo.environment["PUSHCHECK_SUITE_CORPUS"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Copies `directory` (a suite and the files beside it) into the corpus, when collecting.
    package static func recordCorpus(_ directory: String) {
        guard let corpus = corpusDirectory else { return }
        try? FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        try? FileManager.default.copyItem(atPath: directory, toPath: corpus + "/" + UUID().uuidString)
    }

    /// What `load` throws for `text` written as a fresh suite file (with `extra` beside it); nil when it loads.
    package static func error<E: Error>(
        loading text: String, extra: [String: String] = [:], with load: (String) throws(E) -> Void
    ) throws -> E? {
        let path = try write(text, extra: extra)
        do throws(E) {
            try load(path)
            return nil
        } catch { return error }
    }
}
