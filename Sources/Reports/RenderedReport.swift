import Foundation
import Synchronization

/// A finished case's `<testcase>` element, rendered once when it is recorded — on the thread that finished the
/// scenario, beside the other running scenarios — so that each rewrite of the JUnit file copies it instead of
/// rendering every case again on one thread.
struct RenderedCase: Sendable {
    let junit: String

    init(_ testCase: TestCaseReport) {
        junit = JUnitXMLWriter.renderCase(testCase)
    }
}

/// A report with what was made of it while the run went: `cases[s][c]` is `report.suites[s].cases[c]`'s element
/// (missing or nil: rendered when written), `data` the HTML report's data deflated so far. Writers give the same
/// output with or without them.
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

    func finished(_ testCase: TestCaseReport) {
        let json = ReportData.caseBytes(testCase)
        stream.withLock { $0?.finished(suite: testCase.classname, name: testCase.name, json: json) }
    }

    /// `ReportDataStream.finish`, once (later calls get nil).
    func finish(_ report: TestReport, facts: ReportData.RunFacts) -> (gzip: [UInt8], size: Int)? {
        stream.withLock { stream in
            defer { stream = nil }
            return stream?.finish(report, facts: facts)
        }
    }
}
