import Foundation
import PushcheckTestSupport
import Testing
@testable import SuiteFormat
@testable import YAMLSource

/// Loading a suite with its scenarios deferred (`SuiteLoader.deferAbove` 0) gives what loading it whole gives: the same
/// scenarios, or the same first error, rendered alike. Checked on the repository's suites and on copies of them with a
/// few characters deleted, inserted or cut (seeded, so every run checks the same files): most of those are broken,
/// and a broken file must still be reported at the mistake a whole read meets first.
@Suite struct DeferredLoadingTests {
    /// What loading gives, as text to compare: each scenario's name and line, or the rendered error.
    static func outcome(_ path: String, deferAbove: Int) -> String {
        do {
            let (_, scenarios) = try SuiteLoader.load(path: path, root: nil, keepingDecoded: 0, deferAbove: deferAbove)
            return scenarios.map { loaded -> String in
                switch loaded {
                case .decoded(let s): "\(s.name)@\(s.line) \(s.tags) \(s.skipReason ?? "")"
                case .deferred(let s): "\(s.name)@\(s.line) \(s.tags) \(s.skipReason ?? "")"
                }
            }.joined(separator: "\n")
        } catch {
            return error.rendered()
        }
    }

    /// A small deterministic generator (the same files on every run).
    struct Mutator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        static let pieces = [
            "- ", "  ", ": ", "{", "}", "[", "]", ",", "\n", "#", "&a ", "*a", "!!str ", "\"", "'", "|\n", ">-\n", "\t",
            "é", "\r\n", "? ", "<<: ", "name: x\n", "    ", "steps: []\n", "- name: dup\n",
        ]
        /// `text` with one to three characters deleted, pieces inserted or runs cut.
        mutating func mutate(_ text: String) -> String {
            var scalars = Array(text.unicodeScalars)
            for _ in 0...next(3) {
                let at = next(scalars.count + 1)
                switch next(20) {
                case 0..<8: if at < scalars.count { scalars.remove(at: at) }
                case 8..<17: scalars.insert(contentsOf: Self.pieces[next(Self.pieces.count)].unicodeScalars, at: at)
                default: scalars.removeSubrange(at..<min(scalars.count, at + 1 + next(30)))
                }
            }
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars)
            return String(out)
        }
    }

    @Test func deferredLoadingGivesWhatWholeLoadingGives() throws {
        let dir = try TempDirectory("deferred-loading")
        defer { dir.remove() }
        // A copy of the suites, so that the files written beside them find their includes.
        let suites = dir.file("Suites")
        try FileManager.default.copyItem(atPath: SuiteFiles.suites, toPath: suites)
        let files = try #require(FileManager.default.subpaths(atPath: suites)).filter { $0.hasSuffix(".yaml") }.sorted()
        var mutator = Mutator(state: 44)
        var checked = 0
        var loaded = 0
        for file in files {
            let path = suites + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard text.contains("scenarios:") else { continue }
            var paths = [path]
            for n in 0..<12 {
                let mutated = (path as NSString).deletingPathExtension + "-mutated-\(n).yaml"
                try mutator.mutate(text).write(toFile: mutated, atomically: true, encoding: .utf8)
                paths.append(mutated)
            }
            for candidate in paths {
                let whole = Self.outcome(candidate, deferAbove: .max)
                #expect(Self.outcome(candidate, deferAbove: 0) == whole, "\(candidate)")
                checked += 1
                if !whole.hasPrefix("error") { loaded += 1 }
            }
        }
        // Enough of both kinds to mean something.
        #expect(checked > 200 && loaded > 30 && checked - loaded > 100, "\(checked) files, \(loaded) loaded")
    }

    /// Read whole, a file fails at its first item that cannot be built (here a duplicate key in the second scenario)
    /// before any scenario is checked; deferred, the first scenario's mistake is met first, and the loader looks for
    /// such an item before it reports it.
    @Test func anItemThatCannotBeBuiltIsReportedFirstAsAWholeReadReportsIt() throws {
        let path = try SuiteFiles.write(
            """
            scenarios:
              - name: first
                stpes: []
              - name: second
                steps: []
                steps: [tap]
            variables: { a: [1] }

            """)
        let whole = Self.outcome(path, deferAbove: .max)
        #expect(whole.contains("duplicate key 'steps'") && whole.contains(":6:5"))
        #expect(Self.outcome(path, deferAbove: 0) == whole)
    }
}
