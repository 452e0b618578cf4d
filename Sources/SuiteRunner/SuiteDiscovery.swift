import Foundation

/// A path given to `pushcheck run` that cannot be used.
public enum DiscoveryError: Error, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case missing(String)
    /// A file was named explicitly but is not a suite file by extension.
    case notASuite(String)
    /// A path with a suite extension is a FIFO, socket or device: reading it could block for ever.
    case notARegularFile(String)

    public var description: String {
        switch self {
        case let .missing(path):
            return "\(path): no such file or directory. Pass suite files or directories (default: Suites/)."
        case let .notASuite(path):
            return "\(path): not a suite file. Suites are .yaml, .yml or .json files with a top-level 'scenarios:'."
        case let .notARegularFile(path):
            return "\(path): not a regular file (a FIFO, socket or device); pushcheck does not read it. "
                + "Remove it or rename it without the .yaml/.yml/.json extension."
        }
    }
}

/// Finds suite files under the paths given to `pushcheck run`.
public enum SuiteDiscovery {
    /// Extensions of suite files.
    public static let extensions: Set<String> = ["yaml", "yml", "json"]

    /// Directories skipped while walking: fixture pages, hidden directories.
    public static func isSkippedDirectory(_ name: String) -> Bool {
        name == "pages" || name == "__snapshots__" || name.hasPrefix(".")
    }

    /// Suite files under `paths`, sorted and without duplicates. Directories are walked recursively,
    /// skipping `pages/` and hidden entries; a file counts when its extension is a suite extension and
    /// `isSuiteFile` says so (include-only files such as shared app declarations do not). A file named
    /// explicitly must have a suite extension but is not checked with `isSuiteFile` (its load error is clearer).
    public static func find(
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

    private static func walk(
        _ directory: String, into found: inout Set<String>, isSuiteFile: (String) -> Bool
    ) throws(DiscoveryError) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = directory == "." ? entry : directory + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
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
