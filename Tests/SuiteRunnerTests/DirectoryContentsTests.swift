import Foundation
import PushcheckTestSupport
import SuiteRunner
import Testing

/// `pushcheck run DIR`: every .yaml/.yml/.json file under DIR is a suite or a file that may sit beside suites (a
/// world file, a `serve` config, a JSON Schema). Any other file is a suite gone wrong (a misspelt or forgotten
/// `scenarios:`, a YAML syntax error): an error at file:line:col, exit 2, never silently left out of the run.
@Suite struct DirectoryContentsTests {
    static let suite = """
        scenarios:
          - name: passes
            steps: [{ run: "true" }]
        """

    /// What `pushcheck run DIR` prints when loading fails (nil when the run was prepared), and the scenarios it
    /// would run when it was.
    static func prepare(_ dir: TempDirectory) -> (error: String?, ids: [String]) {
        do {
            let prepared = try SuiteRun.prepare(RunConfiguration(paths: [dir.path], environment: [:]))
            return (nil, prepared.selected.map(\.id))
        } catch {
            #expect(error.exitCode == 2)
            return (error.description, [])
        }
    }

    @Test func aMisspeltOrForgottenScenariosKeyIsAnError() throws {
        let dir = try TempDirectory("pushcheck-dir")
        defer { dir.remove() }
        try dir.write("good.yaml", Self.suite)
        try dir.write("typo.yaml", "name: typo\nscenarois:\n  - name: x\n    steps: [{ run: \"true\" }]\n")
        try dir.write("capital.yaml", "Scenarios:\n  - name: x\n    steps: [{ run: \"true\" }]\n")
        try dir.write("forgot.yaml", "name: forgot\nvariables: { a: b }\n")
        try dir.write("syntax.yaml", "foo: [unclosed\n")
        try dir.write("world.yaml", "apps: []\ndevcies: []\n")
        try dir.write("empty.yaml", "# nothing yet\n")
        let text = try #require(Self.prepare(dir).error)
        #expect(text.contains("--> \(dir.file("typo.yaml")):2:1"), "\(text)")
        #expect(text.contains("--> \(dir.file("capital.yaml")):1:1"), "\(text)")
        #expect(text.components(separatedBy: "did you mean 'scenarios'?").count == 3, "\(text)")
        #expect(text.contains("--> \(dir.file("forgot.yaml")):1:1"), "\(text)")
        #expect(text.contains("missing required key 'scenarios'"), "\(text)")
        #expect(text.contains("--> \(dir.file("syntax.yaml")):2:1"), "\(text)")
        #expect(text.contains("--> \(dir.file("world.yaml")):2:1"), "\(text)")
        #expect(text.contains("did you mean 'devices'?"), "\(text)")
        #expect(text.contains("--> \(dir.file("empty.yaml")):1:1"), "\(text)")
        #expect(text.contains("6 suite files with errors; nothing was run."), "\(text)")
    }

    /// World files (included or not, in any sub-directory), a serve config and a JSON Schema sit beside suites.
    @Test func filesThatMaySitBesideSuitesAreNotSuites() throws {
        let dir = try TempDirectory("pushcheck-dir")
        defer { dir.remove() }
        let app = try String(contentsOfFile: Support.suites + "/apps/rides-app.yaml", encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("apps"), withIntermediateDirectories: true)
        try dir.write("apps/rides-app.yaml", app)
        try dir.write("apps/unused.yaml", app)
        try dir.write("apps/shared.json", #"{"include": "rides-app.yaml", "gateway": {}}"#)
        try dir.write(
            "a.yaml", "world: { include: apps/rides-app.yaml }\n" + Self.suite)
        try dir.write("mock.yaml", "listen: { sandbox: 0 }\ninclude: apps/rides-app.yaml\n")
        try dir.write(
            "suite.schema.json", #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "suites"}"#)
        let (error, ids) = Self.prepare(dir)
        #expect(error == nil, "\(error ?? "")")
        #expect(ids == [dir.file("a.yaml") + "::passes"])

        // A serve config's keys are checked as serve's.
        try dir.write("mock.yaml", "listen: { sandbox: 0 }\nincldue: apps/rides-app.yaml\n")
        let text = try #require(Self.prepare(dir).error)
        #expect(text.contains("--> \(dir.file("mock.yaml")):2:1"), "\(text)")
        #expect(text.contains("did you mean 'include'?"), "\(text)")
    }
}

private enum Support {
    static let suites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Suites").path
}
