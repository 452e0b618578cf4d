import Foundation
import PushModel
import Testing

@testable import Reports

/// What `IncrementalReport` makes of cases as they finish — each `<testcase>` element, and the HTML report's data
/// deflated in plan order (`ReportDataStream`) — gives the bytes the writers give for the final report alone.
@Suite struct RenderedReportTests {
    static let shop = "Suites/shop.yaml"
    static let routing = "Suites/routing.yaml"
    static let plan = [
        PlannedSuite(
            name: shop, file: shop, properties: [ReportProperty("owner", "shop team")],
            cases: [PlannedCase(name: "order", line: 9), PlannedCase(name: "passes"), PlannedCase(name: "later")]),
        PlannedSuite(name: routing, file: routing, cases: [PlannedCase(name: "crashes", line: 2)]),
    ]
    static let facts = ReportData.RunFacts(wallSeconds: 2.5, generator: "pushcheck 9.9")

    static func cases() -> [TestCaseReport] {
        var order = HTMLReportTests.traced
        order.name = "order"
        return [
            order, TestCaseReport(classname: shop, name: "passes", time: 0.1, outcome: .passed, systemOut: "ok\n"),
            TestCaseReport(classname: shop, name: "later", time: 0, outcome: .skipped(message: "not today")),
            TestCaseReport(
                classname: routing, name: "crashes", time: 1,
                outcome: .error(ProblemReport(message: "boom", kind: .command, detail: "exit 2"))),
        ]
    }

    /// A report of `plan`, its cases finished in `order` (indexes into `cases()`).
    /// `dataSpoolChunk`: how much deflated data gathers before it goes to the spool.
    static func run(
        _ order: [Int], extra: TestCaseReport? = nil, directory: URL, dataSpoolChunk: Int = 1 << 16
    ) throws -> IncrementalReport {
        let report = try IncrementalReport(
            url: directory.appendingPathComponent("junit.xml"), timestamp: Date(timeIntervalSince1970: 1_767_225_600),
            hostname: "ci-7", properties: [ReportProperty("seed", "7")], plan: plan,
            policy: .coalesced(minimumInterval: .seconds(3600)), htmlGenerator: facts.generator,
            dataSpoolChunk: dataSpoolChunk)
        let all = cases()
        for (n, i) in order.enumerated() {
            if all[i].name != "later" {
                report.caseStarted(
                    suite: all[i].classname, name: all[i].name,
                    at: Date(timeIntervalSince1970: 1_767_225_700 - Double(n)))
            }
            report.caseFinished(all[i])
        }
        if let extra { report.caseFinished(extra) }
        return report
    }

    /// `report` with each case that is the `summary` of one of `cases()` (or of `extra`) as that case: what the run
    /// kept in memory stands for the whole report, whose transcripts and traces went to the spool.
    static func whole(_ report: TestReport, extra: TestCaseReport? = nil) -> TestReport {
        var report = report
        let full = cases() + (extra.map { [$0] } ?? [])
        for s in report.suites.indices {
            for c in report.suites[s].cases.indices {
                let kept = report.suites[s].cases[c]
                if let match = full.first(where: { $0.classname == kept.classname && $0.name == kept.name }),
                    match.summary == kept
                {
                    report.suites[s].cases[c] = match
                }
            }
        }
        return report
    }

    /// The data embedded in `html`, inflated.
    static func data(_ html: String) throws -> [UInt8] {
        let opening = try #require(html.range(of: #"<script type="application/json" id=""#))
        let afterOpening = try #require(html.range(of: #"">"#, range: opening.upperBound..<html.endIndex)).upperBound
        let end = try #require(html.range(of: "</script>", range: afterOpening..<html.endIndex)).lowerBound
        let embedded = Array(html[afterOpening..<end].utf8)
        let json = try JSONValue.parse(embedded)
        guard json["encoding"]?.stringValue == HTMLReport.gzipEncoding else { return embedded }
        return try Gzip.decompress([UInt8](try #require(Data(base64Encoded: json["data"]?.stringValue ?? ""))))
    }

    @Test func streamedDataAndRenderedCasesGiveTheWholeReportsBytes() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for order in [[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]] {
            let report = try Self.run(order, directory: directory)
            let rendered = try report.finishRendered()
            // The run keeps each finished case's summary; the traced case's transcript and trace are on the spool.
            let whole = Self.whole(rendered.report)
            #expect(rendered.report != whole)
            #expect(rendered.report.allCases.allSatisfy { $0.systemOut.isEmpty && $0.trace.isEmpty })
            let onDisk = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
            #expect(onDisk == JUnitXMLWriter.render(whole))
            #expect(rendered.cases.joined().allSatisfy { $0 != nil })
            let wholeHTML = HTMLReport.render(whole, facts: Self.facts, compressAbove: 100)
            let streamed = try HTMLReport.render(rendered, facts: Self.facts, compressAbove: 100)
            #expect(streamed.contains(#""encoding":"gzip+base64""#))
            #expect(try Self.data(streamed) == ReportData.encode(whole, facts: Self.facts).serializedBytes())
            #expect(try Self.data(streamed) == Self.data(wholeHTML))
            // The stream is used once; a second render puts the data together from each case's spooled object.
            #expect(
                try Self.data(try HTMLReport.render(rendered, facts: Self.facts, compressAbove: 100))
                    == Self.data(wholeHTML))
        }
    }

