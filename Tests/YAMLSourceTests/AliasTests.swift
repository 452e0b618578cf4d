import Testing
@testable import YAMLSource

@Suite struct AliasTests {
    @Test func aliasCopiesTheAnchoredNodeAndTakesTheAliasPosition() throws {
        let root = try load("base: &b\n  topic: com.example\n  priority: 10\nuse: *b\n")
        let use = try #require(root["use"])
        #expect(use.pairs?.map(\.keyString) == ["topic", "priority"])
        #expect(at(use) == "4:6")  // the alias itself
        #expect(at(use["topic"]) == "2:10")  // children keep where they were written
        #expect(use["priority"]?.value == .int(10))
    }

    @Test func scalarAlias() throws {
        let root = try load("t: &tok abc123\nsteps: [*tok, *tok]\n")
        let items = try #require(root["steps"]?.items)
        #expect(items.map { $0.scalar?.value } == ["abc123", "abc123"])
        #expect(items.map(at) == ["2:9", "2:15"])
    }

    @Test func mergeKeyAddsMissingKeysAndExplicitKeysWin() throws {
        let text = """
            defaults: &d
              topic: com.example.app
              priority: 10
              push_type: alert
            send:
              <<: *d
              priority: 5
              token: abc
            """
        let send = try #require(try load(text)["send"])
        #expect(send.pairs?.map(\.keyString) == ["topic", "push_type", "priority", "token"])
        #expect(send["priority"]?.value == .int(5))
        #expect(at(send["topic"]) == "2:10")
    }

    @Test func mergeListEarlierMappingsWin() throws {
        let text = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  w: 0\n"
        let c = try #require(try load(text)["c"])
        #expect(c.pairs?.map(\.keyString) == ["x", "y", "z", "w"])
        #expect(c["y"]?.value == .int(1))
        #expect(c["z"]?.value == .int(2))
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try load("a: &a {x: 1}\nb:\n  '<<': *a\n")
        #expect(root["b"]?.pairs?.map(\.keyString) == ["<<"])
    }

    @Test func duplicateKeyAfterMergeIsStillAnError() {
        let error = expectError { try load("a: &a {x: 1}\nb:\n  <<: *a\n  y: 1\n  y: 2\n") }
        #expect(error?.kind == .duplicateKey)
        #expect(error?.line == 5)
    }

    @Test func duplicateKeysAreFoundInSmallAndLargeMappings() throws {
        // Up to 16 keys they are compared one by one, past that hashed: both find the first definition.
        for (count, duplicateOf) in [(3, 2), (16, 2), (17, 2), (40, 2), (40, 30)] {
            var lines = (1...count).map { "k\($0): \($0)" }
            lines.append("k\(duplicateOf): again")
            let error = expectError { try load(lines.joined(separator: "\n")) }
            #expect(error?.kind == .duplicateKey, "\(count) keys")
            #expect(error?.line == count + 1, "\(count) keys")
            #expect(error?.expected == "already defined at line \(duplicateOf)", "\(count) keys")
        }
        let fine = try load((1...40).map { "k\($0): \($0)" }.joined(separator: "\n"))
        #expect(fine.pairs?.count == 40)
        #expect(fine["k40"]?.value == .int(40))
        // A merge among many keys: merged keys the mapping also sets explicitly stay the explicit ones.
        let merged = try load(
            "d: &d {k1: merged, z: merged}\nm:\n  <<: *d\n" + (1...20).map { "  k\($0): \($0)" }.joined(separator: "\n")
        )
        #expect(merged["m"]?["k1"]?.value == .int(1))
        #expect(merged["m"]?["z"]?.value == .string("merged"))
        #expect(merged["m"]?.pairs?.count == 21)
        let twice = expectError {
            try load(
                "d: &d {x: 1}\nm:\n  <<: *d\n" + (1...20).map { "  k\($0): 1" }.joined(separator: "\n") + "\n  k20: 2")
        }
        #expect(twice?.kind == .duplicateKey)
        #expect(twice?.line == 24)
    }

    @Test func aliasBombStopsAtTheNodeCap() {
        var lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for i in 1..<names.count {
            let refs = Array(repeating: "*\(names[i - 1])", count: 10).joined(separator: ", ")
            lines.append("\(names[i]): &\(names[i]) [\(refs)]")
        }
        let error = expectError { try load(lines.joined(separator: "\n")) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message == "aliases expand the document by more than 100000 nodes")
        #expect(error?.line == 5)  // 10^5 x's under 'e' pass the cap
    }

    @Test func capIsConfigurable() throws {
        let text = "a: &a [1, 2, 3]\nb: [*a, *a]\n"
        // Each '*a' adds 4 nodes ([1, 2, 3]): 8 in all fits the default, not a cap of 5.
        _ = try YAMLLoader.load(string: text, file: "t.yaml")
        let error = expectError {
            try YAMLLoader.load(string: text, file: "t.yaml", limits: YAMLLimits(maxExpandedNodes: 5))
        }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.line == 2)
    }

    @Test func depthIsCapped() {
        let text = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let error = expectError { try YAMLLoader.load(string: text, file: "t.yaml", limits: YAMLLimits(maxDepth: 32)) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.column == 33)
    }

    @Test func recursiveAliasIsRejected() {
        let error = expectError { try load("a: &x [1, *x]\n") }
        #expect(error?.kind == .badAlias)
        #expect(error?.message == "alias '*x' refers to a node that contains it")
        #expect(error?.column == 11)
    }

    @Test func anchorsDoNotLeakAcrossDocuments() {
        let error = expectError { try YAMLLoader.loadAll(string: "a: &x 1\n---\nb: *x\n", file: "t.yaml") }
        #expect(error?.kind == .badAlias)
        #expect(error?.line == 3)
    }
}
