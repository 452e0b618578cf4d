import Foundation
import Testing
@testable import Reports

/// Paths, schema validation (libxml2 and xmllint), golden comparison and temporary directories.
enum Support {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let schemaPath = testsDirectory.appendingPathComponent("Schema/junit-pushcheck.xsd").path

    /// A fresh empty directory under the system temp dir.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pushcheck-reports-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Validates `xml` against the relaxed XSD with libxml2's schema API and with `xmllint --schema`;
    /// records an issue naming `label` for each complaint.
    static func expectValid(_ xml: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let schema = try JUnitSchema(xsdPath: schemaPath)
        let violations = schema.violations(inXML: xml)
        #expect(violations.isEmpty, "libxml2 schema violations in \(label): \(violations)", sourceLocation: sourceLocation)

        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.xml")
        try Data(xml.utf8).write(to: file)
        let result = try run("/usr/bin/xmllint", ["--noout", "--schema", schemaPath, file.path])
        #expect(result.status == 0, "xmllint rejects \(label): \(result.output)", sourceLocation: sourceLocation)
    }

    /// Compares `actual` with `Golden/<name>`; on mismatch shows `diff -u`. With
    /// `PUSHCHECK_UPDATE_GOLDEN=1` the golden file is rewritten (and an issue is still recorded).
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let golden = goldenDirectory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["PUSHCHECK_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: golden)
            Issue.record("rewrote golden \(name); re-run without PUSHCHECK_UPDATE_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
            Issue.record("missing golden \(golden.path); run with PUSHCHECK_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if expected == actual { return }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let actualFile = directory.appendingPathComponent(name)
        try Data(actual.utf8).write(to: actualFile)
        let diff = try run("/usr/bin/diff", ["-u", golden.path, actualFile.path])
        Issue.record("output differs from Golden/\(name):\n\(diff.output)", sourceLocation: sourceLocation)
    }

    /// Runs a program with a 30-second limit; returns its exit status and combined output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            return (-1, "timed out: \(executable) \(arguments)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()  // small: the child has exited
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// 2026-11-29T12:00:00 UTC.
    static let noon = Date(timeIntervalSince1970: 1_795_953_600)
}
