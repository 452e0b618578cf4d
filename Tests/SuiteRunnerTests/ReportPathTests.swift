import Foundation
import PushcheckTestSupport
import Testing

/// `pushcheck run`'s report paths, checked before anything runs: no report replaces the other or a suite file, and
/// an unusable one is found up front, not after every scenario ran.
@Suite(.serialized) struct ReportPathTests {
    /// `--junit P --html P` (also through a symlink or `..`), and a report path naming a suite file being run: exit 2
    /// with one line saying which, and nothing written.
    @Test func aReportPathMayNotBeTheOtherReportOrASuite() throws {
        let ws = try CLIWorkspace(["suites/ok.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let suite = ws.dir.file("suites/ok.yaml")
        let original = try String(contentsOfFile: suite, encoding: .utf8)
        let same = try ws.pushcheck([
            "run", ws.dir.file("suites"), "--junit", ws.dir.file("out/r.xml"), "--html",
            ws.dir.file("out/../out/r.xml"),
        ])
        #expect(same.status == 2, "\(same)")
        #expect(same.stderr.split(separator: "\n").count == 1, "\(same.stderr)")
        #expect(same.stderr.contains("--junit") && same.stderr.contains("--html"), "\(same.stderr)")
        #expect(same.stderr.contains("same file"), "\(same.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.dir.file("out/r.xml")))

        #expect(symlink(ws.dir.file("suites/ok.yaml"), ws.dir.file("link.xml")) == 0)
        for arguments in [["--junit", suite], ["--html", suite], ["--junit", ws.dir.file("link.xml")]] {
            let out = try ws.pushcheck(["run", ws.dir.file("suites")] + arguments)
            #expect(out.status == 2, "\(out)")
            #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
            #expect(out.stderr.contains("is the suite file \(suite)"), "\(out.stderr)")
            #expect(try String(contentsOfFile: suite, encoding: .utf8) == original, "the suite was overwritten")
        }
    }
}
