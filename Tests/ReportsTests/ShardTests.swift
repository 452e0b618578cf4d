import Foundation
import Testing
@testable import Reports

@Suite struct ShardTests {
    /// 6 suites × 25 scenarios, with non-ASCII names.
    static let scenarios: [(suite: String, name: String)] = (0..<6).flatMap { suite in
        (0..<25).map { ("Suites/area-\(suite).yaml", "scenario \($0) — ü\(suite)") }
    }

    @Test func parsing() throws {
        #expect(try ShardSelector.parse("2/4") == ShardSelector(index: 2, count: 4))
        #expect(try ShardSelector.parse(" 1/1 ") == ShardSelector.all)
        #expect(throws: ShardError.malformed("2-4")) { try ShardSelector.parse("2-4") }
        #expect(throws: ShardError.malformed("2/")) { try ShardSelector.parse("2/") }
        #expect(throws: ShardError.malformed("/4")) { try ShardSelector.parse("/4") }
        #expect(throws: ShardError.malformed("a/b")) { try ShardSelector.parse("a/b") }
        #expect(throws: ShardError.malformed("-1/4")) { try ShardSelector.parse("-1/4") }
        #expect(throws: ShardError.malformed("1/2/3")) { try ShardSelector.parse("1/2/3") }
        #expect(throws: ShardError.indexOutOfRange(index: 0, count: 4)) { try ShardSelector.parse("0/4") }
        #expect(throws: ShardError.indexOutOfRange(index: 5, count: 4)) { try ShardSelector.parse("5/4") }
        #expect(throws: ShardError.countTooSmall(0)) { try ShardSelector.parse("0/0") }
        #expect(ShardError.indexOutOfRange(index: 5, count: 4).description.contains("between 1 and 4"))
    }

    static var keys: [(path: String, name: String)] { scenarios.map { (path: $0.suite, name: $0.name) } }

    @Test func shardsAreDisjointAndTogetherCoverEverything() throws {
        for count in 1...7 {
            var owners = Array(repeating: 0, count: Self.scenarios.count)
            for index in 1...count {
                for position in try ShardSelector(index: index, count: count).positions(of: Self.keys) {
                    owners[position] += 1
                }
            }
            #expect(
                owners.allSatisfy { $0 == 1 },
                "with \(count) shards some scenario is owned by \(owners.filter { $0 != 1 })")
        }
    }

    /// The hash split gave Suites/ 35/46/25/34 over 4 shards and often left one of 2 shards empty with 2
    /// scenarios: dealt round-robin, shard sizes differ by at most one.
    @Test func shardSizesDifferByAtMostOne() throws {
        for total in [1, 2, 3, 7, 140, 150] {
            let keys = Self.keys.prefix(total).map { $0 }
            for count in 1...7 {
                let sizes = try (1...count).map { try ShardSelector(index: $0, count: count).positions(of: keys).count }
                #expect(sizes.max()! - sizes.min()! <= 1, "\(total) over \(count): \(sizes)")
                #expect(sizes.reduce(0, +) == total)
            }
        }
        let two = [(path: "a.yaml", name: "one"), (path: "a.yaml", name: "two")]
        #expect(try ShardSelector(index: 1, count: 2).positions(of: two) == [0])
        #expect(try ShardSelector(index: 2, count: 2).positions(of: two) == [1])
    }

    /// The split is of the sorted keys, whatever order discovery gave them in, pinned here.
    @Test func assignmentIsTheSortedKeysDealtInTurn() throws {
        let keys = [(path: "b.yaml", name: "x"), (path: "a.yaml", name: "z"), (path: "a.yaml", name: "y")]
        #expect(try ShardSelector(index: 1, count: 2).positions(of: keys) == [0, 2])  // a.yaml y, b.yaml x
        #expect(try ShardSelector(index: 2, count: 2).positions(of: keys) == [1])  // a.yaml z
    }

    /// The key is the path below the suite root given on the command line, so `run .` in Suites/, `run Suites` and
    /// `run /checkout/Suites` split alike.
    @Test func pathsAreRelativeToTheSuiteRoot() {
        #expect(ShardSelector.relativePath("a.yaml", roots: ["."]) == "a.yaml")
        #expect(ShardSelector.relativePath("Suites/a.yaml", roots: ["Suites"]) == "a.yaml")
        #expect(ShardSelector.relativePath("/ci/build/Suites/x/a.yaml", roots: ["/ci/build/Suites"]) == "x/a.yaml")
        #expect(ShardSelector.relativePath("Suites/a.yaml", roots: ["Suites/a.yaml"]) == "a.yaml")
        #expect(ShardSelector.relativePath("/a.yaml", roots: ["/"]) == "a.yaml")
        #expect(ShardSelector.relativePath("S/x/a.yaml", roots: ["S", "S/x"]) == "a.yaml")
        #expect(ShardSelector.relativePath("other/a.yaml", roots: ["Suites"]) == "other/a.yaml")
    }

    @Test func reportFileNames() throws {
        #expect(try ShardSelector(index: 2, count: 10).reportFileName == "junit-2-of-10.xml")
        #expect(ShardSelector.shardIndex(fromFileName: "junit-10-of-10.xml") == 10)
        #expect(ShardSelector.shardIndex(fromFileName: "junit.xml") == nil)
        #expect(ShardSelector.shardIndex(fromFileName: "junit-x-of-3.xml") == nil)
        #expect(ShardSelector.shardIndex(fromFileName: "report-2-of-3.html") == 2)
        #expect(ShardSelector.shardIndex(fromFileName: "2-of-3.html") == nil)
        let urls = ["junit-10-of-10.xml", "other.xml", "junit-2-of-10.xml", "junit-1-of-10.xml"]
            .map { URL(fileURLWithPath: "/tmp/r/" + $0) }
        #expect(
            ReportMerger.orderedShardFiles(urls).map(\.lastPathComponent)
                == ["junit-1-of-10.xml", "junit-2-of-10.xml", "junit-10-of-10.xml", "other.xml"])
    }
}
