import SuiteFormat

/// `pushcheck schema`: prints the JSON Schema of suite files, the world files they include and `serve` configs
/// (`SuiteSchema`), what Suites/suite.schema.json holds.
enum SchemaCommand: PushcheckCommand {
    static let name = "schema"
    static let abstract = "Print the JSON Schema (draft 2020-12) of suite files and serve configs, for editors."
    static let synopsis = "pushcheck schema > Suites/suite.schema.json"
    static let options: [OptionSpec] = []
    static let discussion = """
        Generated from the tables the suite loader checks files against (steps, checks, matchers, capture
        sources, variables, world, apps, devices, gateways), each key with its one-line description. A suite
        names it in its first line for editors that use yaml-language-server (VS Code's YAML extension, …):
          # yaml-language-server: $schema=suite.schema.json
        The same schema checks the world files suites include (apps:, devices:, gateway:) and `pushcheck serve`
        configs (a file with listen:, tls:, apns: or fcm: at its top); name it the same way in serve.yaml.
        The schema is never stricter than the loader; the loader's file:line:col errors remain the authority
        (device and app names, ${…} references and files are only checked there; `serve --check` reads a config).
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError("schema takes no arguments") }
        console.out(String(SuiteSchema.text().dropLast()))
        return ExitCode.success
    }
}