    /// The deflated data goes to the spool as it is made (here every byte of it as soon as it is out of zlib): the
    /// page holds the same stream, read back from the spool in chunks.
    @Test func dataDeflatedOntoTheSpoolGivesTheSamePage() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for order in [[0, 1, 2, 3], [3, 2, 1, 0]] {
            let inMemory = try Self.run(order, directory: directory).finishRendered()
            let spooled = try Self.run(order, directory: directory, dataSpoolChunk: 1).finishRendered()
            let expected = try HTMLReport.render(inMemory, facts: Self.facts, compressAbove: 100)
            #expect(try HTMLReport.render(spooled, facts: Self.facts, compressAbove: 100) == expected)
            #expect(
                try Self.data(expected)
                    == ReportData.encode(Self.whole(inMemory.report), facts: Self.facts).serializedBytes())
            // What the stream handed over: pieces on the spool, then the end of the stream.
            let again = try Self.run(order, directory: directory, dataSpoolChunk: 1).finishRendered()
            let pieces = try #require(again.data?.finish(again.report, facts: Self.facts)).gzip
            #expect(!pieces.spooled.isEmpty)
            var bytes: [UInt8] = []
            try pieces.chunks(of: 5, writing: "t") { chunk in
                #expect(chunk.count == 5 || bytes.count % 5 == 0)
                bytes += chunk
            }
            #expect(
                try Gzip.decompress(bytes)
                    == ReportData.encode(Self.whole(again.report), facts: Self.facts).serializedBytes())
        }
    }

    @Test func whatTheStreamCannotVouchForIsPutTogetherFromTheSpooledCases() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let extra = TestCaseReport(classname: Self.shop, name: "unplanned", time: 0.5, outcome: .passed)
        let otherFacts = ReportData.RunFacts(wallSeconds: 1, generator: "pushcheck 1.0")
        let cases: [(IncrementalReport, ReportData.RunFacts)] = [
            (try Self.run([0, 1, 3], directory: directory), Self.facts),  // unfinished: placeholders, incomplete
            (try Self.run([0, 1, 2, 3], extra: extra, directory: directory), Self.facts),  // not in the plan
            (try Self.run([0, 1, 2, 3], directory: directory), otherFacts),  // another generator
            (try Self.run([0, 1, 2, 3], directory: directory), Self.facts),  // small: not compressed
        ]
        for (n, (report, facts)) in cases.enumerated() {
            let rendered = report.snapshotRendered()
            let above = n == 3 ? 1 << 20 : 100
            let whole = HTMLReport.render(Self.whole(rendered.report, extra: extra), facts: facts, compressAbove: above)
            #expect(try HTMLReport.render(rendered, facts: facts, compressAbove: above) == whole)
            #expect(whole.contains("order") && rendered.report != Self.whole(rendered.report, extra: extra))
        }
    }

    /// `write` sends the page to the file in pieces (the base64 in chunks): the file holds what `render` returns.
    @Test func writtenPagesAreTheRenderedPages() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("report.html")
        for (above, streamed) in [(100, true), (100, false), (1 << 20, true)] {
            // Two runs alike: the stream is used once.
            let one = try Self.run([1, 0, 3, 2], directory: directory)
            let other = try Self.run([1, 0, 3, 2], directory: directory)
            let rendered = try one.finishRendered()
            let otherRendered = try other.finishRendered()
            if !streamed {  // the data is put together from the spooled cases
                for used in [rendered, otherRendered] { _ = used.data?.finish(used.report, facts: Self.facts) }
            }
            try HTMLReport.write(rendered, facts: Self.facts, to: url, compressAbove: above)
            let expected = try HTMLReport.render(otherRendered, facts: Self.facts, compressAbove: above)
            #expect(try String(contentsOf: url, encoding: .utf8) == expected)
            #expect(expected.contains(#""encoding":"gzip+base64""#) == (above == 100))
        }
    }

    @Test func aSpoolGivesBackWhatItKeptFromItsFileAndItsBuffer() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = ReportSpool(directory: directory.path)
        #expect(spool.isFileBacked)
        // Unlinked at once: nothing of the spool is left in the report's directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // 300 KB: most of it goes to the file 64 KiB at a time, the last part stays in the buffer.
        let pieces = (0..<300).map { "<testcase name=\"ü \($0)\">" + String(repeating: "x", count: 1000 + $0) }
        // Half kept as bytes, half as text then bytes (a case's element and its report data, read back as one).
        let kept = pieces.enumerated().map {
            $0.offset % 2 == 0
                ? spool.keep(String($0.element.prefix(30)), then: Array($0.element.dropFirst(30).utf8))
                : spool.keep(Array($0.element.utf8))
        }
        for (piece, spooled) in zip(pieces, kept).reversed() {
            #expect(try spooled.bytes(writing: "r.xml") == Array(piece.utf8))
        }
        #expect(kept[299].offset > 1 << 18)
    }

    @Test func aSpooledPartThatCannotBeReadBackIsAFailedWrite() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spool = ReportSpool(directory: directory.path)
        _ = spool.keep(Array("<testcase/>".utf8))
        let beyond = SpooledBytes(spool: spool, offset: 1 << 20, count: 8)
        #expect(throws: ReportsError.self) { try beyond.bytes(writing: "r.xml") }
        do {
            _ = try beyond.bytes(writing: "r.xml")
        } catch {
            #expect(
                error.description
                    == "r.xml: cannot write the report: a finished scenario's part could not be read back: bytes "
                    + "1048576..<1048584 were never on the spool. Check that the directory exists and is writable.")
        }
    }

    @Test func withoutASpoolFileTheCasesAreKeptInMemory() throws {
        let spool = ReportSpool(directory: "/nonexistent/pushcheck-spool")
        #expect(!spool.isFileBacked)
        let pieces = (0..<100).map { String(repeating: "<testcase/>", count: $0 + 100) }
        let kept = pieces.map { spool.keep($0, then: []) }
        for (piece, spooled) in zip(pieces, kept) {
            #expect(try spooled.bytes(writing: "r.xml") == Array(piece.utf8))
        }
    }

    @Test func gzipStreamInflatesToItsInput() throws {
        let pieces = (0..<300).map { Array("piece \($0) of the data, \(String(repeating: "x", count: $0))\n".utf8) }
        let stream = Gzip.Stream()
        for piece in pieces.dropLast() { stream.append(piece) }
        let packed = stream.finish(pieces.last!)
        #expect(try Gzip.decompress(packed) == Array(pieces.joined()))
        #expect(stream.inputCount == pieces.reduce(0) { $0 + $1.count })
    }

    /// A case that passed at its first attempt, named and placed as planned, is kept as its time and tags alone; the
    /// report made of it is its summary to the byte, and any other case (a retry, a check, another line or file, a
    /// failure) keeps its whole summary.
    @Test func casesThatPassAsPlannedAreKeptAsTheirTime() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = "Suites/many.yaml"
        let names = ["first", "retried", "elsewhere", "failed", "checked", "untagged", "other file"]
        let plan = [
            PlannedSuite(
                name: file, file: file,
                cases: names.enumerated().map { PlannedCase(name: $1, line: 10 * ($0 + 1)) })
        ]
        var cases = names.enumerated().map { n, name in
            TestCaseReport(
                classname: file, name: name, file: file, line: 10 * (n + 1), time: 0.25 * Double(n),
                outcome: .passed, systemOut: "transcript \(n)\n", tags: n == 5 ? [] : ["smoke", "t\(n)"],
                trace: HTMLReportTests.traced.trace)
        }
        cases[1].retries = [
            RetryAttempt(
                kind: .failure, problem: ProblemReport(message: "flaky", type: "assertion"), systemOut: "1st\n")
        ]
        cases[2].line = 11
        cases[3].outcome = .failure(ProblemReport(message: "no", type: "assertion", detail: "expected 200"))
        cases[4].checks = [CheckFailureReport(message: "status", expected: "200", actual: "400")]
        cases[6].file = "Suites/other.yaml"
        let report = try IncrementalReport(
            url: directory.appendingPathComponent("junit.xml"), timestamp: Date(timeIntervalSince1970: 1_767_225_600),
            hostname: "ci-7", properties: [], plan: plan, policy: .coalesced(minimumInterval: .seconds(3600)),
            htmlGenerator: Self.facts.generator)
        for testCase in cases { report.caseFinished(testCase) }
        #expect(report.passedAsPlannedCount == 2)  // "first" and "untagged"
        let rendered = try report.finishRendered()
        #expect(rendered.report.suites.map(\.cases) == [cases.map(\.summary)])
        var whole = rendered.report
        whole.suites[0].cases = cases
        let onDisk = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(onDisk == JUnitXMLWriter.render(whole))
    }
}
