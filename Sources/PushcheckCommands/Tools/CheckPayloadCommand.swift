import DeviceSimulator
import Foundation
import PushModel
import ScenarioChecks
import SuiteFormat
import YAMLSource

/// `pushcheck check-payload`: payload contracts without a world. A backend's unit tests call it on the
/// payloads they build; no gateway or device runs.
enum CheckPayloadCommand: PushcheckCommand {
    static let name = "check-payload"
    static let abstract = "Check payloads against an app's routes, the APNs size limits and FCM data rules."
    static let synopsis =
        "pushcheck check-payload --app APP.yaml [--bundle-id ID] [--route NAME] [--push-type TYPE] [--fcm] [PAYLOAD.json…]"
    static let options: [OptionSpec] = [
        .value("app", "PATH", "The app file (apps:/devices:/include:, as suites include), or a suite."),
        .value("bundle-id", "ID", "Which app of the file (default: the first with routes)."),
        .value("route", "NAME", "The route the payloads are meant for: exit 1 unless a tap or foreground takes it."),
        .value(
            "push-type", "TYPE",
            "The apns-push-type the payloads are sent with (alert, background, voip, …; default: from the payload)."),
        .flag(
            "fcm",
            "Payloads are FCM messages, checked as FCM translates and sizes them (or the keys FCM delivers beside aps): data values must be strings, reserved keys refused."
        ),
    ]
    static let discussion = """
        Each PAYLOAD is a JSON file; without files (or with -), JSON lines are read from stdin, one payload
        per line. For each payload: the route a tap and a foreground arrival take (the simulated device's
        own router), the screen and title it ends on, required keys missing or mistyped (did you mean …),
        its size against the APNs limit of its push type (4096 bytes; background when it is content-available
        only), and with --fcm the FCM data rules.
        Exit codes: 0 every payload fits, 1 a payload breaks a route (or the size limit, or an FCM rule, or
        is not a JSON object: invalid JSON says FILE:LINE:COL), 2 usage or app file error, 5 no payloads
        (empty stdin, or only blank lines: as run exits 5 when nothing is selected).
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let appPath = arguments.value("app") else { throw UsageError("missing --app APP.yaml") }
        let apps: [AppDeclaration]
        do { apps = try SuiteLoader.loadApps(path: appPath) } catch {
            console.err(error.rendered(color: false))
            return ExitCode.usage
        }
        let app: AppDeclaration
        if let id = arguments.value("bundle-id") {
            guard let found = apps.first(where: { $0.bundleID == id }) else {
                throw UsageError(
                    "no app '\(id)' in \(appPath)"
                        + (Spelling.closest(to: id, in: apps.map(\.bundleID)).map { " (did you mean '\($0)'?)" } ?? ""))
            }
            app = found
        } else {
            guard let first = apps.first(where: { !$0.navigation.routes.isEmpty }) ?? apps.first else {
                throw UsageError("\(appPath) declares no app")
            }
            app = first
        }
        var inputs: [(name: String, bytes: [UInt8], fromStdin: Bool)] = []
        let files = arguments.positionals.filter { $0 != "-" }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw UsageError("cannot read payload file '\(file)'")
            }
            inputs.append((file, [UInt8](data), false))
        }
        if files.isEmpty || arguments.positionals.contains("-") {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            for line in JSONLines.lines([UInt8](data)) { inputs.append(("stdin:\(line.number)", line.bytes, true)) }
        }
        // Nothing to check is not "all fit": a backend test piping an empty list must not pass (run's exit 5).
        guard !inputs.isEmpty else {
            console.err(
                "pushcheck check-payload: no payloads to check (stdin held no JSON lines); "
                    + "pass PAYLOAD.json files, or one JSON payload per line on stdin")
            return ExitCode.noScenarios
        }
        var pushType: APNsPushType?
        if let raw = arguments.value("push-type") {
            guard let t = APNsPushType(rawValue: raw) else {
                let names = APNsPushType.allCases.map(\.rawValue)
                throw UsageError(
                    "option '--push-type' expects one of \(names.joined(separator: ", ")), got '\(raw)'"
                        + (Spelling.closest(to: raw, in: names).map { " (did you mean '\($0)'?)" } ?? ""))
            }
            pushType = t
        }
        let contract = PayloadContract(app: app)
        var broken = 0
        for input in inputs {
            let report = contract.check(
                input.bytes, route: arguments.value("route"), fcm: arguments.has("fcm"), pushType: pushType)
            if let bad = report.invalidJSON {
                // `file:line:col: …` as the suite loader says it; a stdin payload is one line: `stdin:N:col: …`.
                let place = input.fromStdin ? "\(input.name):\(bad.column)" : "\(input.name):\(bad.line):\(bad.column)"
                console.out("\(place): invalid JSON: \(bad.message)")
                broken += 1
                continue
            }
            console.out(
                "\(input.name): \(report.pushType.rawValue), \(report.bytes) of \(report.pushType.maxPayloadBytes) bytes"
            )
            for o in report.outcomes {
                console.out("  \(o.trigger.rawValue): " + describe(o))
            }
            for p in report.problems { console.out("  FAIL " + p) }
            if pushType == nil, Self.looksLikeLiveActivity(input.bytes) {
                // Checked as an alert it "fits"; ActivityKit's rules were not run. A warning: the exit stays.
                console.out(
                    "  WARN  looks like a Live Activity push: give --push-type liveactivity to check it against "
                        + "the app's live_activities")
            }
            if !report.ok { broken += 1 }
        }
        console.out(
            "\(inputs.count) payload\(inputs.count == 1 ? "" : "s") checked against \(app.bundleID): "
                + (broken == 0 ? "all fit" : "\(broken) broken"))
        return broken == 0 ? ExitCode.success : ExitCode.failure
    }

    /// An APNs payload whose `aps` has `event` or `content-state`: a Live Activity push's keys
    /// (Tests/reference/live-activities.md §4), which the alert rules this command applies by default do not check.
    static func looksLikeLiveActivity(_ bytes: [UInt8]) -> Bool {
        guard let aps = (try? JSONValue.parse(bytes))?["aps"] else { return false }
        return aps["event"] != nil || aps["content-state"] != nil
    }

    static func describe(_ o: PayloadContract.RouteOutcome) -> String {
        guard let route = o.route else { return "no route" }
        if let f = o.failure {
            return "route \(route) FAILS: key '\(f.key)' should be \(f.expected), found \(f.found)"
                + (f.didYouMean.map { " (did you mean '\($0)'?)" } ?? "")
        }
        var text = "route \(route)"
        var place: [String] = []
        if let t = o.tabTitle { place.append(t) }
        place += o.stack
        if !place.isEmpty { text += " → " + place.joined(separator: " › ") }
        if let title = o.title { text += " \"\(title)\"" }
        return text
    }
}
