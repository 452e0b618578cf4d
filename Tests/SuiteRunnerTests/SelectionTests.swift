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

    @Test func shardDoesNotDependOnFilters() throws {
        let shard = try ShardSelector(index: 2, count: 3)
        let all = Selection(shard: shard).apply(Self.sample)
        let smoke = Selection(tags: ["smoke"], shard: shard).apply(Self.sample)
        #expect(Set(smoke.map(\.id)).isSubset(of: Set(all.map(\.id))))
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
