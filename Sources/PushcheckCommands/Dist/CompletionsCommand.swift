import Foundation
import SuiteFormat
import SuiteRunner

/// `pushcheck completions`: prints a shell completion script generated from the command tables, and lists the
/// suites' tags for those scripts to complete `--tags` with.
enum CompletionsCommand: PushcheckCommand {
    static let name = "completions"
    static let abstract = "Print a bash, zsh or fish completion script (the .deb installs all three)."
    static let synopsis = "pushcheck completions bash|zsh|fish\n       pushcheck completions --list-tags [PATHS…]"
    static let options: [OptionSpec] = [
        .flag(
            "list-tags",
            "Print the tags of the scenarios under PATHS (default Suites), one per line; the scripts complete --tags with it."
        )
    ]
    static let discussion = """
        The scripts complete commands, options, their fixed values (--color, --push-type, --environment), file and
        directory paths, and --tags/--exclude-tags from the suites named on the command line (else ./Suites),
        one comma-separated tag at a time. Without the .deb:
          pushcheck completions bash > ~/.local/share/bash-completion/completions/pushcheck
          pushcheck completions zsh > ~/.zfunc/_pushcheck     # with fpath+=(~/.zfunc) before compinit
          pushcheck completions fish > ~/.config/fish/completions/pushcheck.fish
        --list-tags skips suites that do not load and prints no error: it runs on every Tab.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if arguments.has("list-tags") {
            for tag in tags(in: arguments.positionals) { console.out(tag) }
            return ExitCode.success
        }
        guard arguments.positionals.count == 1, let shell = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing shell (bash, zsh or fish)" : "too many arguments")
        }
        let model = CommandLineModel.current
        switch shell {
        case "bash": console.out(BashCompletion.script(model))
        case "zsh": console.out(ZshCompletion.script(model))
        case "fish": console.out(FishCompletion.script(model))
        default: throw UsageError("unknown shell '\(shell)' (bash, zsh or fish)")
        }
        return ExitCode.success
    }

    /// The distinct tags of every scenario in the suites found under `paths` (default `Suites`), sorted.
    static func tags(in paths: [String]) -> [String] {
        let roots = paths.isEmpty ? ["Suites"] : paths
        let existing = roots.filter { FileManager.default.fileExists(atPath: $0) }
        guard !existing.isEmpty,
            let files = try? SuiteDiscovery.find(paths: existing, isSuiteFile: { SuiteLoader.isSuiteFile(path: $0) })
        else { return [] }
        let (loaded, _) = LoadedSuites.load(files: files)
        return Set(loaded.items.flatMap(\.tags)).sorted()
    }
}
