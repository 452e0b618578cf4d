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

    @Test func fnv1aMatchesPublishedVectors() {
        #expect(ShardSelector.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(ShardSelector.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(ShardSelector.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    @Test func shardsAreDisjointAndTogetherCoverEverything() throws {
        for count in 1...7 {
            var owners = Array(repeating: 0, count: Self.scenarios.count)
            for index in 1...count {
                let shard = try ShardSelector(index: index, count: count)
                for (position, scenario) in Self.scenarios.enumerated()
                where shard.includes(suitePath: scenario.suite, scenarioName: scenario.name) {
                    owners[position] += 1
                }
            }
            #expect(
                owners.allSatisfy { $0 == 1 },
                "with \(count) shards some scenario is owned by \(owners.filter { $0 != 1 })")
        }
    }

    /// Names that differ only in the high bits of a character ('a' 0x61 vs 'e' 0x65) still spread out:
    /// a plain `fnv1a64 % 4` would put all of these on one shard.
    @Test func namesDifferingInHighBitsSpreadAcrossShards() {
        let names = ["a", "e", "i", "m", "q", "u", "y", "A", "E", "I", "M", "Q", "U", "Y"].map { "check " + $0 }
        let shards = Set(names.map { ShardSelector.shard(suitePath: "Suites/x.yaml", scenarioName: $0, count: 4) })
        #expect(shards.count > 1)
    }

    @Test func everyShardGetsWork() throws {
        // 150 scenarios over 4 shards (37.5 each on average): none is starved or overloaded.
        for index in 1...4 {
            let shard = try ShardSelector(index: index, count: 4)
            let share = Self.scenarios.filter { shard.includes(suitePath: $0.suite, scenarioName: $0.name) }.count
            #expect((25...50).contains(share), "shard \(index)/4 got \(share) of 150")
        }
    }

    /// The split is a pure function of the two strings: pinned here, so a change to the hash or the key
    /// (which would reshuffle every CI's shards) fails this test.
    @Test func assignmentIsStableAcrossRunsAndMachines() throws {
        let pinned =
            Self.scenarios.prefix(30).map { scenario in
                "\(ShardSelector.shard(suitePath: scenario.suite, scenarioName: scenario.name, count: 4)) \(scenario.suite) \(scenario.name)"
            }.joined(separator: "\n") + "\n"
        try Support.expectGolden(pinned, "shards-of-4.txt")
        // Suite path and scenario name are separated, so moving text between them changes the key.
        #expect(
            ShardSelector.fnv1a64(Array("ab".utf8) + [0] + Array("c".utf8))
                != ShardSelector.fnv1a64(Array("a".utf8) + [0] + Array("bc".utf8)))
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
