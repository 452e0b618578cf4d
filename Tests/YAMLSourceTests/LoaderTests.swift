import Foundation
import PushcheckTestSupport
import Testing
@testable import YAMLSource

@Suite struct LoaderTests {
    /// A fresh directory under the system temporary directory, removed by the caller.
    func makeDirectory() throws -> TempDirectory { try TempDirectory("yamlsource") }

    @Test func loadsAFileAndUsesItsPathInErrors() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let path = dir.file("suite.yaml")
        try "name: x\nsteps:\n  - expcet: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let root = try YAMLLoader.load(path: path)
        #expect(root.range.file == path)
        let step = try #require(root["steps"]?.items?.first)
        let error = expectError { try step.mapping(allowedKeys: ["expect"]) }
        #expect(error?.file == path)
        #expect(error?.rendered().contains(" 3 |   - expcet: 1\n") == true)
    }

    @Test func loadAllReturnsEveryDocument() throws {
        let docs = try YAMLLoader.loadAll(string: "appId: x\n---\n- send: a\n- expect: b\n", file: "flow.yaml")
        #expect(docs.count == 2)
        #expect(docs[0]["appId"]?.scalar?.value == "x")
        #expect(docs[1].items?.count == 2)
        #expect(at(docs[1]) == "3:1")
    }

    @Test func loadAllFromPath() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let path = dir.file("two.yaml")
        try "a: 1\n---\nb: 2\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try YAMLLoader.loadAll(path: path).count == 2)
        #expect(expectError { try YAMLLoader.load(path: path) }?.kind == .multipleDocuments)
    }

    @Test func directoryIsAnIOError() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        let error = expectError { try YAMLLoader.load(path: dir.path) }
        #expect(error?.kind == .io)
        #expect(error?.message == "is a directory, not a file")
    }

    @Test func includePathsResolveAgainstTheIncludingFile() {
        #expect(YAMLLoader.baseDirectory(of: "Suites/smoke/basic.yaml") == "Suites/smoke")
        #expect(YAMLLoader.baseDirectory(of: "basic.yaml") == ".")
        #expect(
            YAMLLoader.resolve(include: "../common/auth.yaml", from: "Suites/smoke/basic.yaml")
                == "Suites/common/auth.yaml")
        #expect(YAMLLoader.resolve(include: "steps.yaml", from: "Suites/x.yaml") == "Suites/steps.yaml")
        #expect(YAMLLoader.resolve(include: "/abs/p.yaml", from: "Suites/x.yaml") == "/abs/p.yaml")
        #expect(YAMLLoader.resolve(include: "p.yaml", from: "x.yaml") == "p.yaml")
        #expect(YAMLLoader.resolve(include: "../../p.yaml", from: "a/x.yaml") == "../p.yaml")
        #expect(YAMLLoader.resolve(include: "./q/./p.yaml", from: "/s/x.yaml") == "/s/q/p.yaml")
    }

    @Test func includeResolvedPathLoads() throws {
        let dir = try makeDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(
            at: dir.url.appendingPathComponent("common"), withIntermediateDirectories: true)
        let main = dir.file("main.yaml")
        try "include: common/auth.yaml\n".write(toFile: main, atomically: true, encoding: .utf8)
        try "team_id: T\n".write(toFile: dir.file("common/auth.yaml"), atomically: true, encoding: .utf8)
        let include = try YAMLLoader.load(path: main).mapping().required("include", as: String.self)
        let resolved = YAMLLoader.resolve(include: include, from: main)
        #expect(try YAMLLoader.load(path: resolved)["team_id"]?.scalar?.value == "T")
    }

    @Test func sourceErrorCanBeBuiltAtAnyNode() throws {
        // Loaders built on this module raise their own errors at nodes (e.g. a runtime check).
        let root = try load("token: abc\n", file: "Suites/r.yaml")
        let node = try #require(root["token"])
        let error = SourceError(.other, "token is not registered", at: node.range, expected: "no such device token")
        #expect(
            error.rendered() == """
                error: token is not registered
                  --> Suites/r.yaml:1:8
                   |
                 1 | token: abc
                   |        ^^^ no such device token
                   |
                """)
    }

    @Test func aRangeKeepsItsFileNameAndTextWhicheverItWasGiven() throws {
        let root = try load("token: abc\n", file: "Suites/r.yaml")
        let range = try #require(root["token"]).range
        #expect(range.file == "Suites/r.yaml" && range.source?.line(1) == "token: abc")
        // Another name for the same text (a range made from another's parts): the name given, the lines quoted.
        let renamed = SourceRange(file: "other.yaml", start: range.start, end: range.end, source: range.source)
        #expect(renamed.file == "other.yaml" && renamed.source?.file == "other.yaml")
        #expect(renamed.source?.line(1) == "token: abc" && renamed != range)
        let bare = SourceRange(file: "x.yaml", start: range.start, end: range.end)
        #expect(bare.file == "x.yaml" && bare.source == nil && bare.description == "x.yaml:1:8")
    }
}
