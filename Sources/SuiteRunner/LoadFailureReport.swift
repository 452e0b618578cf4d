import Foundation
import Reports
import YAMLSource

/// The reports of a run whose suite files do not load (exit 2, nothing run): one `<testsuite>` per broken file, with
/// one `<testcase>` whose `<error type="suite-file">` is the file's `file:line:col` error. Written where the run's
/// reports go, so a CI job that uploads them shows the error instead of the previous run's green reports.
package enum LoadFailureReport {
    /// The `<error>`'s `type`.
    static let type = "suite-file"

    /// The `<testcase>` name of a broken file.
    static let caseName = "suite file"

    /// The report of `errors` (each file's first; loading stops at it). A sharded run reports a file only in the
    /// shard the split gives its `<file> › suite file` case, so that merging the shards' reports has it once.
    static func report(_ errors: [SourceError], configuration: RunConfiguration, at timestamp: Date) -> TestReport {
        let hostname = TestReport.currentHostname()
        var byFile: [String: [SourceError]] = [:]
        var files: [String] = []
        for error in errors {
            if byFile[error.file] == nil { files.append(error.file) }
            byFile[error.file, default: []].append(error)
        }
        // The broken files are dealt to the shards as scenarios are (by path relative to the suite root).
        let keys = files.map { (path: ShardSelector.relativePath($0, roots: configuration.suiteRoots), name: caseName) }
        let order = configuration.selection.shard.positions(of: keys).map { files[$0] }
        let suites = order.map { file in
            TestSuiteReport(
                name: file, file: file, timestamp: timestamp, hostname: hostname,
                cases: (byFile[file] ?? []).map { error in
                    TestCaseReport(
                        classname: file, name: caseName, file: file, line: error.line > 0 ? error.line : nil,
                        time: 0,
                        outcome: .error(
                            ProblemReport(
                                message: error.description, type: type,
                                detail: error.rendered(color: false) + "\nThe file did not load: nothing was run.")))
                })
        }
        return TestReport(
            name: "pushcheck", timestamp: timestamp, hostname: hostname, properties: configuration.runProperties,
            suites: suites)
    }

    /// Writes the JUnit report (and the HTML one, when the run writes one) of `errors`, making missing directories.
    /// The paths were checked against each other and the suites before loading (`ReportTargets`).
    package static func write(
        _ errors: [SourceError], configuration: RunConfiguration, at timestamp: Date = Date()
    ) throws(ReportsError) {
        let report = report(errors, configuration: configuration, at: timestamp)
        let junit = URL(fileURLWithPath: configuration.junitPath)
        try? FileManager.default.createDirectory(
            at: junit.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JUnitXMLWriter.write(report, to: junit)
        if let path = configuration.htmlPath {
            let html = URL(fileURLWithPath: path)
            try? FileManager.default.createDirectory(
                at: html.deletingLastPathComponent(), withIntermediateDirectories: true)
            try HTMLReport.write(
                report, facts: ReportData.RunFacts(generator: SuiteRun.htmlGenerator(configuration)), to: html)
        }
    }
}
