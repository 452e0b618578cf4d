import Foundation
import PushModel
import Synchronization

/// What a finished case was made into when it was recorded — its `<testcase>` element and, for a run that writes an
/// HTML report, its object in the report's data — on the thread that finished the scenario, beside the other running
/// scenarios, so that each rewrite of the JUnit file copies it instead of rendering every case again on one thread.
/// Both are kept on the run's `ReportSpool`, one after the other, not in memory; this is where: 16 bytes a case (a run
/// holds one for every finished case, and each snapshot another).
struct RenderedCase: Sendable, Equatable {
    /// Where the `<testcase>` element starts on the spool (-1: the case was not rendered).
    private let offset: Int
    private let junitCount: UInt32
    /// The length of the case's object in the HTML report's data (`ReportData.caseBytes`) that follows the element;
    /// `UInt32.max` when the run writes no HTML report.
    private let dataCount: UInt32

    /// A case that was not rendered (its place in a slot or a snapshot).
    static let notRendered = RenderedCase(offset: -1, junitCount: 0, dataCount: 0)

    private init(offset: Int, junitCount: UInt32, dataCount: UInt32) {
        self.offset = offset
        self.junitCount = junitCount
        self.dataCount = dataCount
    }

    /// `testCase` rendered, with `data` its report data if the run writes an HTML report, both kept on `spool`.
    init(_ testCase: TestCaseReport, data: [UInt8]?, spool: ReportSpool) {
        let junit = JUnitXMLWriter.renderCase(testCase)
        let kept = spool.keep(junit, then: data ?? [])
        let junitCount = kept.count - (data?.count ?? 0)
        precondition(junitCount < UInt32.max && (data?.count ?? 0) < UInt32.max, "a case of \(kept.count) bytes")
        self.init(
            offset: kept.offset, junitCount: UInt32(junitCount), dataCount: data.map { UInt32($0.count) } ?? .max)
    }

    var isRendered: Bool { offset >= 0 }

    /// The `<testcase>` element on `spool` (the one the case was rendered to).
    func junit(on spool: ReportSpool) -> SpooledBytes {
        SpooledBytes(spool: spool, offset: offset, count: Int(junitCount))
    }

    /// The case's report data on `spool`, if the run kept it.
    func data(on spool: ReportSpool) -> SpooledBytes? {
        guard dataCount != .max else { return nil }
        return SpooledBytes(spool: spool, offset: offset + Int(junitCount), count: Int(dataCount))
    }
}

/// A report with what was made of it while the run went: `cases[s][c]` is what `report.suites[s].cases[c]` was
/// rendered to on `spool` (missing or `.notRendered`: rendered when written), `data` the HTML report's data deflated so
/// far. A case that was rendered is in `report` as its `summary`: the writers take its transcripts and trace from what
/// it was rendered to.
package struct RenderedReport: Sendable {
    package let report: TestReport
    let cases: [[RenderedCase]]
    let spool: ReportSpool?
    let data: SharedReportDataStream?

    /// `report` with nothing rendered yet.
    package init(_ report: TestReport) {
        self.init(report: report, cases: [], spool: nil, data: nil)
    }

    init(report: TestReport, cases: [[RenderedCase]], spool: ReportSpool?, data: SharedReportDataStream?) {
        self.report = report
        self.cases = cases
        self.spool = spool
        self.data = data
    }

    /// Where case `index` of suite `suite` was rendered to, if it was: its `<testcase>` element and its report data.
    func rendered(suite: Int, case index: Int) -> (junit: SpooledBytes, data: SpooledBytes?)? {
        guard let spool, suite < cases.count, index < cases[suite].count, cases[suite][index].isRendered else {
            return nil
        }
        let done = cases[suite][index]
        return (done.junit(on: spool), done.data(on: spool))
    }
}

/// A `ReportDataStream` behind a lock: fed by the threads that finish scenarios, finished by the HTML writer.
final class SharedReportDataStream: Sendable {
    private let stream: Mutex<ReportDataStream?>

    init(_ stream: sending ReportDataStream) {
        self.stream = Mutex(stream)
    }

    func started(suite: String, name: String, at date: Date) {
        stream.withLock { $0?.started(suite: suite, name: name, at: date) }
    }

    func finished(suite: String, name: String, json: [UInt8]) {
        stream.withLock { $0?.finished(suite: suite, name: name, json: json) }
    }

    /// `ReportDataStream.finish`, once (later calls get nil).
    func finish(_ report: TestReport, facts: ReportData.RunFacts) -> (gzip: GzipPieces, size: Int)? {
        stream.withLock { stream in
            defer { stream = nil }
            return stream?.finish(report, facts: facts)
        }
    }
}
