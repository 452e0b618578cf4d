import Foundation
import PushcheckTestSupport
@testable import Reports
import Testing

/// A temp directory with suite files, and the real `pushcheck` binary run against it.
struct CLIWorkspace {
    let dir: TempDirectory

    init(_ suites: [String: String]) throws {
        dir = try TempDirectory("runner-cli")
        for (name, text) in suites {
            let path = dir.file(name)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        SuiteFiles.recordCorpus(dir.path)
    }

    var report: String { dir.file("Reports/junit.xml") }

    /// `pushcheck ARGS` with a hard timeout.
    func pushcheck(_ arguments: [String], timeout: TimeInterval = 60) throws -> ToolOutput {
        try runTool(pushcheckExecutable(), arguments, environment: ["CI": "1"], timeout: timeout)
    }

    /// `pushcheck ARGS` as a user without root's file-permission override: under root (CI) through `setpriv`,
    /// dropping `dac_override` and `dac_read_search`, so modes such as 000 and 555 hold as a normal user meets them.
    func pushcheckWithFilePermissions(_ arguments: [String], timeout: TimeInterval = 60) throws -> ToolOutput {
        guard getuid() == 0 else { return try pushcheck(arguments, timeout: timeout) }
        let drop = "-dac_override,-dac_read_search"
        return try runTool(
            "setpriv", ["--inh-caps=" + drop, "--bounding-set=" + drop, pushcheckExecutable()] + arguments,
            environment: ["CI": "1"], timeout: timeout)
    }

    /// `pushcheck run <dir>/suites --junit <dir>/Reports/junit.xml ARGS`.
    func run(_ arguments: [String] = [], timeout: TimeInterval = 60) throws -> ToolOutput {
        try pushcheck(["run", dir.file("suites"), "--junit", report] + arguments, timeout: timeout)
    }

    /// `pushcheck run` of `SampleSuites.slow` with one job, started in the background and returned once the
    /// console has printed `quick`'s result (so `slow` is about to start). Records an issue if it never does.
    func startSlowSuiteAfterQuick() throws -> ChildProcess {
        let child = try ChildProcess(
            pushcheckExecutable(), ["run", dir.file("suites"), "--junit", report, "--jobs", "1"])
        let first = child.firstLine(timeout: 30)
        #expect(first?.contains("quick") == true, "first line: \(first ?? "nil"); stderr: \(child.stderr)")
        return child
    }

    func readReport(_ path: String? = nil) throws -> TestReport {
        try JUnitXMLReader.read(contentsOf: URL(fileURLWithPath: path ?? report))
    }

    func remove() { dir.remove() }
}

enum SchemaCheck {
    static let xsd = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ReportsTests/Schema/junit-pushcheck.xsd").path

    /// Validates a report file with `xmllint --schema` against the relaxed windyroad XSD.
    static func expectValid(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try runTool("xmllint", ["--noout", "--schema", xsd, path])
        #expect(result.status == 0, "xmllint rejects \(path): \(result.stderr)", sourceLocation: sourceLocation)
    }
}

/// Small suites in the scenario language, using `run:` steps so they need no device setup.
enum SampleSuites {
    static let passing = """
        scenarios:
          - name: passes
            tags: [smoke]
            steps:
              - run: "true"
                expect: { exit: 0 }
          - name: also passes
            tags: [smoke, extra]
            steps:
              - run: "echo hello"
                expect: { stdout: { contains: hello } }
        """

    static let failing = """
        scenarios:
          - name: fails
            tags: [broken]
            steps:
              - run: "false"
                expect: { exit: 0 }
        """

    static let crashing = """
        scenarios:
          - name: crashes
            steps:
              - run: "kill -SEGV $$"
        """

    static func flaky(flagFile: String) -> String {
        """
        scenarios:
          - name: flaky
            steps:
              - run: "test -f \(flagFile) || { touch \(flagFile); exit 1; }"
                expect: { exit: 0 }
        """
    }

    /// `quick` passes, `slow` sleeps (a `run` step), `later1`/`later2` come after it.
    static let slow = """
        scenarios:
          - name: quick
            steps:
              - run: "true"
          - name: slow
            steps:
              - run: { command: "sleep 30", timeout: 60s }
          - name: later1
            steps:
              - run: "true"
          - name: later2
            steps:
              - run: "true"
        """
}

func outcome(named name: String, in report: TestReport) -> CaseOutcome? {
    report.allCases.first { $0.name == name }?.outcome
}
