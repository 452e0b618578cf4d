import Foundation
@testable import FuzzTargets
import Testing

/// Replays every checked-in fuzz input through its target, as `make fuzz` runs them: the seed corpus
/// (`Tests/Fuzz/corpus/<target>/`) and every crasher libFuzzer ever found (`Tests/Fuzz/crashers/<target>/`, kept
/// after the fix). A regression crashes or traps here.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func inputs(_ kind: String, _ target: String) -> [URL] {
        let dir = root.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().map { dir.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTargets.all.keys.sorted())
    func seedCorpusAndCrashersPass(_ target: String) throws {
        let corpus = Self.inputs("corpus", target)
        #expect(!corpus.isEmpty, "no seed corpus for \(target)")
        let run = try #require(FuzzTargets.all[target])
        for file in corpus + Self.inputs("crashers", target) {
            run(Array(try Data(contentsOf: file)))
        }
    }

    @Test func everyCrasherDirectoryNamesATarget() throws {
        let dir = Self.root.appendingPathComponent("crashers")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        for name in names where !name.hasPrefix(".") && name != "README.md" {
            #expect(FuzzTargets.all[name] != nil, "Tests/Fuzz/crashers/\(name) is not a fuzz target")
        }
    }
}
