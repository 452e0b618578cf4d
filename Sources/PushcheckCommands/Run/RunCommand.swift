import Foundation
import Reports
import ScenarioRun
import SuiteRunner
import Synchronization

/// `pushcheck run`: runs suites end to end and writes JUnit XML.
enum RunCommand: PushcheckCommand {
    static let name = "run"
    static let abstract =
        "Run scenario suites (Suites/ by default) and write a JUnit report (and, with --html, an HTML one)."
    static let synopsis =
        "pushcheck run [PATHS…] [--jobs N] [--filter TEXT] [--tags a,b] [--shard i/N] [--junit PATH] …"
    static let options: [OptionSpec] = [
        .value("jobs", "N", "Scenarios run in parallel (default: number of cores).").short("j"),
        .value("filter", "TEXT", "Only scenarios whose suite path or name contains TEXT.").short("k"),
        .repeated("tags", "a,b", "Only scenarios with at least one of these tags."),
        .repeated("exclude-tags", "a,b", "Leave out scenarios with any of these tags."),
        .value("shard", "i/N", "Run shard i of N (1-based): the selected scenarios by file and name, dealt in turn."),
        .value("retries", "N", "Re-run a failed scenario up to N times; earlier attempts stay in the report."),
        .value("step-timeout", "DURATION", "Upper bound per step, e.g. 30s, 500ms (default 30s)."),
        .value("scenario-timeout", "DURATION", "Upper bound per scenario attempt (default 300s)."),
        .flag("fail-fast", "Start no more scenarios after the first failure (the rest are reported as skipped)."),
        .value("junit", "PATH", "JUnit report path (default Reports/junit.xml, or Reports/junit-<i>-of-<N>.xml)."),
        .value(
            "html", "PATH",
            "Also write a self-contained HTML report (open it in a browser, from disk or a CI artifact)."),
        .value("pages", "DIR", "Directory the fixture web server serves (default: <first path>/pages)."),
        .value("seed", "N", "Seed for generated tokens and ids (default 0)."),
        .flag("list", "Print the selected scenario ids and exit."),
        .flag("allow-empty", "Exit 0 when no scenario is selected (default: exit 5, as pytest does)."),
        .value("color", "WHEN", "auto (default: colours on a terminal unless NO_COLOR or CI is set), always, never."),
        .flag("update-snapshots", "Write new and changed snapshots, remove obsolete ones (-u).").short("u"),
        .flag("ci", "CI mode (also when CI=true): a missing snapshot fails instead of being written."),
    ]
    static let discussion = """
        Suite files are .yaml/.yml/.json files with a top-level 'scenarios:' list, found recursively
        (pages/ and hidden directories are skipped); any other such file must be a world file (include:,
        gateway:, apps:, devices:), a serve config or a JSON Schema, else it is an error (exit 2).
        The JUnit report is rewritten atomically while scenarios finish (writes coalesced, at most one
        every 250 ms) and on exit, so Ctrl-C keeps every finished scenario; the rest are marked as
        interrupted (running) or not run.
        Exit codes: 0 all passed, 1 an assertion failed, 2 suite file or usage error (a suite file error is
        written to the report as an <error type="suite-file">), 3 harness error (timeout, crashed command,
        unreachable page, report not writable), 5 no scenario selected (an empty report is still written;
        --allow-empty makes it 0; a --shard left empty because there are fewer scenarios than shards exits 0),
        130 interrupted by SIGINT (Ctrl-C), 143 stopped by SIGTERM.
        Colour: NO_COLOR (non-empty) or CI gives plain lines; --color always|never overrides.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let configuration = try configuration(from: arguments)
        let colorChoice = try ColorChoice.parse(arguments.value("color"))
        // The fixture server and the worlds' shared pieces start while the suites are parsed (not for --list).
        let startUp = arguments.has("list") ? nil : RunStartUp.begin(configuration)
        let prepared: PreparedRun
        do {
            prepared = try SuiteRun.prepare(configuration)
        } catch {
            await startUp?.discard()
            let environment = ProcessInfo.processInfo.environment
            let color = colorChoice.resolve(
                auto: isatty(STDERR_FILENO) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
                    && environment["TERM"] != "dumb")
            // Suite-file errors are rendered like Hurl's (`error: …` and `--> file:line:col`); the others are one line,
            // said by the command as its other errors are.
            if case .load = error {
                console.err(error.rendered(color: color))
            } else {
                console.err("pushcheck run: " + error.rendered(color: color))
            }
            // Nothing ran: the reports say why, in place of an earlier run's (a stale green one in CI).
            if case .load(let errors) = error, !arguments.has("list") {
                do throws(ReportsError) {
                    try LoadFailureReport.write(errors, configuration: configuration)
                    console.out("report: \(configuration.junitPath)")
                    if let html = configuration.htmlPath { console.out("html report: \(html)") }
                } catch {
                    console.err("pushcheck run: \(error.description)")
                }
            }
            return error.exitCode
        }
        let empty = prepared.selected.isEmpty
        // More shards than selected scenarios leaves a shard empty: the split's doing, not the selection's, so it
        // is not a failure (exit 0). Exit 5 stays for a selection that matches nothing on any shard.
        let shard = configuration.selection.shard
        let selectedOverall: Int = {
            guard empty, shard.count > 1 else { return prepared.selected.count }
            var unsharded = configuration.selection
            unsharded.shard = .all
            return unsharded.apply(prepared.loaded.items).count
        }()
        let emptyShard = empty && selectedOverall > 0
        if emptyShard {
            console.err(
                "pushcheck run: shard \(shard) has no scenarios (the selection has \(selectedOverall) for \(shard.count) "
                    + "shards)" + (arguments.has("list") ? "" : "; writing an empty report and exiting 0"))
        } else if empty {
            // Blame the selection only when there was something to select from.
            let why =
                prepared.loaded.items.isEmpty
                ? "the suites hold no scenarios (their scenarios: lists are empty)"
                : "no scenario matches the selection (--filter/--tags/--exclude-tags/--shard)"
            let exiting = arguments.has("allow-empty") ? "" : "exiting 5 (--allow-empty: 0)"
            let action =
                arguments.has("list")
                ? (exiting.isEmpty ? "" : "; " + exiting)
                : "; writing an empty report" + (exiting.isEmpty ? "" : " and " + exiting)
            console.err("pushcheck run: \(why)\(action)")
        }
        let emptyExit = arguments.has("allow-empty") || emptyShard ? ExitCode.success : ExitCode.noScenarios
        if arguments.has("list") {
            for item in prepared.selected { console.out(item.id) }
            return empty ? emptyExit : ExitCode.success
        }
        var mode = ConsoleReporter.detectStandardOutputMode()
        mode.colors = colorChoice.resolve(auto: mode.colors)
        let reporter = ConsoleReporter(total: prepared.selected.count, mode: mode)
        let runTask = Task { () async -> Result<RunSummary, RunError> in
            do throws(RunError) {
                return .success(try await SuiteRun.execute(prepared, console: reporter, startUp: startUp))
            } catch {
                return .failure(error)
            }
        }
        let received = Mutex<Int32?>(nil)
        let signalWatcher = Task {
            let signal = await Signals.next()
            received.withLock { $0 = signal }
            console.err(
                "\npushcheck run: \(Signals.name(signal)) received: stopping; finished scenarios are kept in "
                    + "the report (a second SIGINT or SIGTERM exits at once)")
            runTask.cancel()
        }
        let result = await runTask.value
        signalWatcher.cancel()
        // Nothing a run: step started outlives the run (the steps kill their own; this is the backstop).
        ProcessTree.killAllDescendants()
        // A signal decides the exit code, whatever the scenarios did while they were being stopped:
        // 128 + the signal number, as a shell reports a process killed by it (130 SIGINT, 143 SIGTERM).
        let signalExit = received.withLock { $0 }.map { 128 + $0 }
        let summary: RunSummary
        switch result {
        case let .success(value):
            summary = value
        case let .failure(error):
            console.err("pushcheck run: \(error.description)")
            return signalExit ?? error.exitCode
        }
        reporter.finish()
        if summary.interrupted {
            let unfinished = summary.unfinished
            // The scenarios that were running are in the counts above (interrupted errors); these never started,
            // and the report lists them as skipped ("not run: interrupted").
            console.out(
                "interrupted: \(unfinished) scenario\(unfinished == 1 ? "" : "s") not run (skipped in the report)")
        }
        if let error = summary.reportError { console.err("pushcheck run: \(error.description)") }
        for line in summary.snapshots.lines { console.out(line) }
        console.out("report: \(summary.reportPath)")
        if let html = summary.htmlPath { console.out("html report: \(html)") }
        if let signalExit { return signalExit }
        if empty, summary.exitCode == ExitCode.success { return emptyExit }
        return summary.exitCode
    }

    /// Reads the options into a run configuration (usage errors for bad values).
    static func configuration(from arguments: ParsedArguments) throws(UsageError) -> RunConfiguration {
        var selection = Selection(
            filter: arguments.value("filter"), tags: Selection.parseTags(arguments.all("tags")),
            excludedTags: Selection.parseTags(arguments.all("exclude-tags")))
        if let shard = arguments.value("shard") {
            do { selection.shard = try ShardSelector.parse(shard) } catch { throw UsageError(error.description) }
        }
        let jobs = try arguments.int("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let retries = try arguments.int("retries", in: 0...20) ?? 0
        let stepTimeout = try duration(arguments, "step-timeout") ?? .seconds(30)
        let scenarioTimeout = try duration(arguments, "scenario-timeout") ?? .seconds(300)
        if let pages = arguments.value("pages") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: pages, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(
                    "option '--pages': '\(pages)' is not a directory (the fixture web server serves the pages in it)")
            }
        }
        var seed: UInt64 = 0
        if let raw = arguments.value("seed") {
            guard let value = UInt64(raw) else {
                throw UsageError("option '--seed' expects a non-negative integer, got '\(raw)'")
            }
            seed = value
        }
        var configuration = RunConfiguration(
            paths: arguments.positionals, selection: selection,
            policy: RunPolicy(
                jobs: jobs, retries: retries, scenarioTimeout: scenarioTimeout, failFast: arguments.has("fail-fast")),
            junitPath: arguments.value("junit"), pagesDirectory: arguments.value("pages"), stepTimeout: stepTimeout,
            seed: seed,
            properties: [
                ReportProperty("pushcheck.version", Pushcheck.version),
                ReportProperty("os", ProcessInfo.processInfo.operatingSystemVersionString),
            ])
        configuration.htmlPath = arguments.value("html")
        if arguments.has("ci"), arguments.has("update-snapshots") {
            throw UsageError(
                "--ci and -u/--update-snapshots together: CI mode writes no snapshot, -u writes them; pass one")
        }
        if arguments.has("ci") { configuration.snapshotMode = .ci }
        // -u overrides CI=true in the environment (a job that regenerates snapshots), not an explicit --ci.
        if arguments.has("update-snapshots") { configuration.snapshotMode = .update }
        return configuration
    }

    /// `30`, `30s`, `500ms`, `2m`, `1.5s`.
    static func duration(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> Duration? {
        guard let raw = arguments.value(name) else { return nil }
        let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let number = Double(text.dropLast(suffix.count)), number > 0, number.isFinite {
                return .milliseconds(Int64((number * scale * 1000).rounded()))
            }
        }
        // `0s` is a duration, but no step or scenario can finish within it (nor within a negative one).
        if let number = Double(text.trimmingCharacters(in: CharacterSet(charactersIn: "ms"))), number <= 0 {
            let why = number == 0 ? "nothing finishes within 0" : "a time limit cannot be negative"
            throw UsageError(
                "option '--\(name)' must be a positive duration (\(why)), got '\(raw)'; e.g. 30s, 500ms or 2m")
        }
        throw UsageError("option '--\(name)' expects a duration such as 30s, 500ms or 2m, got '\(raw)'")
    }
}
