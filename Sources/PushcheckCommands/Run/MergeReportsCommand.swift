import Foundation
import Reports

/// `pushcheck merge-reports OUT FILES… [--html PATH]`: combines shard reports into one with recomputed totals.
enum MergeReportsCommand: PushcheckCommand {
    static let name = "merge-reports"
    static let abstract = "Merge shard reports (JUnit XML or HTML from run --html) into one report."
    static let synopsis = "pushcheck merge-reports OUT FILES… [--html PATH]"
    static let options: [OptionSpec] = [
        .value("html", "PATH", "Also write the merged report as a self-contained HTML file.")
    ]
    static let discussion = """
        FILES are JUnit XML shards (Reports/junit-<i>-of-<N>.xml) or HTML reports written by 'run --html' (their
        embedded data is read back, so the merged HTML keeps tags, failed checks and traces); they may be mixed.
        OUT is written as JUnit XML, or as HTML when it ends in .html. Suites with the same name are combined;
        totals are recomputed from the test cases. The same scenario in two files is an error (usually a shard
        passed twice), and so are reports that record shard i/N (or are named …-<i>-of-<N>.xml/.html) without
        every shard of 1…N (the missing shards are named). OUT itself is ignored if it is among FILES. Prints the merged summary line. Exit codes: 0
        merged and all passed, 1 the merged report has failures or errors, 2 usage error or an unreadable/invalid
        input, 3 OUT could not be written.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.count >= 2 else {
            throw UsageError(
                arguments.positionals.isEmpty ? "missing OUT and report files" : "missing report files to merge")
        }
        let output = URL(fileURLWithPath: arguments.positionals[0])
        let html = arguments.value("html").map { URL(fileURLWithPath: $0) }
        let outputs = [output] + (html.map { [$0] } ?? [])
        let inputs = arguments.positionals.dropFirst().map { URL(fileURLWithPath: $0) }.filter { input in
            !outputs.contains { $0.standardizedFileURL == input.standardizedFileURL }
        }
        // A missing file is named as such (not "cannot read the report: The operation could not be completed"); an
        // unmatched glob reaches us unexpanded, which is worth saying.
        for path in arguments.positionals.dropFirst() where !FileManager.default.fileExists(atPath: path) {
            let pattern = path.contains(where: { "*?[".contains($0) })
            console.err(
                "pushcheck merge-reports: no such file: \(path)"
                    + (pattern ? " (the shell did not expand this pattern: no file matches it)" : ""))
            return ExitCode.usage
        }
        let merged: TestReport
        let facts: ReportData.RunFacts
        do {
            (merged, facts) = try HTMLReport.merge(Array(inputs))
        } catch {
            console.err("pushcheck merge-reports: \(error.description)")
            return ExitCode.usage
        }
        do {
            for url in outputs {
                try? FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if HTMLReport.isHTML(url) {
                    try HTMLReport.write(merged, facts: facts, to: url)
                } else {
                    try JUnitXMLWriter.write(merged, to: url)
                }
            }
        } catch {
            console.err("pushcheck merge-reports: \(error.description)")
            return ExitCode.harness
        }
        let totals = merged.totals
        console.out(
            "\(ConsoleFormatter.summaryLine(totals)) (\(totals.tests) scenarios in \(merged.suites.count) suites) → "
                + outputs.map(\.path).joined(separator: ", "))
        return totals.failures + totals.errors > 0 ? ExitCode.failure : ExitCode.success
    }
}
