import Foundation
import PushModel

/// The HTML report's data (`ReportData.encode`), gzipped while the run goes: a finished case's JSON is deflated as
/// soon as every case planned before it is in, and dropped, so the end of the run deflates only the last members
/// and the run does not hold a second copy of every transcript and trace. What is deflated is what the whole
/// report encodes to, piece by piece: the document's members before `suites` from the run's header, then per suite
/// `{"cases":[`, its cases, and its other members once its last case is in. `finish` compares each piece against
/// the final report before it uses the stream; anything it cannot vouch for (a case finished twice, one not in the
/// plan, an unfinished run) makes the writer encode the report whole instead.
final class ReportDataStream {
    private typealias Key = PlanIndex.Key

    private let header: TestReport
    private let plan: [PlannedSuite]
    private let generator: String
    /// Each planned case's position (shared with the run's `ReportProgress`).
    private let index: PlanIndex
    /// Level 1: deflating at zlib's default 6 cost about 4 % of a run's CPU on the scenario threads; the report of
    /// 1,000 bench scenarios grows from 0.4 to 0.6 MB (the data is mostly the same transcripts and traces over again).
    private let gzip = Gzip.Stream(level: 1)
    /// Where the deflated data goes, `spoolChunk` bytes or more at a time, while the run goes (none: kept in memory).
    private let spool: ReportSpool?
    private let spoolChunk: Int
    /// The deflated data on `spool` so far, in order.
    private var spooled: [SpooledBytes] = []
    /// The next case to deflate, and the cases finished before their turn.
    private var next = (suite: 0, index: 0)
    private var waiting: [Key: [UInt8]] = [:]
    /// Each planned case's start time (`timeIntervalSinceReferenceDate`, NaN until it started), by position (a suite's
    /// `timestamp` is the earliest of its cases').
    private var starts: [Double]
    /// The pieces deflated that `finish` compares with the final report: the document's head and each suite's tail.
    private var head: [UInt8] = []
    private var suiteHeads: [[UInt8]] = []
    private var suiteTails: [[UInt8]] = []
    private var broken = false

    /// A stream for a run of `plan` whose report starts as `header`; the HTML report's `generator`. The deflated data
    /// goes to `spool` as it is made, `spoolChunk` bytes or more at a time (0.7 KB a bench scenario otherwise held
    /// until the end of the run).
    init(
        header: TestReport, plan: [PlannedSuite], index: PlanIndex, generator: String, spool: ReportSpool? = nil,
        spoolChunk: Int = 1 << 16
    ) {
        self.spool = spool
        self.spoolChunk = spoolChunk
        self.header = header
        self.plan = plan
        self.generator = generator
        self.index = index
        starts = Array(repeating: .nan, count: index.count)
        skipEmptySuites()
    }

    /// A scenario started (its suite's `timestamp` is the earliest start).
    func started(suite: String, name: String, at date: Date) {
        guard let at = index.position(suite: suite, name: name) else { return }
        starts[at] = date.timeIntervalSinceReferenceDate
    }

    /// A scenario finished, `json` being its case object (`ReportData.caseJSON`, serialized).
    func finished(suite: String, name: String, json: [UInt8]) {
        let key = Key(suite: suite, name: name)
        guard !broken, let at = index.position(suite: suite, name: name),
            next.suite < plan.count, at >= index.positions(ofSuite: next.suite).lowerBound + next.index,
            waiting[key] == nil
        else {
            broken = true  // not planned, or finished twice: the report is encoded whole
            waiting = [:]
            return
        }
        waiting[key] = json
        while next.suite < plan.count {
            let suite = plan[next.suite]
            let nextKey = Key(suite: suite.name, name: suite.cases[next.index].name)
            guard let json = waiting.removeValue(forKey: nextKey) else { break }
            var piece: [UInt8] = []
            if next.index == 0 {
                if next.suite == 0 {
                    head = ReportData.split(ReportData.headAndTail(header, facts: .init(generator: generator))).head
                    piece += head + [UInt8(ascii: "[")]
                } else {
                    piece.append(UInt8(ascii: ","))
                }
                suiteHeads.append(ReportData.split(ReportData.suiteHeadAndTail(suiteReport(next.suite))).head)
                piece += suiteHeads[next.suite] + [UInt8(ascii: "[")]
            } else {
                piece.append(UInt8(ascii: ","))
            }
            piece += json
            if next.index == suite.cases.count - 1 {
                let tail = ReportData.split(ReportData.suiteHeadAndTail(suiteReport(next.suite))).tail
                suiteTails.append(tail)
                piece += [UInt8(ascii: "]")] + tail
                next = (next.suite + 1, 0)
                skipEmptySuites()
            } else {
                next.index += 1
            }
            gzip.append(piece)
            if let spool, gzip.outputCount >= spoolChunk { spooled.append(spool.keep(gzip.takeOutput())) }
        }
    }

    /// The gzipped document for `report` (the final report of this run) and `facts`, with the number of bytes it
    /// inflates to; nil when the stream cannot vouch for it. Call once.
    func finish(_ report: TestReport, facts: ReportData.RunFacts) -> (gzip: GzipPieces, size: Int)? {
        guard !broken, next.suite == plan.count, plan.count > 0, facts.generator == generator,
            report.suites.count == plan.count, suiteTails.count == plan.count
        else { return nil }
        broken = true  // once
        let (head, tail) = ReportData.split(ReportData.headAndTail(report, facts: facts))
        guard head == self.head else { return nil }
        for (s, suite) in report.suites.enumerated() {
            let (suiteHead, suiteTail) = ReportData.split(ReportData.suiteHeadAndTail(suite))
            guard suite.cases.count == plan[s].cases.count, suiteHead == suiteHeads[s], suiteTail == suiteTails[s]
            else { return nil }
        }
        let bytes = gzip.finish([UInt8(ascii: "]")] + tail)
        return bytes.isEmpty ? nil : (GzipPieces(spooled: spooled, last: bytes), gzip.inputCount)
    }

    /// Suite `s` as `ReportProgress.snapshot` makes it, without its cases.
    private func suiteReport(_ s: Int) -> TestSuiteReport {
        let planned = plan[s]
        return TestSuiteReport(
            name: planned.name, file: planned.file,
            timestamp: starts[index.positions(ofSuite: s)].lazy.filter { !$0.isNaN }.min()
                .map(Date.init(timeIntervalSinceReferenceDate:)) ?? header.timestamp,
            hostname: header.hostname, properties: planned.properties, title: planned.title)
    }

    /// Suites without cases have nothing to wait for: the stream does not take them (`finish` refuses them).
    private func skipEmptySuites() {
        if next.suite < plan.count, plan[next.suite].cases.isEmpty { broken = true }
    }
}

/// A gzip stream in pieces: the first ones on a spool, the last in memory.
struct GzipPieces {
    var spooled: [SpooledBytes] = []
    var last: [UInt8]

    /// The stream's bytes in chunks of `size` (the last one shorter), read back from the spool as they are needed; a
    /// failed read is a failed write of `path`.
    func chunks(of size: Int, writing path: String, _ body: ([UInt8]) -> Void) throws(ReportsError) {
        var pending: [UInt8] = []
        func take(_ bytes: [UInt8]) {
            pending += bytes
            var start = 0
            while pending.count - start >= size {
                body(Array(pending[start..<(start + size)]))
                start += size
            }
            pending.removeFirst(start)
        }
        for piece in spooled { take(try piece.bytes(writing: path)) }
        take(last)
        if !pending.isEmpty { body(pending) }
    }
}
