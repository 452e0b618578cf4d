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
    static func run(_ order: [Int], extra: TestCaseReport? = nil, directory: URL) throws -> IncrementalReport {
        let report = try IncrementalReport(
            url: directory.appendingPathComponent("junit.xml"), timestamp: Date(timeIntervalSince1970: 1_767_225_600),
            hostname: "ci-7", properties: [ReportProperty("seed", "7")], plan: plan,
            policy: .coalesced(minimumInterval: .seconds(3600)), htmlGenerator: facts.generator)
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
            let onDisk = try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8)
            #expect(onDisk == JUnitXMLWriter.render(rendered.report))
            #expect(rendered.cases.joined().allSatisfy { $0 != nil })
            let whole = HTMLReport.render(rendered.report, facts: Self.facts, compressAbove: 100)
            let streamed = HTMLReport.render(rendered, facts: Self.facts, compressAbove: 100)
            #expect(streamed.contains(#""encoding":"gzip+base64""#))
            #expect(try Self.data(streamed) == ReportData.encode(rendered.report, facts: Self.facts).serializedBytes())
            #expect(try Self.data(streamed) == Self.data(whole))
            // The stream is used once; a second render encodes the report whole, to the same data.
            #expect(
                try Self.data(HTMLReport.render(rendered, facts: Self.facts, compressAbove: 100)) == Self.data(whole))
        }
    }

    @Test func whatTheStreamCannotVouchForIsEncodedWhole() throws {
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
            let whole = HTMLReport.render(rendered.report, facts: facts, compressAbove: above)
            #expect(HTMLReport.render(rendered, facts: facts, compressAbove: above) == whole)
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
}
