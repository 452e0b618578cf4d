import PushModel

/// What the value of an option or a positional argument is, so a shell can complete it.
enum ValueKind: Equatable, Sendable {
    /// Free text (a number, an id, a URL): nothing to offer.
    case none
    case file
    case directory
    /// A suite file or a directory of suites.
    case fileOrDirectory
    /// Comma-separated tags, read from the suites on the command line (or `Suites/`) at completion time.
    case tags
    case choices([String])
    /// A pushcheck command name (`pushcheck help <command>`).
    case command
}

/// The command line as the man page and the completion scripts see it: built from the same `commands` and
/// `options` tables `--help` prints, so neither can leave out an option.
struct CommandLineModel: Sendable {
    struct Option: Sendable {
        let spec: OptionSpec
        let value: ValueKind
        var long: String { "--" + spec.name }
        var short: String? { spec.short.map { "-\($0)" } }
        var takesValue: Bool { spec.kind != .flag }
        var repeatable: Bool { spec.kind == .repeatedValue }
    }

    struct Command: Sendable {
        let name: String
        let abstract: String
        let synopsis: String
        let discussion: String
        /// The command's options, then `--help`.
        let options: [Option]
        let positional: ValueKind
    }

    let commands: [Command]
    /// `pushcheck --help`, `pushcheck --version`.
    let globalOptions: [Option]

    static let shells = ["bash", "zsh", "fish"]

    /// The model of `Pushcheck.commands`.
    static var current: CommandLineModel { CommandLineModel(Pushcheck.commands) }

    init(_ types: [any PushcheckCommand.Type]) {
        commands = types.map { type in
            let specs = type.options + [.flag("help", "Show this help.").short("h")]
            return Command(
                name: type.name, abstract: type.abstract, synopsis: type.synopsis, discussion: type.discussion,
                options: specs.map { Option(spec: $0, value: Self.valueKind(command: type.name, option: $0)) },
                positional: Self.positionals[type.name] ?? .none)
        }
        globalOptions = Pushcheck.globalOptions.map { Option(spec: $0, value: .none) }
    }

    /// Options whose value kind their value name does not tell (`command --option`). `ManPageAndCompletionTests`
    /// fails when a key names an option that no longer exists.
    static let valueOverrides: [String: ValueKind] = [
        "run --tags": .tags,
        "run --exclude-tags": .tags,
        "run --color": .choices(ColorChoice.allCases.map(\.rawValue)),
        "doctor --environment": .choices(APNsEnvironment.allCases.map(\.rawValue)),
        "doctor --app": .directory,
        "send --push-type": .choices(APNsPushType.allCases.map(\.rawValue)),
        "check-payload --push-type": .choices(APNsPushType.allCases.map(\.rawValue)),
    ]

    /// What each command's positional arguments are (absent: it takes none).
    static let positionals: [String: ValueKind] = [
        "run": .fileOrDirectory,
        "merge-reports": .file,
        "send": .file,
        "check-payload": .file,
        "record-suite": .fileOrDirectory,
        "completions": .choices(shells),
    ]

    /// An override, else from the value name: `FILE`/`PATH` a file, `DIR` a directory, anything else free text.
    static func valueKind(command: String, option: OptionSpec) -> ValueKind {
        if option.kind == .flag { return .none }
        if let kind = valueOverrides["\(command) --\(option.name)"] { return kind }
        switch option.valueName {
        case "FILE", "PATH": return .file
        case "DIR": return .directory
        default: return .none
        }
    }
}
