import Foundation
import PushcheckTestSupport
@testable import PushCrypto
import Testing

@testable import PushcheckCommands

/// Conventions shared with Hurl, pytest and Playwright: short flags, `help <command>`, exit 5 when nothing
/// is selected, `--color`, did-you-mean for `--help`.
@Suite struct CLIConventionTests {
    static let suites: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/Suites"
    }()

    @Test func shortFlagsAreTheLongOnes() throws {
        let parsed = try ParsedArguments.parse(["-j", "4", "-kseed", "x"], options: RunCommand.options)
        #expect(parsed.value("jobs") == "4")
        #expect(parsed.value("filter") == "seed")
        #expect(parsed.positionals == ["x"])
        #expect(throws: UsageError.self) { try ParsedArguments.parse(["-z"], options: RunCommand.options) }
        #expect(renderOptions(RunCommand.options).contains("-j, --jobs N"))
    }

    @Test func misspeltHelpSuggestsHelp() {
        #expect(throws: UsageError("unknown option '--hlep' (did you mean '--help'?)")) {
            try ParsedArguments.parse(["--hlep"], options: RunCommand.options)
        }
    }

    /// `--verison`, `-V`, `-v` were "unknown command" with no suggestion; `--version extra` ignored `extra`;
    /// `help --man run` was "unknown command '--man'".
    @Test(arguments: [
        (["--verison"], 2, "unknown option '--verison' (did you mean '--version'?)"),
        (["-V"], 2, "unknown option '-V' (did you mean '--version'?)"),
        (["-v"], 2, "unknown option '-v' (did you mean '--version'?)"),
        (["--version", "extra"], 2, "'--version' takes no arguments, got 'extra'"),
        (["help", "runn"], 2, "unknown command 'runn' (did you mean 'run'?)"),
        (["help", "run", "serve"], 2, "help takes one command, got 'run serve'"),
        (["help", "--man", "run"], 0, ""), (["help", "run", "--man"], 0, ""),
    ])
    func topLevelMistakesSayWhatToType(arguments: [String], status: Int32, message: String) throws {
        let out = try runTool(pushcheckExecutable(), arguments)
        #expect(out.status == status, "\(out)")
        if status == 0 {
            #expect(out.stdout.hasPrefix(".TH PUSHCHECK 1 "), "\(out)")
        } else {
            #expect(out.stderr.hasPrefix("pushcheck: error: " + message + "\n"), "\(out)")
        }
    }

    @Test func helpCommandAndEmptySelectionAndColor() throws {
        let help = try runTool(pushcheckExecutable(), ["help", "run"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: Run scenario suites"), "\(help)")
        let dir = try TempDirectory("cli")
        defer { dir.remove() }
        let junit = dir.file("junit.xml")
        let none = try runTool(pushcheckExecutable(), ["run", Self.suites, "-k", "no-such-scenario", "--junit", junit])
        #expect(none.status == 5, "\(none)")
        #expect(FileManager.default.fileExists(atPath: junit), "an empty report is still written")
        let allowed = try runTool(
            pushcheckExecutable(), ["run", Self.suites, "-k", "no-such-scenario", "--allow-empty", "--junit", junit])
        #expect(allowed.status == 0, "\(allowed)")
        let smoke = ["run", Self.suites + "/smoke.json", "--junit", junit]
        let always = try runTool(pushcheckExecutable(), smoke + ["--color", "always"])
        #expect(always.status == 0 && always.stdout.contains("\u{1B}[32m"), "\(always)")
        let never = try runTool(pushcheckExecutable(), smoke + ["--color", "always", "--color=never"])
        #expect(never.status == 2, "--color given twice is a usage error: \(never)")
        let plain = try runTool(
            pushcheckExecutable(), smoke,
            environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(plain.status == 0 && !plain.stdout.contains("\u{1B}["), "\(plain)")
        let bad = try runTool(pushcheckExecutable(), smoke + ["--color", "sometimes"])
        #expect(bad.status == 2 && bad.stderr.contains("expects auto, always or never"), "\(bad)")
    }

    /// `jwt --team-id SHORT` signed without a word though Apple's Team ID is 10 characters: it still signs (a test
    /// may want a bad token) and warns on stderr; a 10-character pair is signed silently. Its help has exit codes.
    @Test func jwtWarnsAboutIDsThatAreNotTenCharacters() throws {
        let dir = try TempDirectory("jwt")
        defer { dir.remove() }
        let keyPath = try dir.write("AuthKey.p8", try P256PrivateKey.generate().pkcs8PEM)
        let short = try runTool(
            pushcheckExecutable(), ["jwt", "--team-id", "SHORT", "--key-id", "KEY1234567", "--key", keyPath])
        #expect(short.status == 0 && short.stdout.split(separator: ".").count == 3, "\(short)")
        #expect(
            short.stderr
                == "pushcheck jwt: warning: --team-id 'SHORT' is 5 characters; an Apple Team ID (iss) is 10 (signed anyway)\n",
            "\(short)")
        let good = try runTool(
            pushcheckExecutable(), ["jwt", "--team-id", "ABCDE12345", "--key-id", "KEY1234567", "--key", keyPath])
        #expect(good.status == 0 && good.stderr.isEmpty, "\(good)")
        #expect(JWTCommand.help.contains("Exit codes: 0 signed"))
    }

    @Test func jwtVerifyWarnsAboutAnIatAppleAccepts() throws {
        let dir = try TempDirectory("jwt")
        defer { dir.remove() }
        let key = try P256PrivateKey.generate()
        let keyPath = try dir.write("AuthKey.p8", key.pkcs8PEM)
        let now = Int(Date().timeIntervalSince1970)
        let forms: [(Any, String)] = [
            (Double(now) + 0.25, "iat is a fractional number"), ("\(now)", "iat is a JSON string"),
        ]
        for (iat, warning) in forms {
            let token = try JWT.signES256(
                header: ["alg": "ES256", "kid": "KEY1234567"], claims: ["iss": "ABCDE12345", "iat": iat], key: key)
            let out = try runTool(
                pushcheckExecutable(), ["jwt", "--verify", token, "--key", keyPath, "--team-id", "ABCDE12345"])
            #expect(out.status == 0, "a warning, not a failure: \(out)")
            #expect(out.stdout.contains("WARN  \(warning)"), "\(out)")
        }
        // 30 s inside the minute, so the seconds the tool takes to start cannot move it to "8 h 11 min".
        let future = try JWT.apnsProviderToken(
            teamID: "ABCDE12345", keyID: "KEY1234567", issuedAt: now + 8 * 3600 + 720 + 30, key: key)
        let out = try runTool(pushcheckExecutable(), ["jwt", "--verify", future, "--key", keyPath])
        #expect(out.status == 1 && out.stdout.contains("(8 h 12 min ahead)"), "\(out)")
    }
}

/// README's "Commands" block is what `pushcheck --help` prints from its COMMANDS: line on, so the two cannot drift.
@Suite struct ReadmeCommandsTests {
    @Test func readmeCommandsBlockIsTheHelp() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.range(of: "\n## Commands\n"), "README has no Commands section")
        let open = try #require(text.range(of: "```\n", range: section.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "\n```\n", range: open.upperBound..<text.endIndex))
        let block = String(text[open.upperBound..<close.lowerBound])
        let help = Pushcheck.usage
        let commands = try #require(help.range(of: "COMMANDS:\n"))
        let expected = String(help[commands.lowerBound...]).trimmingCharacters(in: .newlines)
        #expect(block == expected, "README's Commands block:\n\(block)\n\npushcheck --help:\n\(expected)")
    }
}
