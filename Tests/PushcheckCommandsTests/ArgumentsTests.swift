import Testing
@testable import PushcheckCommands

@Suite struct ArgumentsTests {
    let options: [OptionSpec] = [
        .flag("h2c", "cleartext"),
        .value("config", "FILE", "config"),
        .repeated("header", "H", "header"),
        .value("port", "N", "port"),
    ]

    @Test func parsesFlagsValuesAndPositionals() throws {
        let parsed = try ParsedArguments.parse(
            ["--h2c", "--config", "a.yaml", "--header=x: 1", "--header", "y: 2", "pos", "--", "--not-an-option"],
            options: options)
        #expect(parsed.has("h2c"))
        #expect(parsed.value("config") == "a.yaml")
        #expect(parsed.all("header") == ["x: 1", "y: 2"])
        #expect(parsed.positionals == ["pos", "--not-an-option"])
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect(throws: UsageError("unknown option '--confg' (did you mean '--config'?)")) {
            try ParsedArguments.parse(["--confg", "x"], options: options)
        }
    }

    @Test func missingValueAndRepeatedSingleValueAreErrors() {
        #expect(throws: UsageError("option '--config' needs a value (FILE)")) {
            try ParsedArguments.parse(["--config"], options: options)
        }
        #expect(throws: UsageError("option '--config' given twice")) {
            try ParsedArguments.parse(["--config", "a", "--config", "b"], options: options)
        }
        #expect(throws: UsageError("option '--h2c' takes no value")) {
            try ParsedArguments.parse(["--h2c=yes"], options: options)
        }
    }

    @Test func integersAreRangeChecked() throws {
        let parsed = try ParsedArguments.parse(["--port", "70000"], options: options)
        #expect(throws: UsageError("option '--port' expects an integer in 0...65535, got '70000'")) {
            try parsed.int("port", in: 0...65535)
        }
    }

    @Test func unknownCommandExitsWithUsageCode() async {
        let code = await Pushcheck.main(["sevre"])
        #expect(code == ExitCode.usage)
        #expect(await Pushcheck.main(["--version"]) == ExitCode.success)
        #expect(await Pushcheck.main([]) == ExitCode.usage)
    }
}
