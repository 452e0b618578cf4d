import Foundation
import PushcheckTestSupport
import Testing
@testable import YAMLSource

/// `YAMLLoader.load(path:deferringItemsOf:)`: every deferred item, read again on its own, is the node the whole
/// document gives (kinds, values, tags and every position); what cannot be read on its own is not deferred.
@Suite struct DeferredItemTests {
    /// Loads `text` both ways from one file; returns the whole document's items and the deferring load's.
    func bothWays(_ text: String) throws -> (whole: [YAMLNode], deferred: [YAMLNode]) {
        let dir = try TempDirectory("deferred")
        defer { dir.remove() }
        let path = dir.file("suite.yaml")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let whole = try YAMLLoader.load(path: path)
        let deferring = try YAMLLoader.load(path: path, deferringItemsOf: "scenarios")
        // Everything else in the document is as read whole.
        for pair in whole.pairs ?? [] where pair.keyString != "scenarios" {
            #expect(deferring[pair.keyString] == pair.value)
        }
        return (try #require(whole["scenarios"]?.items), try #require(deferring["scenarios"]?.items))
    }

    /// The errors of loading `text` from a file whole and deferring (both must fail).
    func errorsBothWays(
        _ text: String, limits: YAMLLimits = .standard, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (whole: SourceError?, deferred: SourceError?) {
        let dir = try TempDirectory("deferred")
        defer { dir.remove() }
        let path = dir.file("bad.yaml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (
            expectError({ try YAMLLoader.load(path: path, limits: limits) }, sourceLocation: sourceLocation),
            expectError(
                { try YAMLLoader.load(path: path, deferringItemsOf: "scenarios", limits: limits) },
                sourceLocation: sourceLocation)
        )
    }

    /// Every deferred item reads back as the whole document's node; returns how many were deferred.
    @discardableResult
    func expectSameItems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let (whole, deferred) = try bothWays(text)
        #expect(whole.count == deferred.count, sourceLocation: sourceLocation)
        var count = 0
        for (expected, placeholder) in zip(whole, deferred) {
            if placeholder.isDeferred {
                count += 1
                #expect(placeholder.range == expected.range, sourceLocation: sourceLocation)
            }
            let item = try placeholder.deferredItem()
            #expect(!item.isDeferred, sourceLocation: sourceLocation)
            #expect(item == expected, "item at \(expected.range)", sourceLocation: sourceLocation)
        }
        // And again once the text is kept deflated, as a run keeps a file whose scenarios it deferred.
        deferred.first?.range.source?.compact()
        for (expected, placeholder) in zip(whole, deferred) {
            #expect(
                try placeholder.deferredItem() == expected, "compacted, item at \(expected.range)",
                sourceLocation: sourceLocation)
        }
        return count
    }

    @Test func blockItemsReadBackWithTheirPositions() throws {
        let text = """
            name: s
            world: { devices: [{ name: iphone }] }
            scenarios:
              - name: first   # a comment
                tags: [a, b]
                steps:
                  - send:
                      payload: { aps: { alert: "hi" }, url: "x" }
                    expect: { status: 200 }
                  - note: |
                      a literal
                        kept as written
                  - note: >-
                      folded
                      text
                  - plain: a plain scalar
                      over two lines
              # between items
              -
                name: second, its mapping on the next line
                steps: []

              - name: "third \\u00e9"
                steps: [tap, { expect: { navigation: { top: detail } } }]
            variables: { v: 1 }

            """
        #expect(try expectSameItems(text) == 3)
    }

