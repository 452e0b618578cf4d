import Foundation

/// One `pushcheck` subcommand.
public protocol PushcheckCommand: Sendable {
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
    public static var discussion: String { "" }

    static var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(synopsis)\n"
        let all = options + [.flag("help", "Show this help.")]
        text += "\nOPTIONS:\n" + renderOptions(all) + "\n"
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        return text
    }
}

/// Where commands print: stdout for results, stderr for diagnostics. Thread-safe.
public struct Console: Sendable {
    public init() {}
    public func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    public func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Exit codes shared by every command.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    public static let harness: Int32 = 3
}
