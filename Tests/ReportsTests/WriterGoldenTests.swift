import Foundation
import Testing
@testable import Reports

/// The writer's output, byte for byte, against files in Golden/; every golden is also schema-validated.
@Suite struct WriterGoldenTests {
    @Test func mixedOutcomesMatchGoldenAndSchema() throws {
        let xml = JUnitXMLWriter.render(Fixtures.mixed())
        try Support.expectGolden(xml, "mixed.xml")
        try Support.expectValid(xml, "mixed.xml")
    }

    @Test func retriesAreSurefireFlakyAndRerunElements() throws {
        let xml = JUnitXMLWriter.render(Fixtures.retried())
        try Support.expectGolden(xml, "retries.xml")
        try Support.expectValid(xml, "retries.xml")
        #expect(xml.contains("<flakyFailure message=\"badge was 0\""))
        #expect(xml.contains("<flakyError message=\"connection reset\""))
        #expect(xml.contains("<rerunFailure message=\"app did not wake\""))
        #expect(xml.contains("<rerunError message=\"gateway crashed\""))
        // A flaky pass is a pass: no failure counted anywhere.
        #expect(
            xml.contains(
                "<testsuites name=\"pushcheck\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"1.200\""))
    }

    @Test func emptyReportAndEmptySuiteAreValid() throws {
        let empty = TestReport(name: "pushcheck", timestamp: Support.noon, hostname: "h")
        let emptyXML = JUnitXMLWriter.render(empty)
        try Support.expectGolden(emptyXML, "empty-report.xml")
        try Support.expectValid(emptyXML, "empty-report.xml")

        var withEmptySuite = empty
        withEmptySuite.suites = [TestSuiteReport(name: "Suites/nothing.yaml", timestamp: Support.noon, hostname: "")]
        let suiteXML = JUnitXMLWriter.render(withEmptySuite)
        try Support.expectGolden(suiteXML, "empty-suite.xml")
        try Support.expectValid(suiteXML, "empty-suite.xml")
        #expect(suiteXML.contains("hostname=\"localhost\""))
        #expect(suiteXML.contains("tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\""))
    }

    @Test func illegalCharactersAndAnsiNeverReachTheFile() throws {
        let nasty =
            "\u{1B}[31mred\u{1B}[0m NUL:\u{0} BEL:\u{7} VT:\u{B} FFFE:\u{FFFE} FFFF:\u{FFFF} end ]]> <&> \"q\" tab:\tcr:\r"
        let testCase = TestCaseReport(
            classname: "Suites/\u{1B}[1mbold\u{1B}[0m.yaml", name: "name \u{1}with control", file: "Suites/x.yaml",
            line: 1,
            time: 0.001, outcome: .failure(ProblemReport(message: nasty, type: "assertion", detail: nasty)),
            retries: [
                RetryAttempt(
                    kind: .failure, problem: ProblemReport(message: nasty, type: "x", detail: nasty),
                    systemOut: nasty)
            ],
            systemOut: nasty, systemErr: "\u{1B}]0;window title\u{7}osc gone")
        let report = TestReport(
            name: "pushcheck", timestamp: Support.noon, hostname: "h",
            properties: [ReportProperty("banner", nasty)],
            suites: [TestSuiteReport(name: "Suites/x.yaml", timestamp: Support.noon, hostname: "h", cases: [testCase])])
        let xml = JUnitXMLWriter.render(report)
        try Support.expectGolden(xml, "illegal-characters.xml")
        try Support.expectValid(xml, "illegal-characters.xml")
        for scalar in xml.unicodeScalars {
            #expect(XMLText.isLegal(scalar), "illegal scalar U+\(String(scalar.value, radix: 16)) written")
        }
        #expect(!xml.contains("\u{1B}"))
        #expect(!xml.contains("]]>"))

        // The text survives a round trip through libxml2, minus the escapes, with markers for the rest.
        let parsed = try JUnitXMLReader.parse(Array(xml.utf8), path: "illegal.xml")
        let readCase = try #require(parsed.suites.first?.cases.first)
        #expect(
            readCase.systemOut
                == "red NUL:\u{FFFD} BEL:\u{FFFD} VT:\u{FFFD} FFFE:\u{FFFD} FFFF:\u{FFFD} end ]]> <&> \"q\" tab:\tcr:\r"
        )
        #expect(readCase.systemErr == "osc gone")
        #expect(readCase.classname == "Suites/bold.yaml")
        guard case let .failure(problem) = readCase.outcome else {
            Issue.record("expected a failure, got \(readCase.outcome)")
            return
        }
        #expect(problem.message == readCase.systemOut, "attribute values keep tab and CR")
    }

    @Test func invalidUTF8LoneSurrogateBecomesReplacementCharacter() throws {
        // ED A0 80 is a UTF-8-encoded lone surrogate (U+D800); Swift decodes it as U+FFFD.
        let text = String(decoding: [0x61, 0xED, 0xA0, 0x80, 0x62], as: UTF8.self)
        let xml = XMLText.escapeText(text)
        #expect(xml.unicodeScalars.allSatisfy(XMLText.isLegal))
        #expect(xml.hasPrefix("a") && xml.hasSuffix("b") && xml.contains("\u{FFFD}"))
    }

    @Test func timesAreThreeDecimalsWithoutExponentOrLocale() {
        #expect(JUnitXMLWriter.formatSeconds(0) == "0.000")
        #expect(JUnitXMLWriter.formatSeconds(0.0004) == "0.000")
        #expect(JUnitXMLWriter.formatSeconds(0.0005) == "0.001")
        #expect(JUnitXMLWriter.formatSeconds(1e-7) == "0.000")
        #expect(JUnitXMLWriter.formatSeconds(1.5) == "1.500")
        #expect(JUnitXMLWriter.formatSeconds(1234567.891) == "1234567.891")
        #expect(JUnitXMLWriter.formatSeconds(-3) == "0.000")
        #expect(JUnitXMLWriter.formatSeconds(.nan) == "0.000")
        #expect(JUnitXMLWriter.formatSeconds(.infinity) == "0.000")
    }

    @Test func timestampsAreUTCWithoutZone() {
        #expect(JUnitXMLWriter.formatTimestamp(Support.noon) == "2026-11-29T12:00:00")
        #expect(JUnitXMLWriter.formatTimestamp(Date(timeIntervalSince1970: 0.999)) == "1970-01-01T00:00:00")
        #expect(JUnitXMLReader.parseTimestamp("2026-11-29T12:00:00") == Support.noon)
        #expect(JUnitXMLReader.parseTimestamp("2026-11-29T13:30:00+01:30") == Support.noon)
        #expect(JUnitXMLReader.parseTimestamp("2026-11-29T12:00:00Z") == Support.noon)
        #expect(JUnitXMLReader.parseTimestamp("2026-11-29 12:00:00") == nil)
        #expect(JUnitXMLReader.parseTimestamp("2026-13-29T12:00:00") == nil)
    }

    @Test func writtenReportReadsBackToTheSameDocument() throws {
        for report in [Fixtures.mixed(), Fixtures.retried()] {
            let xml = JUnitXMLWriter.render(report)
            let again = JUnitXMLWriter.render(try JUnitXMLReader.parse(Array(xml.utf8), path: "round-trip.xml"))
            #expect(again == xml)
        }
    }

    @Test func schemaRejectsWhatTheStrictRulesForbid() throws {
        let schema = try JUnitSchema(xsdPath: Support.schemaPath)
        let good = JUnitXMLWriter.render(Fixtures.mixed())
        #expect(schema.violations(inXML: good).isEmpty)
        // A zone on the timestamp, a missing hostname, and a comma time are all rejected.
        let zoned = good.replacingOccurrences(
            of: "timestamp=\"2026-11-29T12:00:00\"", with: "timestamp=\"2026-11-29T12:00:00Z\"")
        #expect(!schema.violations(inXML: zoned).isEmpty)
        let noHost = good.replacingOccurrences(of: " hostname=\"ci-runner-1\"", with: "")
        #expect(!schema.violations(inXML: noHost).isEmpty)
        let commaTime = good.replacingOccurrences(of: "time=\"0.400\"", with: "time=\"0,400\"")
        #expect(!schema.violations(inXML: commaTime).isEmpty)
        let cut = String(good.prefix(200))
        let cutViolations = schema.violations(inXML: cut)
        #expect(!cutViolations.isEmpty)
    }
}
