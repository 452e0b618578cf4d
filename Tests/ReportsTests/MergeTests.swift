import Foundation
import Testing
@testable import Reports

@Suite struct MergeTests {
    /// Writes three shard files where `Suites/checkout.yaml` is split across all three; returns their URLs
    /// in a scrambled order (3, 1, 2) so the ordering helper is exercised too.
    private func writeShards(in directory: URL) throws -> [URL] {
        let checkout = Fixtures.checkout
        let routing = Fixtures.routing
        func shard(_ index: Int, _ suites: [TestSuiteReport]) throws -> URL {
            let report = TestReport(
                name: "pushcheck", timestamp: Support.noon.addingTimeInterval(Double(index)),
                hostname: "runner-\(index)",
                properties: [ReportProperty("shard", "\(index)/3"), ReportProperty("seed", "99")], suites: suites)
            let url = directory.appendingPathComponent(try ShardSelector(index: index, count: 3).reportFileName)
            try JUnitXMLWriter.write(report, to: url)
            return url
        }
        func suite(_ name: String, _ index: Int, _ cases: [TestCaseReport]) -> TestSuiteReport {
            TestSuiteReport(
                name: name, file: name, timestamp: Support.noon.addingTimeInterval(Double(10 - index)),
                hostname: "runner-\(index)", cases: cases)
        }
        let one = try shard(
            1,
            [
                suite(checkout, 1, [Fixtures.passed(checkout, "a", line: 3, time: 0.1)]),
                suite(
                    routing, 1,
                    [
                        TestCaseReport(
                            classname: routing, name: "r1", file: routing, line: 2, time: 2,
                            outcome: .error(Fixtures.gatewayError))
                    ]),
            ])
        let two = try shard(
            2,
            [
                suite(
                    checkout, 2,
                    [
                        TestCaseReport(
                            classname: checkout, name: "b", file: checkout, line: 8, time: 0.2,
                            outcome: .failure(Fixtures.assertionFailure)),
                        TestCaseReport(
                            classname: checkout, name: "c", file: checkout, line: 12, time: 0,
                            outcome: .skipped(message: "tag excluded")),
                    ])
            ])
        let three = try shard(
            3,
            [
                suite(checkout, 3, [Fixtures.passed(checkout, "d", line: 20, time: 0.3)]),
                suite("Suites/empty.yaml", 3, []),
            ])
        return [three, one, two]
    }

    @Test func threeShardsMergeIntoOneReportWithRecomputedTotals() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ReportMerger.orderedShardFiles(try writeShards(in: directory))
        #expect(files.map(\.lastPathComponent) == ["junit-1-of-3.xml", "junit-2-of-3.xml", "junit-3-of-3.xml"])

