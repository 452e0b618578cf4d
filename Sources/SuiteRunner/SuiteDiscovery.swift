import Foundation

/// A path given to `pushcheck run` that cannot be used.
package enum DiscoveryError: Error, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case missing(String)
    /// A file was named explicitly but is not a suite file by extension.
    case notASuite(String)
    /// A path with a suite extension is a FIFO, socket or device: reading it could block for ever.
    case notARegularFile(String)
    /// A directory that cannot be listed, or a suite-named entry that cannot be followed (a dangling symlink,
    /// a symlink loop, an entry gone mid-walk), under a directory being walked: the suites in it would be missed.
    case unreadable(path: String, reason: String)

    package var description: String {
        switch self {
        case let .missing(path):
            return "\(path): no such file or directory. Pass suite files or directories (default: Suites/)."
        case let .notASuite(path):
            return "\(path): not a suite file. Suites are .yaml, .yml or .json files with a top-level 'scenarios:'."
        case let .notARegularFile(path):
            return "\(path): not a regular file (a FIFO, socket or device); pushcheck does not read it. "
                + "Remove it or rename it without the .yaml/.yml/.json extension."
        case let .unreadable(path, reason):
            return "\(path): \(reason); pushcheck cannot read it, so suites there would be missed. "
                + "Fix its permissions or target, or remove it."
        }
    }
}

/// Finds suite files under the paths given to `pushcheck run`.
package enum SuiteDiscovery {
    /// Extensions of suite files.
    package static let extensions: Set<String> = ["yaml", "yml", "json"]

    /// Directories skipped while walking: fixture pages, hidden directories.
    static func isSkippedDirectory(_ name: String) -> Bool {
        name == "pages" || name == "__snapshots__" || name.hasPrefix(".")
    }

    /// Suite files under `paths`, sorted and without duplicates. Directories are walked recursively,
    /// skipping `pages/` and hidden entries; a file counts when its extension is a suite extension and
    /// `isSuiteFile` says so (world files such as shared app declarations, serve configs and JSON Schemas do not; a
    /// file that is none of them counts, so that loading it reports what is wrong). A file named
    /// explicitly must have a suite extension but is not checked with `isSuiteFile` (its load error is clearer).
    package static func find(
        paths: [String], isSuiteFile: (String) -> Bool
    ) throws(DiscoveryError) -> [String] {
        var found: Set<String> = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
            if !isDirectory.boolValue {
                guard hasSuiteExtension(path) else { throw .notASuite(path) }
                guard isRegularFile(path) else { throw .notARegularFile(path) }
                found.insert(normalized(path))
                continue
            }
            try walk(normalized(path), into: &found, isSuiteFile: isSuiteFile)
        }
        return found.sorted()
    }

    static func hasSuiteExtension(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// `./Suites//a.yaml` → `Suites/a.yaml`; keeps relative paths relative.
    static func normalized(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty { return path.hasPrefix("/") ? "/" : "." }
        let joined = parts.joined(separator: "/")
        parts.removeAll()
        return path.hasPrefix("/") ? "/" + joined : joined
    }

    /// True for a regular file (after following symlinks); false for a FIFO, socket or device node.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Why `path` could not be opened as a directory, from `opendir`'s errno.
    private static func failure(opendir path: String) -> String {
        guard let handle = opendir(path) else { return String(cString: strerror(errno)) }
        closedir(handle)
        return "it changed while being read"
    }

    /// Why a listed entry does not resolve: a dangling symlink (naming its target), a loop, or gone.
    private static func unresolvedReason(_ path: String) -> String {
        var info = stat()
        let error = stat(path, &info) == 0 ? 0 : errno
        let cause = error == 0 ? "it changed while being read" : String(cString: strerror(error))
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            return "symlink to '\(target)' does not resolve (\(cause))"
        }
        return "listed but cannot be opened (\(cause))"
    }

    private static func walk(
        _ directory: String, into found: inout Set<String>, isSuiteFile: (String) -> Bool
    ) throws(DiscoveryError) {
        // An unlistable directory (no permission, gone mid-walk) is an error: skipping it would run fewer
        // suites than asked and still pass.
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw .unreadable(path: directory, reason: "cannot list directory (\(failure(opendir: directory)))")
        }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = directory == "." ? entry : directory + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                // A suite-named entry that does not resolve is refused by name; other names are not suites.
                if hasSuiteExtension(entry) { throw .unreadable(path: path, reason: unresolvedReason(path)) }
                continue
            }
            if isDirectory.boolValue {
                if !isSkippedDirectory(entry) { try walk(path, into: &found, isSuiteFile: isSuiteFile) }
            } else if hasSuiteExtension(entry) {
                // Opening a FIFO would block the run before it starts: refuse it by name instead.
                guard isRegularFile(path) else { throw .notARegularFile(path) }
                guard isSuiteFile(path) else { continue }
                found.insert(path)
            }
        }
    }
}
