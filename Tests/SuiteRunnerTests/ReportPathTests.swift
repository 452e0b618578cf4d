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

    /// `--html` at a directory, a FIFO (as `/dev/null`, a special file) or in a read-only directory: exit 3 before any
    /// scenario runs, an HTML hint (not the JUnit one), and no "html report: PATH" line for a report never written.
    @Test func anUnusableHTMLPathIsFoundBeforeAnythingRuns() throws {
        let marker = NSTemporaryDirectory() + "/pushcheck-html-\(UUID().uuidString.prefix(8))"
        let ws = try CLIWorkspace([
            "suites/s.yaml": "scenarios:\n  - name: marks\n    steps: [{ run: \"touch \(marker)\" }]\n"
        ])
        defer {
            chmod(ws.dir.file("locked"), 0o755)
            ws.remove()
            unlink(marker)
        }
        try FileManager.default.createDirectory(atPath: ws.dir.file("somedir"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws.dir.file("locked"), withIntermediateDirectories: true)
        #expect(chmod(ws.dir.file("locked"), 0o555) == 0)
        #expect(mkfifo(ws.dir.file("fifo.html"), 0o644) == 0)
        for html in [ws.dir.file("somedir"), ws.dir.file("fifo.html"), ws.dir.file("locked/report.html")] {
            // Root writes through mode 555: run as a normal user meets the directory.
            let out = try ws.pushcheckWithFilePermissions(
                ["run", ws.dir.file("suites"), "--junit", ws.report, "--html", html])
            #expect(out.status == 3, "\(out)")
            #expect(out.stderr.contains("\(html): cannot write the report"), "\(out.stderr)")
            #expect(!out.stderr.contains("junit.xml") && !out.stdout.contains("html report:"), "\(out)")
            #expect(!FileManager.default.fileExists(atPath: marker), "a scenario ran before the HTML path was checked")
        }
        let fifo = try ws.pushcheck(["run", ws.dir.file("suites"), "--html", ws.dir.file("fifo.html")])
        #expect(fifo.stderr.contains("e.g. Reports/report.html"), "\(fifo.stderr)")
    }
}
