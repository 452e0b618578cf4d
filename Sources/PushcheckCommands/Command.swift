import Foundation

/// One `pushcheck` subcommand.
package protocol PushcheckCommand: Sendable {
    /// The word after `pushcheck`.
    static var name: String { get }
    /// One line for `pushcheck --help`.
    static var abstract: String { get }
    /// The synopsis line(s) after `usage: `.
    static var synopsis: String { get }
    /// Longer help shown by `pushcheck NAME --help`, after the options.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }
    /// Runs the command and returns the process exit code.
    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32
}

extension PushcheckCommand {
    static var discussion: String { "" }

    static var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(synopsis)\n"
        let all = options + [.flag("help", "Show this help.")]
        text += "\nOPTIONS:\n" + renderOptions(all) + "\n"
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        return text
    }
}

/// Where commands print: stdout for results, stderr for diagnostics. Thread-safe.
package struct Console: Sendable {
    package init() {}
    // `write(contentsOf:)` throws where `write(_:)` traps: a reader that went away (`| head -1`, EPIPE) must
    // not crash the command.
    package func out(_ line: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    }
    package func err(_ line: String) {
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }
}

/// Exit codes shared by every command.
package enum ExitCode {
    package static let success: Int32 = 0
    package static let failure: Int32 = 1
    static let usage: Int32 = 2
    package static let harness: Int32 = 3
    /// `pushcheck run` selected no scenario (pytest uses 5 too); `--allow-empty` makes it 0.
    static let noScenarios: Int32 = 5
}
