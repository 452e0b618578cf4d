import Reports
import YAMLSource

/// Why a run could not start or finish properly; `exitCode` follows `pushcheck run`'s contract.
package enum RunError: Error, CustomStringConvertible {
    /// A path to run is missing or not a suite (exit 2).
    case discovery(DiscoveryError)
    /// Suite files with errors, every one of them (exit 2).
    case load([SourceError])
    /// Nothing to run in the given paths (exit 2).
    case noSuites(paths: [String])
    /// A report path would replace the other report or a suite file of the run (exit 2): `ReportTargets`.
    case reportPaths(String)
    /// The report could not be written (exit 3).
    case report(ReportsError)
    /// The fixture web server could not start (exit 3).
    case fixture(FixtureServerError)

    /// 2 for suite and usage problems, 3 for harness problems.
    package var exitCode: Int32 {
        switch self {
        case .discovery, .load, .noSuites, .reportPaths: 2
        case .report, .fixture: 3
        }
    }

    package var description: String { rendered(color: false) }

    /// The message; suite file errors Hurl-style (`--> file:line:col`, the line, a caret), coloured if asked.
    package func rendered(color: Bool) -> String {
        switch self {
        case let .discovery(error): return error.description
        case let .load(errors):
            return errors.map { $0.rendered(color: color) }.joined(separator: "\n")
                + "\n\(errors.count) suite file\(errors.count == 1 ? "" : "s") with errors; nothing was run."
        case let .noSuites(paths):
            return "no suite files in \(paths.joined(separator: ", ")). A suite is a .yaml/.yml/.json file with a "
                + "top-level 'scenarios:' list."
        case let .reportPaths(problem): return problem
        case let .report(error): return error.description
        case let .fixture(error): return error.description
        }
    }
}
