import Foundation
import PushcheckTestSupport
import Testing
@testable import Reports

/// Paths, schema validation (libxml2 and xmllint), golden comparison and temporary directories
/// (processes and directories come from PushcheckTestSupport).
enum Support {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let schemaPath = testsDirectory.appendingPathComponent("Schema/junit-pushcheck.xsd").path

    /// A fresh empty directory under the system temp dir (the caller removes it).
    static func temporaryDirectory() throws -> URL { try TempDirectory("pushcheck-reports").url }

    /// Validates `xml` against the relaxed XSD with libxml2's schema API and with `xmllint --schema`;
    /// records an issue naming `label` for each complaint.
    static func expectValid(_ xml: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let schema = try JUnitSchema(xsdPath: schemaPath)
        let violations = schema.violations(inXML: xml)
        #expect(
            violations.isEmpty, "libxml2 schema violations in \(label): \(violations)", sourceLocation: sourceLocation)

        let directory = try TempDirectory("pushcheck-reports")
        defer { directory.remove() }
        let file = try directory.write("report.xml", xml)
        let result = try runTool("xmllint", ["--noout", "--schema", schemaPath, file])
        #expect(result.succeeded, "xmllint rejects \(label): \(result.output)", sourceLocation: sourceLocation)
    }

    /// Compares `actual` with `Golden/<name>`; on mismatch shows `diff -u`. With
    /// `PUSHCHECK_UPDATE_GOLDEN=1` the golden file is rewritten (and an issue is still recorded).
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let golden = goldenDirectory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["PUSHCHECK_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: golden)
            Issue.record(
                "rewrote golden \(name); re-run without PUSHCHECK_UPDATE_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
            Issue.record(
                "missing golden \(golden.path); run with PUSHCHECK_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if expected == actual { return }
        let directory = try TempDirectory("pushcheck-reports")
        defer { directory.remove() }
        let actualFile = try directory.write(name, actual)
        let diff = try runTool("diff", ["-u", golden.path, actualFile])
        Issue.record("output differs from Golden/\(name):\n\(diff.output)", sourceLocation: sourceLocation)
    }

    /// 2026-11-29T12:00:00 UTC.
    static let noon = Date(timeIntervalSince1970: 1_795_953_600)
}
