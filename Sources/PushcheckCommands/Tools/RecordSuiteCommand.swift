import Foundation
import SuiteFormat

/// `pushcheck record-suite DIR`: a suite that replays pushes recorded by `serve --record DIR`.
enum RecordSuiteCommand: PushcheckCommand {
    static let name = "record-suite"
    static let abstract = "Turn pushes recorded by `serve --record DIR` into a suite that replays and snapshots them."
    static let synopsis = "pushcheck record-suite (DIR | LOG.jsonl) [--app APP.yaml] > Suites/recorded.yaml"
    static let options: [OptionSpec] = [
        .value(
            "app", "PATH",
            "An app file to include in the world (as written; relative to where the suite will live). Default: a minimal app per recorded topic."
        )
    ]
    static let discussion = """
        DIR is what `serve --record DIR` wrote; a file is read as serve's JSON-lines delivery log
        (`--log-file`), whose accepted (200) requests are replayed. One scenario per recorded push: it sends the payload as recorded (push type, priority, collapse id)
        to the simulated app, taps it when it has alert text, and snapshots what the app did. Run the suite
        once to write its snapshots (`pushcheck run Suites/recorded.yaml`), commit them, and every later run
        compares the app's behaviour against them.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.count == 1, let dir = arguments.positionals.first else {
            throw UsageError("expected one recording directory (or a delivery log file)")
        }
        let recordings: [RecordedSuite.Recording]
        do { recordings = try RecordedSuite.load(path: dir) } catch {
            console.err("pushcheck record-suite: \(error)")
            return ExitCode.usage
        }
        guard !recordings.isEmpty else {
            console.err("pushcheck record-suite: no recorded pushes (*.json) in \(dir)")
            return ExitCode.failure
        }
        var isDirectory: ObjCBool = false
        let fromLog = FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) && !isDirectory.boolValue
        let text = RecordedSuite.yaml(recordings, appInclude: arguments.value("app"), source: dir, fromLog: fromLog)
        console.out(String(text.dropLast()))  // out adds the final newline
        return ExitCode.success
    }
}
