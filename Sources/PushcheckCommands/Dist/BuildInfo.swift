import Foundation

/// The git commit a binary was built from, read at run time from its own ELF section `.pushcheck.build`.
///
/// SwiftPM cannot pass a string define, and a generated source file would either break a plain `swift build`
/// or, once written, leak a stale commit into later builds of other commits. So `make dist` adds the section to
/// the finished binary (`objcopy --add-section`, after `strip`): only the artifact that was built from that
/// commit carries it, and any relink (every plain `swift build`) drops it, which reads as commit `unknown`.
/// The section holds `key=value` lines: `commit=<40 hex>`, `date=<commit date, YYYY-MM-DD>`,
/// `tree=clean|modified` (uncommitted changes when it was built).
package struct BuildInfo: Sendable, Equatable {
    static let sectionName = ".pushcheck.build"

    var commit: String?
    package var date: String?
    package var modified = false

    /// This process's stamp, read once from `/proc/self/exe`.
    package static let current: BuildInfo = read(executable: "/proc/self/exe")

    /// The stamp of the binary at `path` (empty when it has none or cannot be read).
    package static func read(executable path: String) -> BuildInfo {
        guard let handle = FileHandle(forReadingAtPath: path) else { return BuildInfo() }
        defer { try? handle.close() }
        let bytes = ELFSection.contents(named: sectionName) { offset, count in
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count) else {
                return nil
            }
            return [UInt8](data)
        }
        return bytes.map { parse(String(decoding: $0, as: UTF8.self)) } ?? BuildInfo()
    }

    /// Parses the section's `key=value` lines; unknown keys are ignored, a malformed commit is dropped.
    static func parse(_ text: String) -> BuildInfo {
        var info = BuildInfo()
        for line in text.split(whereSeparator: \.isNewline) {
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq], value = String(line[line.index(after: eq)...])
            switch key {
            case "commit" where value.count == 40 && value.allSatisfy(\.isHexDigit): info.commit = value
            case "date" where !value.isEmpty: info.date = value
            case "tree": info.modified = value == "modified"
            default: break
            }
        }
        return info
    }

    /// `--version`'s line: `pushcheck 0.1.0 (commit <sha>, <date>)`, or says honestly that it is not known.
    func versionLine(_ version: String) -> String {
        guard let commit else { return "pushcheck \(version) (commit unknown: not built by make dist)" }
        var detail = "commit \(commit)"
        if modified { detail += " with uncommitted changes" }
        if let date { detail += ", \(date)" }
        return "pushcheck \(version) (\(detail))"
    }
}
