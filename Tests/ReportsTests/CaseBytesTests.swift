import PushModel
import Testing

@testable import Reports

/// The direct case writer gives the bytes of the case's `JSONValue`, serialized, for every kind of case.
@Suite struct CaseBytesTests {
    @Test func sameBytesAsTheJSONValue() {
        var cases = RenderedReportTests.cases()
        cases.append(
            TestCaseReport(
                classname: "Suites/a.yaml", name: "nan", time: .nan, outcome: .passed,
                trace: [
                    TraceEvent(.note, from: .runner, to: .runner, label: "", atMilliseconds: 0.125),
                    TraceEvent(.callback, from: .device, to: .app, label: "x\u{1}\"\\"),
                ]))
        for c in cases {
            #expect(ReportData.caseBytes(c) == ReportData.caseJSON(c).serializedBytes(), "\(c.name)")
        }
    }
}