    @Test func flowItemsAndItemsAtTheKeysColumn() throws {
        #expect(try expectSameItems("scenarios: [{name: a, steps: []}, {name: b, steps: [tap]}]\n") == 2)
        #expect(
            try expectSameItems(
                "scenarios: [\n  {name: \"é ü\", steps: []},  {name: b,\n    steps: [tap]}\n]\nname: x") == 2)
        #expect(try expectSameItems("scenarios:\n- name: a\n  steps: []\n- name: b\n  steps:\n  - tap\n") == 2)
        // No newline at the end, CRLF breaks.
        #expect(try expectSameItems("scenarios:\r\n  - name: a\r\n    steps: [tap]\r\n  - name: b\r\n    x: 1") == 2)
    }

    @Test func scalarItemsAreNotDeferred() throws {
        #expect(try expectSameItems("scenarios:\n  - just text\n  -\n  - name: a\n    steps: []\n  - [1, 2]\n") == 2)
    }

    @Test func anchorsAliasesAndTagsInAnItemKeepTheDocumentWhole() throws {
        let anchored = """
            defaults: &d { timeout: 5s }
            scenarios:
              - name: a
                <<: *d
              - name: b
            """
        #expect(try expectSameItems(anchored) == 0)
        #expect(try expectSameItems("scenarios:\n  - &x { name: a }\n  - name: b\n") == 0)
        #expect(try expectSameItems("scenarios:\n  - name: !!str a\n  - name: b\n") == 0)
        // An anchor outside the items, used outside them, leaves the items deferred.
        #expect(try expectSameItems("a: &v 1\nb: *v\nscenarios:\n  - name: x\n") == 1)
    }

    @Test func aFileUnderTheMinimumIsReadWhole() throws {
        let dir = try TempDirectory("deferred")
        defer { dir.remove() }
        let path = dir.file("small.yaml")
        let text = "scenarios:\n  - name: a\n    steps: []\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let whole = try YAMLLoader.load(path: path, deferringItemsOf: "scenarios", minimumBytes: text.utf8.count + 1)
        #expect(whole == (try YAMLLoader.load(path: path)))
        #expect(whole["scenarios"]?.items?.first?.isDeferred == false)
        let deferred = try YAMLLoader.load(path: path, deferringItemsOf: "scenarios", minimumBytes: text.utf8.count)
        #expect(deferred["scenarios"]?.items?.first?.isDeferred == true)
    }

    @Test func onlyTheRootMappingsKeyIsDeferred() throws {
        let dir = try TempDirectory("deferred")
        defer { dir.remove() }
        let path = dir.file("nested.yaml")
        try "other:\n  scenarios:\n    - name: a\nscenarios: x\n".write(toFile: path, atomically: true, encoding: .utf8)
        let root = try YAMLLoader.load(path: path, deferringItemsOf: "scenarios")
        #expect(root == (try YAMLLoader.load(path: path)))
    }

    @Test func errorsInADeferredItemQuoteTheFilesLine() throws {
        let (_, deferred) = try bothWays("scenarios:\n  - name: a\n  - name: b\n    stpes: []\n")
        let item = try deferred[1].deferredItem()
        let error = expectError { try item.mapping(allowedKeys: ["name", "steps"]) }
        #expect(error?.range.description.hasSuffix("suite.yaml:4:5") == true)
        #expect(error?.rendered().contains(" 4 |     stpes: []\n") == true)
    }

    @Test func aSyntaxErrorInAnItemIsTheWholeDocumentsError() throws {
        let (whole, deferred) = try errorsBothWays("scenarios:\n  - name: a\n    steps: [tap\n  - name: b\n")
        #expect(whole != nil)
        #expect(deferred?.rendered() == whole?.rendered())
    }

    /// Reading past an item skips the checks of building it: a document that fails deferred is read whole for its
    /// error, which here is the first item's key that is not a scalar, met before the second item's syntax error.
    @Test func aDocumentThatFailsDeferredGivesTheWholeReadsError() throws {
        let (whole, deferred) = try errorsBothWays(
            "scenarios:\n  - name: a\n    ? [1, 2]\n    : v\n  - name: b\n    x: [1\n")
        #expect(whole?.message == "a mapping key must be a scalar")
        #expect(deferred?.rendered() == whole?.rendered())
    }

    @Test func nestingInADeferredItemCountsAgainstTheDepthLimit() throws {
        let (whole, deferred) = try errorsBothWays("scenarios:\n  - a: [[[[1]]]]\n", limits: YAMLLimits(maxDepth: 5))
        #expect(whole?.kind == .limitExceeded)
        #expect(deferred?.rendered() == whole?.rendered())
    }

    /// Every scenario of every suite in the repository reads back as the node the whole document gives.
    @Test func everyRepositorySuitesItemsReadBackAsWritten() throws {
        let files = try #require(FileManager.default.subpaths(atPath: SuiteFiles.suites)).filter {
            $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json")
        }
        var deferred = 0
        for file in files {
            let path = SuiteFiles.suites + "/" + file
            guard let whole = try? YAMLLoader.load(path: path), let items = whole["scenarios"]?.items else { continue }
            let root = try YAMLLoader.load(path: path, deferringItemsOf: "scenarios")
            let placeholders = try #require(root["scenarios"]?.items)
            #expect(placeholders.count == items.count, "\(file)")
            for (placeholder, item) in zip(placeholders, items) {
                if placeholder.isDeferred { deferred += 1 }
                #expect(try placeholder.deferredItem() == item, "\(file): \(item.range)")
            }
        }
        #expect(deferred > 100)
    }

    @Test func jsonWhoseEscapesAreRewrittenIsNotDeferred() throws {
        let json = #"{"scenarios": [{"name": "\ud83d\ude00", "steps": []}, {"name": "b", "steps": []}]}"#
        #expect(try expectSameItems(json) == 0)
        #expect(try expectSameItems(#"{"scenarios": [{"name": "a", "steps": []}]}"#) == 1)
    }
}
