import Foundation
import PushModel
import WebUI

/// The self-contained HTML report (`run --html`, `merge-reports --html`): one file with the run's data
/// (`ReportData`) embedded as JSON and the page drawn from it by inline script; nothing is fetched, so it opens
/// from disk or from a CI artifact. Rendering is pure; `write` is the only I/O.
package enum HTMLReport {
    /// Data larger than this is embedded gzipped: transcripts and traces repeat themselves from scenario to
    /// scenario, so the 1,000-scenario bench stays well under the 5 MB budget (README "HTML report").
    static let compressAbove = 256 << 10

    /// The document for `report`. The data is embedded as JSON, or past `compressAbove` bytes as
    /// `{"encoding": "gzip+base64", "data": "…"}` (the page inflates it with `DecompressionStream`).
    package static func render(
        _ report: TestReport, facts: ReportData.RunFacts = ReportData.RunFacts(), compressAbove: Int = compressAbove
    ) -> String {
        var out = ""
        page(
            report, json: ReportData.encode(report, facts: facts).serializedBytes(), compressAbove: compressAbove,
            into: &out)
        return out
    }

    /// `render` of the report `rendered` stands for (its finished cases are summaries; what they were rendered to holds
    /// the rest): the data deflated while the run went (`ReportDataStream`) if it can vouch for it, else the data put
    /// together from each case's object. A case's object that cannot be read back is a failed write of `path`.
    package static func render(
        _ rendered: RenderedReport, facts: ReportData.RunFacts = ReportData.RunFacts(),
        compressAbove: Int = compressAbove, path: String = ""
    ) throws(ReportsError) -> String {
        var out = ""
        try page(rendered, facts: facts, compressAbove: compressAbove, path: path, into: &out)
        return out
    }

    /// The page for `rendered`, appended to `out` in pieces (the gzipped data's base64 in chunks).
    private static func page<Output: ReportOutput>(
        _ rendered: RenderedReport, facts: ReportData.RunFacts, compressAbove: Int, path: String,
        into out: inout Output
    ) throws(ReportsError) {
        let report = rendered.report
        if let streamed = rendered.data?.finish(report, facts: facts), streamed.size > compressAbove {
            try page(report, packed: streamed.gzip, path: path, into: &out)
            return
        }
        page(
            report, json: try ReportData.encodeBytes(rendered, facts: facts, path: path), compressAbove: compressAbove,
            into: &out)
    }

    /// The page with `json` embedded, gzipped past `compressAbove` bytes.
    private static func page<Output: ReportOutput>(
        _ report: TestReport, json: [UInt8], compressAbove: Int, into out: inout Output
    ) {
        if json.count > compressAbove, case let packed = Gzip.compress(json), !packed.isEmpty {
            // In memory only: no read to fail.
            try? page(report, packed: GzipPieces(last: packed), path: "", into: &out)
            return
        }
        out.append(
            WebUI.document(
                .report, title: title(report), dataJSON: WebUI.embeddable(String(decoding: json, as: UTF8.self))))
    }

    /// The page with `packed` (the gzipped data) embedded as `{"data": base64, "encoding": "gzip+base64"}`, the members
    /// in the order `JSONValue` serializes them. Base64 and the encoding's name hold nothing `WebUI.embeddable`
    /// escapes (`<`, `>`, `&`, U+2028, U+2029) or JSON escapes, so the base64 goes out in chunks as it is made (its
    /// scalar-by-scalar copy of the megabyte was serial work at the end of the run; the whole text, memory at its peak).
    private static func page<Output: ReportOutput>(
        _ report: TestReport, packed: GzipPieces, path: String, into out: inout Output
    ) throws(ReportsError) {
        let page = WebUI.document(.report, title: title(report), dataJSON: "\u{0}")
        let at = page.utf8.firstIndex(of: 0)!
        out.append(bytes: page.utf8[..<at])
        out.append("{\"data\":\"")
        // Whole groups of 3 bytes: the chunks' base64 put end to end is the stream's.
        try packed.chunks(of: 3 << 14, writing: path) { out.append(Data($0).base64EncodedString()) }
        out.append("\",\"encoding\":\"" + gzipEncoding + "\"}")
        out.append(bytes: page.utf8[page.utf8.index(after: at)...])
    }

    /// The `encoding` of gzipped data.
    static let gzipEncoding = "gzip+base64"

    /// Renders and writes atomically (a reader sees the old file or the whole new one).
    package static func write(
        _ report: TestReport, facts: ReportData.RunFacts = ReportData.RunFacts(), to url: URL
    ) throws(ReportsError) {
        try write(RenderedReport(report), facts: facts, to: url)
    }

    /// `write` of `rendered.report`, with the data deflated while the run went if it can vouch for it.
    package static func write(
        _ rendered: RenderedReport, facts: ReportData.RunFacts = ReportData.RunFacts(), to url: URL,
        compressAbove: Int = compressAbove
    ) throws(ReportsError) {
        try AtomicFile.write(to: url, example: "Reports/report.html") {
            (writer: inout AtomicFile.Writer) throws(ReportsError) in
            try page(rendered, facts: facts, compressAbove: compressAbove, path: url.path, into: &writer)
        }
    }

    /// A page that says a run is under way, written where the report will be before the run starts: a path that
    /// cannot be written fails then, not after the last scenario, and a run that dies leaves this page, not an earlier
    /// run's report. Small whatever the plan (the report as planned, every scenario "not run", was rendered for it:
    /// 0.8 KB of peak memory a scenario). It holds no report data, so `merge-reports` refuses it as a shard; its
    /// `runInProgressMarker` lets that refusal say it is the page of a run that did not finish.
    package static func writeRunInProgress(scenarios: Int, to url: URL) throws(ReportsError) {
        try AtomicFile.write(to: url, example: "Reports/report.html") {
            (writer: inout AtomicFile.Writer) throws(ReportsError) in
            writer.append(
                "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\(runInProgressMarker)"
                    + "<title>pushcheck: run in progress</title></head>\n<body><h1>pushcheck: run in progress</h1><p>\(scenarios) scenario"
                    + "\(scenarios == 1 ? "" : "s") planned. The report replaces this page when the run ends; if the "
                    + "run was killed, it never finished.</p></body></html>\n")
        }
    }

    /// What marks the page `writeRunInProgress` writes.
    static let runInProgressMarker = #"<meta name="pushcheck-report" content="run in progress">"#

    /// The data embedded in an HTML report written by `render` (`merge-reports` reads shards back with it).
    package static func read(contentsOf url: URL) throws(ReportsError) -> (TestReport, ReportData.RunFacts) {
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        return try parse(bytes, path: url.path)
    }

    /// `read` on bytes already loaded.
    package static func parse(_ bytes: [UInt8], path: String) throws(ReportsError) -> (TestReport, ReportData.RunFacts)
    {
        let opening = Array(WebUI.dataOpeningTag.utf8)
        let closing = Array("</script>".utf8)
        guard let start = find(opening, in: bytes, from: 0) else {
            if find(Array(runInProgressMarker.utf8), in: bytes, from: 0) != nil {
                throw .invalidReportData(
                    path: path, line: 0,
                    reason: "the 'run in progress' page of a run that did not finish (killed before it wrote its "
                        + "report): no report data; its JUnit report (--junit) holds the scenarios it finished")
            }
            throw .invalidReportData(
                path: path, line: 0,
                reason: "no embedded report data (\(WebUI.dataOpeningTag)); pass HTML reports written by "
                    + "'pushcheck run --html' or JUnit XML files")
        }
        let from = start + opening.count
        guard let end = find(closing, in: bytes, from: from) else {
            throw .invalidReportData(
                path: path, line: line(of: from, in: bytes), reason: "the report data block is not closed")
        }
        var json: JSONValue
        do { json = try JSONValue.parse(Array(bytes[from..<end])) } catch {
            throw .invalidReportData(
                path: path, line: line(of: from + error.offset, in: bytes), reason: "report data: \(error.message)")
        }
        if json["encoding"]?.stringValue == gzipEncoding {
            let reason = { (why: String) in
                ReportsError.invalidReportData(path: path, line: line(of: from, in: bytes), reason: why)
            }
            guard let text = json["data"]?.stringValue, let packed = Data(base64Encoded: text) else {
                throw reason("the gzipped report data is not base64")
            }
            do { json = try JSONValue.parse(try Gzip.decompress([UInt8](packed))) } catch let error as Gzip.Failure {
                throw reason("the gzipped report data does not inflate: \(error.message)")
            } catch {
                throw reason("the inflated report data is not JSON: \(error)")
            }
        }
        return try ReportData.decode(json, path: path)
    }

    /// Merges shard reports, HTML or JUnit XML (each read by its kind), as `ReportMerger` merges JUnit files;
    /// the wall time is the longest shard's (shards run side by side).
    package static func merge(_ urls: [URL]) throws(ReportsError) -> (TestReport, ReportData.RunFacts) {
        guard !urls.isEmpty else { throw .noInputs }
        let ordered = ReportMerger.orderedShardFiles(urls)
        // JUnit only: the XML merge, whose duplicate-scenario errors name the line.
        guard ordered.contains(where: isHTML) else {
            let merged = try ReportMerger.merge(reports: ordered, checkingShards: true)
            return (merged, .init())
        }
        var reports: [TestReport] = []
        var facts = ReportData.RunFacts()
        for url in ordered {
            if isHTML(url) {
                let (report, shardFacts) = try read(contentsOf: url)
                reports.append(report)
                facts.generator = shardFacts.generator
                if let w = shardFacts.wallSeconds { facts.wallSeconds = max(facts.wallSeconds ?? 0, w) }
            } else {
                reports.append(try JUnitXMLReader.read(contentsOf: url))
            }
        }
        let merged = try ReportMerger.merge(reports, sources: ordered.map(\.path))
        try ReportMerger.checkShardsComplete(reports, files: ordered)
        return (merged, facts)
    }

    /// True for `.html`/`.htm` paths.
    package static func isHTML(_ url: URL) -> Bool { ["html", "htm"].contains(url.pathExtension.lowercased()) }

    static func title(_ report: TestReport) -> String {
        let t = report.totals
        let bad = t.failures + t.errors
        return (bad > 0 ? "✗ \(bad) failed" : "✓ \(t.passed) passed") + " · pushcheck report"
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
