import Foundation
import PushModel

/// The files a run's reports go to, checked against each other and against the suites before anything runs: a
/// report written over the other report, or over a suite file of the run, would lose it without a word.
enum ReportTargets {
    /// Why the report paths cannot be used (nil when they can): `--junit` and `--html` name one file, or one of them
    /// names a suite file of the run. Paths are compared as the files they name: symbolic links followed, `.` and `..`
    /// resolved, hard links by inode.
    static func conflict(junit: String, html: String?, suites: [String]) -> String? {
        let junitFile = FileIdentity(junit)
        let htmlFile = html.map(FileIdentity.init)
        if let html, let htmlFile, htmlFile == junitFile {
            return "--junit \(junit) and --html \(html) are the same file: the HTML report would replace the JUnit "
                + "report. Give them different paths, e.g. --junit Reports/junit.xml --html Reports/report.html."
        }
        let reports =
            [("--junit", junit, junitFile, "Reports/junit.xml")]
            + (html.map { [("--html", $0, htmlFile ?? FileIdentity($0), "Reports/report.html")] } ?? [])
        for suite in suites {
            let suiteFile = FileIdentity(suite)
            for (option, path, file, example) in reports where file == suiteFile {
                return "\(option) \(path) is the suite file \(suite): the report would replace it. "
                    + "Write the report elsewhere, e.g. \(option) \(example)."
            }
        }
        return nil
    }

    /// A path as the file it names: the real path of what exists (or of the directory it would be made in), and the
    /// device and inode of an existing file.
    struct FileIdentity: Equatable {
        let path: String
        let inode: [UInt64]?

        init(_ path: String) {
            var current = path
            // A dangling symbolic link names the file a write would create: follow it by hand.
            for _ in 0..<40 {
                var info = stat()
                guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                    let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
                else { break }
                let directory = PathText.directory(of: current)
                current = target.hasPrefix("/") || directory.isEmpty ? target : directory + "/" + target
            }
            var info = stat()
            inode = stat(current, &info) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
            let absolute = URL(fileURLWithPath: current).standardizedFileURL
            let directory = absolute.deletingLastPathComponent().path
            let real = realpath(directory, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            }
            self.path = (real ?? directory) + "/" + absolute.lastPathComponent
        }

        static func == (a: FileIdentity, b: FileIdentity) -> Bool {
            if let x = a.inode, let y = b.inode { return x == y }
            return a.path == b.path
        }
    }
}
