import Foundation
import Testing
@testable import Reports

/// Shows that the relaxed XSD differs from the strict windyroad one only where it must: a report without
/// the pushcheck extras validates against the unmodified strict schema, and each extra alone breaks it.
@Suite struct StrictSchemaTests {
    static let strictPath = Support.testsDirectory.appendingPathComponent("Schema/junit-windyroad-strict.xsd").path

    /// A plain report: no file/line, no retries, no per-case output, no suite file.
    static func plain() -> TestReport {
        var report = Fixtures.mixed()
        for suiteIndex in report.suites.indices {
            report.suites[suiteIndex].file = nil
            for caseIndex in report.suites[suiteIndex].cases.indices {
                report.suites[suiteIndex].cases[caseIndex].file = nil
                report.suites[suiteIndex].cases[caseIndex].line = nil
                report.suites[suiteIndex].cases[caseIndex].systemOut = ""
                report.suites[suiteIndex].cases[caseIndex].systemErr = ""
            }
        }
        return report
    }

    /// The strict schema has no attributes on `testsuites` (relaxation R1): drop them.
    static func withBareRoot(_ xml: String) -> String {
        guard let start = xml.range(of: "<testsuites "), let end = xml[start.upperBound...].range(of: ">") else {
            return xml
        }
        return xml.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "<testsuites>")
    }

    @Test func plainReportIsValidUnderTheStrictSchema() throws {
        let strict = try JUnitSchema(xsdPath: Self.strictPath)
        let xml = Self.withBareRoot(JUnitXMLWriter.render(Self.plain()))
        #expect(strict.violations(inXML: xml).isEmpty, "\(strict.violations(inXML: xml))")
    }

    @Test func eachRelaxationIsNeeded() throws {
        let strict = try JUnitSchema(xsdPath: Self.strictPath)
        let relaxed = try JUnitSchema(xsdPath: Support.schemaPath)
        var withLine = Self.plain()
        withLine.suites[0].cases[0].file = "Suites/checkout.yaml"  // R3
        var withRetry = Self.plain()
        withRetry.suites[0].cases[0].retries = [RetryAttempt(kind: .failure, problem: Fixtures.assertionFailure)]  // R4
        var withOutput = Self.plain()
        withOutput.suites[0].cases[0].systemOut = "transcript"  // R5
        var withSuiteFile = Self.plain()
        withSuiteFile.suites[0].file = "Suites/checkout.yaml"  // R2
        let variants: [(String, String)] = [
            ("R1 totals on testsuites", JUnitXMLWriter.render(Self.plain())),
            ("R2 testsuite file", Self.withBareRoot(JUnitXMLWriter.render(withSuiteFile))),
            ("R3 testcase file", Self.withBareRoot(JUnitXMLWriter.render(withLine))),
            ("R4 retry element", Self.withBareRoot(JUnitXMLWriter.render(withRetry))),
            ("R5 testcase system-out", Self.withBareRoot(JUnitXMLWriter.render(withOutput))),
        ]
        for (label, xml) in variants {
            #expect(!strict.violations(inXML: xml).isEmpty, "the strict schema should reject \(label)")
            #expect(relaxed.violations(inXML: xml).isEmpty, "the relaxed schema should accept \(label)")
        }
    }
}
