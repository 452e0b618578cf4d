import Foundation

/// The `pushcheck` entry point: dispatches to a subcommand and turns errors into exit codes.
package enum Pushcheck {
    package static let version = "0.1.0"

    static let commands: [any PushcheckCommand.Type] = [
        ServeCommand.self,
        RunCommand.self,
        MergeReportsCommand.self,
        SendCommand.self,
        JWTCommand.self,
        DoctorCommand.self,
        CheckPayloadCommand.self,
        RecordSuiteCommand.self,
        SchemaCommand.self,
        CompletionsCommand.self,
    ]

    /// The options of `pushcheck` itself (the man page and the completions read them too).
    static let globalOptions: [OptionSpec] = [
        .flag(
            "help", "Show this help ('pushcheck help <command>' for a command's; 'pushcheck help --man' the man page)."
        )
        .short("h"),
        .flag("version", "Print the version and the git commit it was built from."),
    ]

    static var usage: String {
        var text = """
            OVERVIEW: pushcheck \(version) — end-to-end push-notification testing: mock APNs and FCM over real HTTP/2 + TLS.

            USAGE: pushcheck <command> [options]
                   pushcheck <command> --help

            COMMANDS:

            """
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.abstract + "\n"
        }
        return text + "\nOPTIONS:\n" + renderOptions(globalOptions) + "\n"
    }

    /// Runs `pushcheck` with `arguments` (without the program name) and returns the exit code.
    package static func main(_ arguments: [String], console: Console = Console()) async -> Int32 {
        guard let first = arguments.first else {
            console.err("pushcheck: error: missing command\n\n" + usage)
            return ExitCode.usage
        }
        switch first {
        case "--help", "-h", "help":
            // `pushcheck help run` is `pushcheck run --help`.
            if arguments.count == 2, arguments[1] == "--man" {
                let build = BuildInfo.current
                console.out(ManPage.render(.current, version: version, date: build.date))
                return ExitCode.success
            }
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.out(command.help)
                return ExitCode.success
            }
            if arguments.count > 1 {
                console.err("pushcheck: error: unknown command '\(arguments[1])'\n\n" + usage)
                return ExitCode.usage
            }
            console.out(usage)
            return ExitCode.success
        case "--version":
            console.out(BuildInfo.current.versionLine(version))
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let guess = commands.map { ($0.name, editDistance(first, $0.name)) }.min { $0.1 < $1.1 }
            let hint = guess.map { $0.1 <= 2 ? " (did you mean '\($0.0)'?)" : "" } ?? ""
            console.err("pushcheck: error: unknown command '\(first)'\(hint)\n\n" + usage)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return ExitCode.success
        }
        do {
            let parsed = try ParsedArguments.parse(rest, options: command.options)
            return try await command.run(parsed, console: console)
        } catch let error as UsageError {
            console.err(
                "pushcheck \(command.name): error: \(error.message)\n\nUSAGE: \(command.synopsis)\n"
                    + "See 'pushcheck \(command.name) --help'.")
            return ExitCode.usage
        } catch {
            console.err("pushcheck \(command.name): error: \(error)")
            return ExitCode.harness
        }
    }
}
