import Foundation
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// pushcheck(1) and the bash/zsh/fish scripts are generated from the command tables `--help` prints: these
/// tests walk the same tables and fail when any output leaves out a command or an option, and drive the bash
/// script in a real bash (dist-check drives the installed ones in bash, zsh and fish).
@Suite struct ManPageAndCompletionTests {
    static let suites = CLIConventionTests.suites

    static let model = CommandLineModel.current

    /// The text of one command's part of a script: from `start` to the next `end`.
    static func block(_ script: String, from start: String, to end: String) -> String? {
        guard let head = script.range(of: start) else { return nil }
        let rest = script[head.upperBound...]
        return String(rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)])
    }

    @Test func everyCommandAndOptionIsInTheManPageAndEveryScript() throws {
        let man = ManPage.render(Self.model, version: Pushcheck.version, date: "2026-01-01")
        let bash = BashCompletion.script(Self.model)
        let zsh = ZshCompletion.script(Self.model)
        let fish = FishCompletion.script(Self.model)
        // Straight from the tables, not from the model, so an option the model dropped is still expected.
        for type in Pushcheck.commands {
            let options = type.options + [.flag("help", "").short("h")]
            let manSection = try #require(
                Self.block(man, from: ".SH \"PUSHCHECK \(ManPage.text(type.name.uppercased()))\"", to: ".SH "),
                "man page has no section for \(type.name)")
            let bashCase = try #require(Self.block(bash, from: "\n        \(type.name))\n", to: "\n            ;;\n"))
            let zshCase = try #require(Self.block(zsh, from: "\n        \(type.name))\n", to: ";;"))
            let fishLines = fish.split(separator: "\n").filter { $0.contains("'__pushcheck_command \(type.name)'") }
            // The words bash offers after `-`: the `compgen -W` list under `if [[ $cur == -* ]]`.
            let bashWords =
                try #require(Self.block(bashCase, from: "if [[ $cur == -* ]]; then\n", to: "\n"))
                .components(separatedBy: "compgen -W '").last?.components(separatedBy: "'").first?
                .split(separator: " ").map(String.init) ?? []
            #expect(bash.contains("'\(Self.model.commands.map(\.name).joined(separator: " ")) help"))
            #expect(zsh.contains("'\(type.name):"), "zsh lists \(type.name)")
            #expect(fish.contains("-a \(type.name) -d"), "fish lists \(type.name)")
            for option in options {
                let long = "--" + option.name
                #expect(manSection.contains("\\fB\(ManPage.text(long))\\fR"), "man: \(type.name) \(long)")
                #expect(bashWords.contains(long), "bash: \(type.name) \(long)")
                #expect(zshCase.contains(long), "zsh: \(type.name) \(long)")
                #expect(fishLines.contains { $0.contains(" -l \(option.name) ") }, "fish: \(type.name) \(long)")
                if let short = option.short {
                    #expect(manSection.contains("\\fB\\-\(short)\\fR"), "man: \(type.name) -\(short)")
                    #expect(bashWords.contains("-\(short)"), "bash: \(type.name) -\(short)")
                    #expect(zshCase.contains("{-\(short)"), "zsh: \(type.name) -\(short)")
                    #expect(fishLines.contains { $0.contains(" -s \(short) -l \(option.name) ") })
                }
            }
        }
        for option in Pushcheck.globalOptions {
            #expect(man.contains("\\fB\(ManPage.text("--" + option.name))\\fR"))
            #expect(bash.contains(" --\(option.name)"))
            #expect(zsh.contains("'(- *)--\(option.name)[") || zsh.contains(",--\(option.name)}'["))
            #expect(
                fish.contains("-n __fish_use_subcommand -l \(option.name)") || fish.contains("-l \(option.name) -d"))
        }
    }

    @Test func valueHintsNameOptionsThatExist() {
        let byName = Dictionary(uniqueKeysWithValues: Pushcheck.commands.map { ($0.name, $0.options) })
        for key in CommandLineModel.valueOverrides.keys {
            let parts = key.split(separator: " ")
            let option = byName[String(parts[0])]?.first { "--" + $0.name == parts.last.map(String.init) }
            #expect(option != nil && option?.kind != .flag, "valueOverrides['\(key)'] names no option with a value")
        }
        for name in CommandLineModel.positionals.keys {
            #expect(byName[name] != nil, "positionals['\(name)'] names no command")
        }
    }

    /// Runs the bash script's function as bash's programmable completion would, in `directory`.
    func completeInBash(_ words: [String]) throws -> [String] {
        let dir = try TempDirectory("bash-completion")
        defer { dir.remove() }
        let script = try dir.write("pushcheck.bash", BashCompletion.script(Self.model))
        let program = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _pushcheck
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let out = try runTool("bash", ["-c", program, "bash", script, pushcheckExecutable()] + words).requireSuccess()
        return out.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsValuesAndTags() throws {
        #expect(try completeInBash(["ru"]) == ["run"])
        #expect(try completeInBash(["--vers"]) == ["--version"])
        #expect(try completeInBash(["run", "--ta"]) == ["--tags"])
        #expect(try completeInBash(["run", "--color", ""]) == ["auto", "always", "never"])
        #expect(try completeInBash(["send", "--push-type", "vo"]) == ["voip"])
        #expect(try completeInBash(["help", "re"]) == ["record-suite"])
        #expect(try completeInBash(["completions", "z"]) == ["zsh"])
        // Tags from the suite path on the line, one comma-separated tag at a time; option values are not paths.
        let tags = try completeInBash(["run", "-j", "2", Self.suites, "--tags", "apns,sm"])
        #expect(tags == ["apns,smoke"], "\(tags)")
        #expect(try completeInBash(["run", Self.suites, "--exclude-tags", "=", "seed-00"]).count > 2)
        // --junit=<Tab> (bash splits at '=') and a positional complete paths.
        let dir = try TempDirectory("bash-paths")
        defer { dir.remove() }
        try dir.write("report-1.xml", "")
        #expect(try completeInBash(["run", "--junit", "=", dir.file("rep")]) == [dir.file("report-1.xml")])
        #expect(try completeInBash(["run", dir.file("rep")]) == [dir.file("report-1.xml")])
    }

    @Test func listTagsReadsTheSuitesAndStaysQuiet() throws {
        let out = try runTool(pushcheckExecutable(), ["completions", "--list-tags", Self.suites]).requireSuccess()
        let tags = out.stdout.split(separator: "\n").map(String.init)
        #expect(tags.contains("smoke") && tags.contains("apns") && tags == tags.sorted(), "\(tags)")
        let none = try runTool(pushcheckExecutable(), ["completions", "--list-tags", "/no/such/dir"])
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty, "\(none)")
        let bad = try runTool(pushcheckExecutable(), ["completions", "tcsh"])
        #expect(bad.status == 2 && bad.stderr.contains("unknown shell 'tcsh'"), "\(bad)")
    }

    @Test func scriptsAreValidForTheirShells() throws {
        let dir = try TempDirectory("completion-syntax")
        defer { dir.remove() }
        let bash = try dir.write("pushcheck.bash", BashCompletion.script(Self.model))
        try runTool("bash", ["-n", bash]).requireSuccess()
        // `complete -p` after sourcing: the function is registered for the command name.
        let registered = try runTool("bash", ["-c", "source \"$1\"; complete -p pushcheck", "bash", bash])
        #expect(registered.stdout.contains("-F _pushcheck pushcheck"), "\(registered)")
    }

    /// groff (what man runs) renders the page with no warning, and options read as typed (ASCII hyphens).
    @Test func manPageRendersWithoutWarnings() throws {
        let dir = try TempDirectory("man")
        defer { dir.remove() }
        let out = try runTool(pushcheckExecutable(), ["help", "--man"]).requireSuccess()
        let page = try dir.write("pushcheck.1", out.stdout)
        #expect(out.stdout.hasPrefix(".TH PUSHCHECK 1 "))
        let check = try runTool("groff", ["-k", "-man", "-Tutf8", "-ww", "-z", page])
        #expect(check.succeeded && check.stderr.isEmpty, "\(check)")
        let text = try runTool("groff", ["-k", "-man", "-Tascii", "-P-cbou", page]).requireSuccess().stdout
        for needle in ["--update-snapshots", "-j, --jobs N", "pushcheck completions bash|zsh|fish", "EXIT STATUS"] {
            #expect(text.contains(needle), "rendered page lacks \(needle)")
        }
    }

    /// The page named only curl(1) and openssl(1), and its EXIT STATUS stopped at 5: it names the suite format and
    /// the example suite the .deb installs (Tests/dist/make-deb.sh), `pushcheck schema`, and 130/143.
    @Test func manPageNamesTheSuiteFormatAndEveryExitStatus() throws {
        let page = try runTool(pushcheckExecutable(), ["help", "--man"]).requireSuccess().stdout
        for needle in [
            "/usr/share/doc/pushcheck/suite-format.md.gz", "/usr/share/doc/pushcheck/examples/example-suite.yaml",
            "\\fBpushcheck schema\\fR", ".B 130", ".B 143",
        ] {
            #expect(page.contains(needle), "the man page lacks \(needle)")
        }
        let script = try String(contentsOfFile: SuiteFiles.root + "/Tests/dist/make-deb.sh", encoding: .utf8)
        #expect(script.contains("$root/usr/share/doc/pushcheck/suite-format.md.gz"))
        #expect(script.contains("$root/usr/share/doc/pushcheck/examples/example-suite.yaml"))
    }

    /// The example suite the .deb ships passes, and validates against the schema shipped beside it.
    @Test func theShippedExampleSuitePasses() throws {
        let dir = try TempDirectory("example")
        defer { dir.remove() }
        let example = try String(contentsOfFile: SuiteFiles.root + "/Tests/dist/example-suite.yaml", encoding: .utf8)
        let path = try dir.write("example-suite.yaml", example)
        let out = try runTool(pushcheckExecutable(), ["run", path, "--junit", dir.file("junit.xml")])
        #expect(out.status == 0 && out.stdout.contains("2 passed, 0 failed, 0 skipped"), "\(out)")
    }
}
