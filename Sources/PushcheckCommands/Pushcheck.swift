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

    /// ` (did you mean '…'?)` for a misspelt command or top-level option (`--verison`, `-V`, `-v`: `--version`), or "".
    static func commandHint(_ word: String) -> String {
        if word == "-v" || word == "-V" { return " (did you mean '--version'?)" }
        var names = ["--help", "--version"]
        if !word.hasPrefix("-") {
            names = ["help"]
            for command in commands { names.append(command.name) }
        }
        var best: String?
        var bestDistance = Int.max
        for name in names {
            let distance = editDistance(word, name)
            if distance < bestDistance { (best, bestDistance) = (name, distance) }
        }
        guard let best, bestDistance <= 2 else { return "" }
        return " (did you mean '\(best)'?)"
    }

    /// Runs `pushcheck` with `arguments` (without the program name) and returns the exit code.
    package static func main(_ arguments: [String], console: Console = Console()) async -> Int32 {
        guard let first = arguments.first else {
            console.err("pushcheck: error: missing command\n\n" + usage)
            return ExitCode.usage
        }
        switch first {
        case "--help", "-h", "help":
            // `pushcheck help run` is `pushcheck run --help`; `--man` prints the whole page (every command's section
            // is in it), before or after a command's name.
            let named = arguments.dropFirst().filter { $0 != "--man" }
            if named.count > 1 {
                console.err(
                    "pushcheck: error: help takes one command, got '\(named.joined(separator: " "))'\n\n" + usage)
                return ExitCode.usage
            }
            if let name = named.first, !commands.contains(where: { $0.name == name }) {
                console.err("pushcheck: error: unknown command '\(name)'\(commandHint(name))\n\n" + usage)
                return ExitCode.usage
            }
            if arguments.dropFirst().contains("--man") {
                let build = BuildInfo.current
                console.out(ManPage.render(.current, version: version, date: build.date))
                return ExitCode.success
            }
            if let name = named.first, let command = commands.first(where: { $0.name == name }) {
                console.out(command.help)
                return ExitCode.success
            }
            console.out(usage)
            return ExitCode.success
        case "--version":
            guard arguments.count == 1 else {
                console.err(
                    "pushcheck: error: '--version' takes no arguments, got '\(arguments.dropFirst().joined(separator: " "))'"
                        + "\n\n" + usage)
                return ExitCode.usage
            }
            console.out(BuildInfo.current.versionLine(version))
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let what = first.hasPrefix("-") ? "option" : "command"
            console.err("pushcheck: error: unknown \(what) '\(first)'\(commandHint(first))\n\n" + usage)
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