        let merged = try ReportMerger.merge(reports: files)
        #expect(merged.suites.map(\.name) == [Fixtures.checkout, Fixtures.routing, "Suites/empty.yaml"])
        #expect(merged.suites[0].cases.map(\.name) == ["a", "b", "c", "d"])
        let checkoutTotals = merged.suites[0].totals
        #expect(checkoutTotals.tests == 4 && checkoutTotals.failures == 1 && checkoutTotals.skipped == 1)
        #expect(merged.suites[0].timestamp == Support.noon.addingTimeInterval(7))  // earliest of 9, 8, 7
        #expect(merged.suites[0].properties.filter { $0.name == "shard" }.map(\.value) == ["1/3", "2/3", "3/3"])
        #expect(merged.suites[0].properties.filter { $0.name == "seed" }.count == 1)
        let totals = merged.totals
        #expect(
            totals.tests == 5 && totals.failures == 1 && totals.errors == 1 && totals.skipped == 1 && totals.passed == 2
        )

        let xml = JUnitXMLWriter.render(merged)
        try Support.expectGolden(xml, "merged.xml")
        try Support.expectValid(xml, "merged.xml")
    }

    /// The one-call form skips its own output when a glob like `Reports/*.xml` includes it.
    @Test func mergeFilesWritesTheMergedReportAndIgnoresItsOwnOutput() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shards = try writeShards(in: directory)
        let output = directory.appendingPathComponent("junit.xml")
        let first = try ReportMerger.mergeFiles(shards, into: output)
        let again = try ReportMerger.mergeFiles(shards + [output], into: output)  // second run: output exists
        #expect(first == again)
        #expect(try String(contentsOf: output, encoding: .utf8) == JUnitXMLWriter.render(first))
        #expect(first.totals.tests == 5)
    }

    /// Counts in the input files are not trusted: a hand-edited total does not survive a merge.
    @Test func totalsInInputsAreIgnored() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("junit-1-of-1.xml")
        let lying = JUnitXMLWriter.render(Fixtures.mixed())
            .replacingOccurrences(of: "tests=\"3\" failures=\"1\"", with: "tests=\"300\" failures=\"100\"")
        try Data(lying.utf8).write(to: url)
        let merged = try ReportMerger.merge(reports: [url])
        #expect(merged.suites[0].totals.tests == 3)
        #expect(JUnitXMLWriter.render(merged) == JUnitXMLWriter.render(Fixtures.mixed()))
    }

    @Test func readsBareTestsuiteRootsFromOtherTools() throws {
        let xml = """
            <?xml version="1.0"?>
            <testsuite name="pytest" tests="2" time="1,5">
              <testcase classname="tests.test_a" name="test_ok" time="0.5"/>
              <testcase classname="tests.test_a" name="test_bad" time="1"><failure message="boom">trace</failure></testcase>
            </testsuite>
            """
        let report = try JUnitXMLReader.parse(Array(xml.utf8), path: "pytest.xml")
        #expect(report.suites.count == 1)
        #expect(report.totals.tests == 2 && report.totals.failures == 1)
        #expect(
            report.suites[0].cases[1].outcome
                == .failure(ProblemReport(message: "boom", type: "failure", detail: "trace")))
    }

    @Test func malformedInputsNameTheFileAndLine() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ text: String) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url
        }
        let good = try file("junit-1-of-2.xml", JUnitXMLWriter.render(Fixtures.mixed()))

        // Cut off mid-document (a shard killed while writing without the atomic writer).
        let full = JUnitXMLWriter.render(Fixtures.retried())
        let cutText = String(full.prefix(upTo: full.range(of: "<rerunFailure")!.lowerBound))
        let cut = try file("junit-2-of-2.xml", cutText)
        let cutLines = cutText.split(separator: "\n", omittingEmptySubsequences: false).count
        do {
            _ = try ReportMerger.merge(reports: [good, cut])
            Issue.record("a truncated shard must not merge")
        } catch {
            guard case let .malformed(path, line, _) = error else {
                Issue.record("expected .malformed, got \(error)")
                return
            }
            #expect(path == cut.path)
            #expect(line >= cutLines - 1 && line <= cutLines)
            #expect(error.description.hasPrefix("\(cut.path):\(line): not well-formed XML"))
        }

        let mismatched = try file("tags.xml", "<testsuites>\n  <testsuite name=\"x\">\n  </testcase>\n</testsuites>\n")
        #expect(throws: ReportsError.self) { try ReportMerger.merge(reports: [mismatched]) }
        do { _ = try ReportMerger.merge(reports: [mismatched]) } catch {
            if case let .malformed(_, line, _) = error { #expect(line == 3) } else { Issue.record("got \(error)") }
        }

        let empty = try file("empty.xml", "")
        #expect(throws: ReportsError.malformed(path: empty.path, line: 1, reason: "the file is empty")) {
            try ReportMerger.merge(reports: [empty])
        }

        let html = try file("page.xml", "<?xml version=\"1.0\"?>\n<html><body/></html>\n")
        #expect(
            throws: ReportsError.invalidReport(
                path: html.path, line: 2, reason: "the root element is <html>, expected <testsuites> or <testsuite>")
        ) {
            try ReportMerger.merge(reports: [html])
        }

        let badTime = try file(
            "time.xml",
            "<testsuites>\n<testsuite name=\"s\">\n\n<testcase name=\"t\" time=\"1,5\"/>\n</testsuite>\n</testsuites>")
        #expect(
            throws: ReportsError.invalidReport(
                path: badTime.path, line: 4, reason: "time '1,5' of testcase 't' is not a number of seconds")
        ) {
            try ReportMerger.merge(reports: [badTime])
        }

        let missing = directory.appendingPathComponent("junit-9-of-9.xml")
        #expect(throws: ReportsError.unreadable(path: missing.path, reason: "no such file")) {
            try ReportMerger.merge(reports: [good, missing])
        }
        #expect(throws: ReportsError.noInputs) { try ReportMerger.merge(reports: []) }
    }

    @Test func theSameShardTwiceIsReportedWithItsLine() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("junit-1-of-2.xml")
        let copy = directory.appendingPathComponent("copy-of-1.xml")
        try JUnitXMLWriter.write(Fixtures.mixed(), to: first)
        try JUnitXMLWriter.write(Fixtures.mixed(), to: copy)
        let xml = JUnitXMLWriter.render(Fixtures.mixed())
        let firstCaseLine =
            xml.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("<testcase") }! + 1
        #expect(
            throws: ReportsError.duplicateCase(
                classname: Fixtures.checkout, name: "order confirmation opens the order", path: copy.path,
                line: firstCaseLine, firstPath: first.path)
        ) {
            try ReportMerger.merge(reports: [first, copy])
        }
    }
}
