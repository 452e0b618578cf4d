import Foundation
import PushcheckTestSupport
@testable import Reports
import Testing

/// Issue 13, runner side: each case sent as the attack was — the built `pushcheck` binary as a
/// subprocess, real child processes, real signals, real special files.
@Suite(.serialized) struct HardeningTests {
    // MARK: 1. bounded output

    /// 200 MB of stdout: the transcript keeps the first and last 256 KiB with an exact count of what was
    /// dropped in between, and pushcheck's peak RSS stays far below the output size.
    @Test func runStepOutputIsKeptAsBoundedHeadAndTail() throws {
        let size = 200_000_000
        let ws = try CLIWorkspace([
            "suites/big.yaml": """
            scenarios:
              - name: chatty
                steps:
                  - run: "yes | head -c \(size)"
                    expect: { exit: 0 }
            """
        ])
        defer { ws.remove() }
        let rssFile = ws.dir.file("rss")
        let out = try runTool(
            "/usr/bin/time",
            [
                "-f", "%M", "-o", rssFile, pushcheckExecutable(), "run", ws.dir.file("suites"),
                "--junit", ws.report,
            ], timeout: 120)
        #expect(out.status == 0, "\(out)")
        let kept = 2 * 256 * 1024
        let dropped = size - kept
        let transcript = try ws.readReport().allCases.first?.systemOut ?? ""
        // "y\n" repeated, and the head ends on an even offset: half the dropped bytes are line breaks.
        #expect(transcript.contains("pushcheck dropped \(dropped) bytes (\(dropped / 2) line breaks) of stdout"))
        let rssKiB =
            Int(try String(contentsOfFile: rssFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
            ?? .max
        #expect(rssKiB < 150_000, "peak RSS \(rssKiB) KiB for \(size / 1_000_000) MB of output")
    }

    // MARK: 2. runs that always end

    /// A script that leaves a `setsid` grandchild (its own session, stdout still the step's pipe) and
    /// writes the grandchild's pid to `pidfile`; with `wait`, the shell also waits for it.
    private func grandchildScript(_ ws: CLIWorkspace, wait: Bool) throws -> (script: String, pidfile: String) {
        let pidfile = ws.dir.file("grandchild.pid")
        let script = try ws.dir.write(
            "grandchild.sh",
            """
            setsid sh -c 'echo $$ > "$0"; exec sleep 300' "\(pidfile)" &
            while [ ! -s "\(pidfile)" ]; do sleep 0.05; done
            echo started
            \(wait ? "wait" : "")
            """)
        return (script, pidfile)
    }

    private func waitForPid(_ pidfile: String) -> pid_t? {
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: pidfile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            usleep(50_000)
        }
        return nil
    }

    /// Gone, or a zombie nobody has reaped yet: either way it runs no more.
    private func isDead(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state == "Z" || state == "X"
    }

    /// The shell waits for a grandchild that left its session: the step timeout fires (1 s) and the
    /// grandchild is killed with it.
    @Test func stepTimeoutFiresAndKillsASetsidGrandchild() throws {
        let ws = try CLIWorkspace(["suites/.keep": ""])
        defer { ws.remove() }
        let (script, pidfile) = try grandchildScript(ws, wait: true)
        _ = try ws.dir.write(
            "suites/hang.yaml", "scenarios:\n  - name: hangs\n    steps:\n      - run: \"sh \(script)\"\n")
        let out = try ws.run(["--step-timeout", "1s"], timeout: 60)
        #expect(out.status == 3, "\(out)")
        guard case let .error(problem)? = outcome(named: "hangs", in: try ws.readReport()) else {
            Issue.record("hangs should be a timeout error")
            return
        }
        #expect(problem.type == "timeout")
        let pid = try #require(waitForPid(pidfile))
        #expect(isDead(pid), "grandchild \(pid) outlived pushcheck")
    }

    /// The shell exits at once but the grandchild keeps the step's stdout open: the step ends when the
    /// shell does (it used to wait for the pipe forever) and the grandchild is killed.
    @Test func aLeftoverGrandchildDoesNotHoldTheStepOpen() throws {
        let ws = try CLIWorkspace(["suites/.keep": ""])
        defer { ws.remove() }
        let (script, pidfile) = try grandchildScript(ws, wait: false)
        _ = try ws.dir.write(
            "suites/leave.yaml",
            "scenarios:\n  - name: leaves\n    steps:\n      - run: \"sh \(script)\"\n        expect: { exit: 0 }\n")
        let out = try ws.run(["--step-timeout", "120s"], timeout: 60)
        #expect(out.status == 0, "\(out)")
        #expect(outcome(named: "leaves", in: try ws.readReport()) == .passed)
        let pid = try #require(waitForPid(pidfile))
        #expect(isDead(pid), "grandchild \(pid) outlived pushcheck")
    }

    // MARK: 3. nothing silently skipped

    /// A file of invalid UTF-8 and a binary file among the suites of a directory: exit 2, each named
    /// with file:line:col, as when named directly.
    @Test func undecodableSuiteFilesInADirectoryAreErrors() throws {
        let ws = try CLIWorkspace(["suites/good.yaml": SampleSuites.passing])
        defer { ws.remove() }
        _ = try ws.dir.write("suites/latin1.yaml", Array("scenarios:\n  - name: caf".utf8) + [0xE9, 0x0A])
        _ = try ws.dir.write("suites/image.yml", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
        let out = try ws.run()
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains(ws.dir.file("suites/latin1.yaml") + ":2:"), "\(out.stderr)")
        #expect(out.stderr.contains(ws.dir.file("suites/image.yml") + ":1:"), "\(out.stderr)")
        let direct = try ws.pushcheck(["run", ws.dir.file("suites/latin1.yaml"), "--junit", ws.report])
        #expect(direct.status == 2)
    }

    /// A FIFO named like a suite in the directory: exit 2 naming it (reading it would block the run).
    @Test func aFifoAmongTheSuitesIsAnErrorNotAHang() throws {
        let ws = try CLIWorkspace(["suites/good.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let fifo = ws.dir.file("suites/pipe.yaml")
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = try ws.run([], timeout: 60)
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("\(fifo): not a regular file"), "\(out.stderr)")
    }

    /// A dangling `*.yaml` symlink and a symlink loop in the walked directory: exit 2 naming each as
    /// `path: reason`, nothing run, instead of the suite being silently skipped.
    @Test func aDanglingSuiteSymlinkIsAnErrorNotSkipped() throws {
        let ws = try CLIWorkspace(["suites/good.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let link = ws.dir.file("suites/nested/gone.yaml")
        try FileManager.default.createDirectory(atPath: ws.dir.file("suites/nested"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../moved/away.yaml")
        let out = try ws.run([], timeout: 60)
        #expect(out.status == 2, "\(out)")
        #expect(
            out.stderr.contains(
                "\(link): symlink to '../moved/away.yaml' does not resolve (No such file or directory)"),
            "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.report), "nothing may run when a suite is unreadable")

        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "gone.yaml")
        let loop = try ws.run([], timeout: 60)
        #expect(loop.status == 2, "\(loop)")
        #expect(
            loop.stderr.contains(
                "\(link): symlink to 'gone.yaml' does not resolve (Too many levels of symbolic links)"),
            "\(loop.stderr)")
    }

    /// A sub-directory that cannot be listed (chmod 000): exit 2 with `dir: cannot list directory (Permission denied)`.
    /// Root reads through mode 000 (CAP_DAC_READ_SEARCH), so as root pushcheck runs under `setpriv` with the
    /// DAC-override capabilities dropped from its bounding set: the same open(2) failure a normal user meets.
    @Test func anUnreadableSubdirectoryIsAnErrorNotSkipped() throws {
        let ws = try CLIWorkspace([
            "suites/good.yaml": SampleSuites.passing, "suites/locked/hidden.yaml": SampleSuites.passing,
        ])
        defer {
            chmod(ws.dir.file("suites/locked"), 0o755)
            ws.remove()
        }
        let locked = ws.dir.file("suites/locked")
        #expect(chmod(locked, 0o000) == 0)
        let out = try ws.pushcheckWithFilePermissions(["run", ws.dir.file("suites"), "--junit", ws.report])
        #expect(out.status == 2, "\(out)")
        #expect(out.stderr.contains("\(locked): cannot list directory (Permission denied)"), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.report), "nothing may run when a directory is unreadable")
    }

    // MARK: 4. exit codes on signals

    /// Runs `suite` until every file in `markers` exists (the run: steps are running), then sends `signal`.
    private func interrupt(
        _ suite: String, markers: [String], in ws: CLIWorkspace, signal: Int32, jobs: Int
    ) throws -> (status: Int32?, stderr: String) {
        _ = try ws.dir.write("suites/s.yaml", suite)
        let child = try ChildProcess(
            pushcheckExecutable(), ["run", ws.dir.file("suites"), "--junit", ws.report, "--jobs", "\(jobs)"])
        let deadline = Date().addingTimeInterval(30)
        while !markers.allSatisfy({ FileManager.default.fileExists(atPath: $0) }), Date() < deadline {
            usleep(50_000)
        }
        #expect(markers.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "steps never started")
        let status = child.stop(signal: signal, timeout: 20)
        return (status, child.stderr)
    }

    private func sleeper(_ ws: CLIWorkspace, _ names: [String]) -> (suite: String, markers: [String]) {
        let markers = names.map { ws.dir.file("\($0).started") }
        let suite =
            "scenarios:\n"
            + zip(names, markers).map { name, marker in
                "  - name: \(name)\n    steps:\n      - run: { command: \"touch \(marker); sleep 60\", timeout: 120s }\n"
            }.joined()
        return (suite, markers)
    }

    private func expectInterruptedReport(_ ws: CLIWorkspace, _ names: [String]) throws {
        let report = try ws.readReport()
        for name in names {
            guard case let .error(problem)? = outcome(named: name, in: report) else {
                Issue.record(
                    "\(name) should be an interrupted error: \(String(describing: outcome(named: name, in: report)))")
                continue
            }
            #expect(problem.type == "interrupted")
        }
        try SchemaCheck.expectValid(ws.report)
    }

    /// SIGINT while the only scenario's run: step runs: 130 (it used to be 3), report intact.
    @Test func sigintDuringARunStepExits130() throws {
        let ws = try CLIWorkspace(["suites/.keep": ""])
        defer { ws.remove() }
        let (suite, markers) = sleeper(ws, ["sleeps"])
        let (status, stderr) = try interrupt(suite, markers: markers, in: ws, signal: SIGINT, jobs: 1)
        #expect(status == 130, "stderr: \(stderr)")
        #expect(stderr.contains("SIGINT"), "\(stderr)")
        try expectInterruptedReport(ws, ["sleeps"])
    }

    /// SIGTERM: 143 and a message naming SIGTERM (it said "Ctrl-C" and exited 3).
    @Test func sigtermExits143AndSaysSo() throws {
        let ws = try CLIWorkspace(["suites/.keep": ""])
        defer { ws.remove() }
        let (suite, markers) = sleeper(ws, ["sleeps"])
        let (status, stderr) = try interrupt(suite, markers: markers, in: ws, signal: SIGTERM, jobs: 1)
        #expect(status == 143, "stderr: \(stderr)")
        #expect(stderr.contains("SIGTERM received"), "\(stderr)")
        #expect(!stderr.contains("Ctrl-C"), "\(stderr)")
        try expectInterruptedReport(ws, ["sleeps"])
    }

    /// `--jobs 2` with both scenarios running: SIGINT → 130, both interrupted in the report.
    @Test func sigintWithTwoJobsExits130() throws {
        let ws = try CLIWorkspace(["suites/.keep": ""])
        defer { ws.remove() }
        let (suite, markers) = sleeper(ws, ["first", "second"])
        let (status, stderr) = try interrupt(suite, markers: markers, in: ws, signal: SIGINT, jobs: 2)
        #expect(status == 130, "stderr: \(stderr)")
        try expectInterruptedReport(ws, ["first", "second"])
    }

    /// SIGTERM while a step's setsid grandchild runs: nothing the run started outlives pushcheck.
    @Test func noGrandchildOutlivesASignalledRun() throws {
        let ws = try CLIWorkspace(["suites/.keep": ""])
        defer { ws.remove() }
        let (script, pidfile) = try grandchildScript(ws, wait: true)
        let suite =
            "scenarios:\n  - name: hangs\n    steps:\n      - run: { command: \"sh \(script)\", timeout: 120s }\n"
        let (status, stderr) = try interrupt(suite, markers: [pidfile], in: ws, signal: SIGTERM, jobs: 1)
        #expect(status == 143, "stderr: \(stderr)")
        let pid = try #require(waitForPid(pidfile))
        #expect(isDead(pid), "grandchild \(pid) outlived pushcheck")
    }

    // MARK: 5. report path safety

    /// A character device (made here with mknod, like /dev/full) and a FIFO as --junit: exit 3 before
    /// anything runs, and the node is still what it was (never opened: a FIFO would block a writer).
    @Test func specialFilesAreNeverReplaced() throws {
        let ws = try CLIWorkspace(["suites/ok.yaml": SampleSuites.passing])
        defer { ws.remove() }
        let fifo = ws.dir.file("report.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        var targets = [(fifo, S_IFIFO)]
        let device = ws.dir.file("full")
        if getuid() == 0, (try? runTool("mknod", [device, "c", "1", "7"]))?.status == 0 {
            targets.append((device, S_IFCHR))
        }
        for (path, type) in targets {
            let out = try ws.pushcheck(["run", ws.dir.file("suites"), "--junit", path], timeout: 30)
            #expect(out.status == 3, "\(out)")
            #expect(out.stderr.contains("not a regular file"), "\(out.stderr)")
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == type, "\(path) was replaced")
        }
    }

    /// A symbolic link as --junit is written through: the target gets the report, the link stays a link.
    /// A link to a special file is refused like the file itself.
    @Test func symlinksAreWrittenThroughOrRefused() throws {
        let ws = try CLIWorkspace(["suites/ok.yaml": SampleSuites.passing])
        defer { ws.remove() }
        try FileManager.default.createDirectory(atPath: ws.dir.file("real"), withIntermediateDirectories: true)
        let link = ws.dir.file("junit-link.xml")
        #expect(symlink("real/junit.xml", link) == 0)
        let out = try ws.pushcheck(["run", ws.dir.file("suites"), "--junit", link], timeout: 60)
        #expect(out.status == 0, "\(out)")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link was replaced")
        #expect(try ws.readReport(ws.dir.file("real/junit.xml")).totals.tests == 2)

        let fifo = ws.dir.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let toFifo = ws.dir.file("to-fifo.xml")
        #expect(symlink(fifo, toFifo) == 0)
        let refused = try ws.pushcheck(["run", ws.dir.file("suites"), "--junit", toFifo], timeout: 30)
        #expect(refused.status == 3, "\(refused)")
        #expect(lstat(toFifo, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    /// `kill -9` right after the console printed a scenario's result: the report on disk has it (the
    /// console announces a result only once a report write containing it has finished).
    @Test func killNineKeepsWhatTheConsoleShowed() throws {
        let ws = try CLIWorkspace(["suites/slow.yaml": SampleSuites.slow])
        defer { ws.remove() }
        let child = try ws.startSlowSuiteAfterQuick()
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
        #expect(outcome(named: "quick", in: try ws.readReport()) == .passed)
    }
}
