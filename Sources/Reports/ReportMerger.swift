import Foundation

/// Combines shard reports (`junit-<i>-of-<N>.xml`) into one report.
///
/// Suites with the same name are combined into one suite (cases appended in input order, properties
/// unioned without exact duplicates, earliest timestamp, first hostname and file, transcripts joined).
/// Totals are never copied from the inputs; they are recomputed from the cases when written.
/// The same scenario (classname + name) in two inputs is an error: it almost always means a shard
/// file was passed twice.
package enum ReportMerger {
    /// Reads every file (in the given order; see `orderedShardFiles(_:)`) and merges them.
    package static func merge(reports urls: [URL]) throws(ReportsError) -> TestReport {
        try merge(reports: urls, checkingShards: false)
    }

    /// Reads and merges the files, first checking (`checkShardsComplete`) that no shard is missing among them.
    package static func merge(reports urls: [URL], checkingShards: Bool) throws(ReportsError) -> TestReport {
        guard !urls.isEmpty else { throw .noInputs }
        var located: [JUnitXMLReader.Located] = []
        for url in urls {
            located.append(try JUnitXMLReader.readLocated(contentsOf: url))
        }
        let merged = try merge(located)
        // Each input's own properties: the merge leaves out an empty shard's suite, which carries its `shard`.
        if checkingShards { try checkShardsComplete(located.map(\.report), files: urls) }
        return merged
    }

    /// `merge-reports` in one call: orders the shard files, merges them, writes the result atomically
    /// to `output`, and returns the merged report (its `totals` give the exit code).
    @discardableResult
    static func mergeFiles(_ urls: [URL], into output: URL) throws(ReportsError) -> TestReport {
        let inputs = orderedShardFiles(urls.filter { $0.standardizedFileURL != output.standardizedFileURL })
        let merged = try merge(reports: inputs, checkingShards: true)
        try JUnitXMLWriter.write(merged, to: output)
        return merged
    }

    /// Merges already-parsed reports; `sources` names each one for duplicate messages.
    package static func merge(_ reports: [TestReport], sources: [String]) throws(ReportsError) -> TestReport {
        guard !reports.isEmpty else { throw .noInputs }
        let located = reports.enumerated().map { index, report in
            JUnitXMLReader.Located(
                report: report, caseLines: report.suites.map { Array(repeating: 0, count: $0.cases.count) },
                path: index < sources.count ? sources[index] : "report \(index + 1)")
        }
        return try merge(located)
    }

    /// Throws `.missingShards` when the reports are shards (their `shard` property — an empty shard's report carries
    /// it in a suite without cases —, or a `-<i>-of-<N>` file name) but not every shard `1...N` is among them.
    /// Reports of an unsharded run (`shard 1/1`) are always complete.
    package static func checkShardsComplete(_ reports: [TestReport], files: [URL]) throws(ReportsError) {
        var seen: [Int: Set<Int>] = [:]
        for report in reports {
            for property in report.properties + report.suites.flatMap(\.properties) where property.name == "shard" {
                if let shard = try? ShardSelector.parse(property.value) {
                    seen[shard.count, default: []].insert(shard.index)
                }
            }
        }
        for url in files {
            if let shard = ShardSelector.shard(fromFileName: url.lastPathComponent), shard.count >= 1,
                (1...shard.count).contains(shard.index)
            {
                seen[shard.count, default: []].insert(shard.index)
            }
        }
        var missing: [Int: [Int]] = [:]
        for (count, indices) in seen where count > 1 {
            let absent = (1...count).filter { !indices.contains($0) }
            if !absent.isEmpty { missing[count] = absent }
        }
        if !missing.isEmpty { throw .missingShards(missing: missing) }
    }

    /// Sorts shard files by shard index (`junit-2-of-10.xml` before `junit-10-of-10.xml`);
    /// names that are not shard files keep their relative order, after the shard files.
    static func orderedShardFiles(_ urls: [URL]) -> [URL] {
        let keyed = urls.enumerated().map { offset, url in
            (key: ShardSelector.shardIndex(fromFileName: url.lastPathComponent) ?? Int.max, offset: offset, url: url)
        }
        return keyed.sorted { ($0.key, $0.offset) < ($1.key, $1.offset) }.map(\.url)
    }

    private static func merge(_ inputs: [JUnitXMLReader.Located]) throws(ReportsError) -> TestReport {
        var merged = inputs[0].report
        merged.suites = []
        merged.properties = []
        var suiteIndex: [String: Int] = [:]
        var firstSeen: [String: String] = [:]  // "classname\u{0}name" → path

        for input in inputs {
            merged.timestamp = min(merged.timestamp, input.report.timestamp)
            merged.properties = union(merged.properties, input.report.properties)
            // An empty shard's report: its one suite only carries the run's properties (`JUnitXMLWriter`). Left out.
            if isEmptyShard(input.report) { continue }
            for (position, suite) in input.report.suites.enumerated() {
                for (caseNumber, testCase) in suite.cases.enumerated() {
                    let key = testCase.classname + "\u{0}" + testCase.name
                    if let first = firstSeen[key] {
                        throw .duplicateCase(
                            classname: testCase.classname, name: testCase.name, path: input.path,
                            line: input.caseLines[position][caseNumber], firstPath: first)
                    }
                    firstSeen[key] = input.path
                }
                if let index = suiteIndex[suite.name] {
                    combine(&merged.suites[index], with: suite)
                } else {
                    suiteIndex[suite.name] = merged.suites.count
                    merged.suites.append(suite)
                }
            }
        }
        return merged
    }

    /// The report of a run that had no scenario (`JUnitXMLWriter`): one suite `pushcheck` without cases or file.
    static func isEmptyShard(_ report: TestReport) -> Bool {
        guard report.suites.count == 1, let suite = report.suites.first else { return false }
        return suite.cases.isEmpty && suite.file == nil && suite.name == "pushcheck"
    }

    private static func combine(_ target: inout TestSuiteReport, with other: TestSuiteReport) {
        target.cases += other.cases
        target.timestamp = min(target.timestamp, other.timestamp)
        target.properties = union(target.properties, other.properties)
        if target.file == nil { target.file = other.file }
        target.systemOut = joined(target.systemOut, other.systemOut)
        target.systemErr = joined(target.systemErr, other.systemErr)
    }

    private static func union(_ first: [ReportProperty], _ second: [ReportProperty]) -> [ReportProperty] {
        var seen = Set(first)
        return first + second.filter { seen.insert($0).inserted }
    }

    private static func joined(_ first: String, _ second: String) -> String {
        if first.isEmpty { return second }
        if second.isEmpty { return first }
        return first.hasSuffix("\n") ? first + second : first + "\n" + second
    }
}
