import Foundation
import PushcheckTestSupport
@testable import Reports
import Testing
@testable import SuiteRunner

@Suite struct SelectionTests {
    static let sample: [RunItem] = [
        RunItem(classname: "Suites/checkout.yaml", name: "tap opens cart", tags: ["smoke", "ios"]),
        RunItem(classname: "Suites/checkout.yaml", name: "silent refresh", tags: ["background"]),
        RunItem(classname: "Suites/news.yaml", name: "breaking news", tags: ["smoke"]),
        RunItem(classname: "Suites/news.yaml", name: "muted", tags: []),
    ]

    @Test func filterMatchesPathOrName() {
        #expect(Selection(filter: "news").apply(Self.sample).map(\.name) == ["breaking news", "muted"])
        #expect(Selection(filter: "cart").apply(Self.sample).map(\.name) == ["tap opens cart"])
        #expect(Selection(filter: "nothing").apply(Self.sample).isEmpty)
    }

    @Test func tagsAndExcludedTags() {
        #expect(Selection(tags: ["smoke"]).apply(Self.sample).map(\.name) == ["tap opens cart", "breaking news"])
        #expect(Selection(tags: ["smoke"], excludedTags: ["ios"]).apply(Self.sample).map(\.name) == ["breaking news"])
        #expect(Selection(excludedTags: ["smoke", "background"]).apply(Self.sample).map(\.name) == ["muted"])
        #expect(Selection.parseTags(["a, b", ",c", ""]) == ["a", "b", "c"])
    }

    @Test func shardsAreDisjointAndComplete() throws {
        let many = (0..<200).map { RunItem(classname: "Suites/s\($0 % 7).yaml", name: "scenario \($0)") }
        for count in [1, 2, 3, 5] {
            var seen: [String: Int] = [:]
            for index in 1...count {
                let shard = try ShardSelector(index: index, count: count)
                for item in Selection(shard: shard).apply(many) { seen[item.id, default: 0] += 1 }
            }
            #expect(seen.count == many.count, "shards of \(count) cover everything")
            #expect(seen.values.allSatisfy { $0 == 1 }, "shards of \(count) are disjoint")
        }
    }

    /// The shards split what the filters selected, evenly (smoke: 2 scenarios, one a shard), and alike whatever
    /// the suite root's spelling: `run .` in Suites/ and `run /ci/Suites` give each shard the same scenarios.
    @Test func shardsSplitTheSelectionEvenlyWhateverTheRootsSpelling() throws {
        let smoke = try (1...2).map { Selection(tags: ["smoke"], shard: try ShardSelector(index: $0, count: 2)) }
        #expect(smoke.map { $0.apply(Self.sample).map(\.name) } == [["tap opens cart"], ["breaking news"]])
        let relative = (0..<10).map { RunItem(classname: "s\($0 % 3).yaml", name: "n\($0)") }
        let absolute = (0..<10).map { RunItem(classname: "/ci/Suites/s\($0 % 3).yaml", name: "n\($0)") }
        for index in 1...4 {
            let s = Selection(shard: try ShardSelector(index: index, count: 4))
            let here = s.apply(relative, roots: ["."]).map(\.name)
            #expect(here == s.apply(absolute, roots: ["/ci/Suites"]).map(\.name))
            #expect((2...3).contains(here.count), "\(here)")
        }
    }
}

@Suite struct DiscoveryTests {
    @Test func findsSuitesRecursivelySortedSkippingPagesAndIncludes() throws {
        let dir = try TempDirectory("pushcheck-discovery")
        defer { dir.remove() }
        let root = dir.path
        let files = [
            "b.yaml", "a.yml", "nested/c.json", "nested/app.yaml", "pages/page.json", "pages/x.yaml",
            ".hidden/h.yaml", "notes.txt",
        ]
        for file in files {
            let path = root + "/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "x".write(toFile: path, atomically: true, encoding: .utf8)
        }
        let found = try SuiteDiscovery.find(paths: [root + "/", root + "/b.yaml"]) { !$0.hasSuffix("app.yaml") }
        #expect(found == [root + "/a.yml", root + "/b.yaml", root + "/nested/c.json"])
    }

    @Test func missingPathsAndNonSuiteFilesAreErrors() throws {
        #expect(throws: DiscoveryError.missing("no/such/dir")) {
            try SuiteDiscovery.find(paths: ["no/such/dir"]) { _ in true }
        }
        let dir = try TempDirectory("pushcheck-notes")
        defer { dir.remove() }
        let file = try dir.write("notes.txt", "x")
        #expect(throws: DiscoveryError.notASuite(file)) { try SuiteDiscovery.find(paths: [file]) { _ in true } }
        #expect(SuiteDiscovery.normalized("./Suites//x.yaml") == "Suites/x.yaml")
    }
}
