import Foundation
import PushModel
import Synchronization

/// What a finished case was made into when it was recorded — its `<testcase>` element and, for a run that writes an
/// HTML report, its object in the report's data — on the thread that finished the scenario, beside the other running
/// scenarios, so that each rewrite of the JUnit file copies it instead of rendering every case again on one thread.
/// Both are kept on the run's `ReportSpool`, not in memory.
struct RenderedCase: Sendable {
    /// The `<testcase>` element.
    let junit: SpooledBytes
    /// The case's object in the HTML report's data (`ReportData.caseBytes`), when the run writes one.
    let data: SpooledBytes?

    /// `testCase` rendered, with `data` its report data if the run writes an HTML report, both kept on `spool`.
    init(_ testCase: TestCaseReport, data: [UInt8]?, spool: ReportSpool) {
        junit = spool.keep(JUnitXMLWriter.renderCase(testCase))
        self.data = data.map { spool.keep($0) }
    }
}

/// A report with what was made of it while the run went: `cases[s][c]` is what `report.suites[s].cases[c]` was
/// rendered to (missing or nil: rendered when written), `data` the HTML report's data deflated so far. A case that was
/// rendered is in `report` as its `summary`: the writers take its transcripts and trace from what it was rendered to.
package struct RenderedReport: Sendable {
    package let report: TestReport
    let cases: [[RenderedCase?]]
    let data: SharedReportDataStream?

    /// `report` with nothing rendered yet.
    package init(_ report: TestReport) {
        self.init(report: report, cases: [], data: nil)
    }

    init(report: TestReport, cases: [[RenderedCase?]], data: SharedReportDataStream?) {
        self.report = report
        self.cases = cases
        self.data = data
    }

    /// What case `index` of suite `suite` rendered to, if it was.
    func rendered(suite: Int, case index: Int) -> RenderedCase? {
        guard suite < cases.count, index < cases[suite].count else { return nil }
        return cases[suite][index]
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
