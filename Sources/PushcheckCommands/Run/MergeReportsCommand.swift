import Foundation
import Reports

/// `pushcheck merge-reports OUT FILES…`: combines shard reports into one with recomputed totals.
enum MergeReportsCommand: PushcheckCommand {
    static let name = "merge-reports"
    static let abstract = "Merge shard JUnit reports (Reports/junit-<i>-of-<N>.xml) into one report."
    static let synopsis = "pushcheck merge-reports OUT FILES…"
    static let options: [OptionSpec] = []
    static let discussion = """
        Suites with the same name are combined; totals are recomputed from the test cases. The same scenario
        in two files is an error (usually a shard passed twice). OUT itself is ignored if it is among FILES.
        Prints the merged summary line. Exit codes: 0 merged and all passed, 1 the merged report has
        failures or errors, 2 usage error or an unreadable/invalid input, 3 OUT could not be written.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.count >= 2 else {
            throw UsageError(
                arguments.positionals.isEmpty ? "missing OUT and report files" : "missing report files to merge")
        }
        let output = URL(fileURLWithPath: arguments.positionals[0])
        let inputs = arguments.positionals.dropFirst().map { URL(fileURLWithPath: $0) }
        let merged: TestReport
        do {
            try? FileManager.default.createDirectory(
                at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
            merged = try ReportMerger.mergeFiles(Array(inputs), into: output)
        } catch {
            console.err("pushcheck merge-reports: \(error.description)")
            if case .writeFailed = error { return ExitCode.harness }
            return ExitCode.usage
        }
        let totals = merged.totals
        console.out(
            "\(ConsoleFormatter.summaryLine(totals)) (\(totals.tests) scenarios in \(merged.suites.count) suites) → \(output.path)"
        )
        return totals.failures + totals.errors > 0 ? ExitCode.failure : ExitCode.success
    }
}
