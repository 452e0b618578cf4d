import Foundation

/// h2spec (the HTTP/2 conformance suite, 146 cases) against one listener. The binary is built once into
/// `.build/h2spec/h2spec` by `make h2spec` (`make test` does it first); `PUSHCHECK_H2SPEC` names another one.
package enum H2Spec {
    /// What one run found.
    package struct Result: Sendable, CustomStringConvertible {
        /// h2spec's summary line, e.g. `146 tests, 146 passed, 0 skipped, 0 failed`.
        package var summary: String
        /// Each failing case as h2spec's spec id and its number in the section, with its title and what h2spec
        /// expected and saw: `http2/5.1 #8 closed: Sends a DATA frame after sending RST_STREAM frame — …`.
        package var failures: [String]
        /// The whole output, when the run did not end with a summary.
        package var output: String

        package var passed: Bool { failures.isEmpty && summary.hasSuffix(" 0 failed") }
        package var description: String {
            let lines = [summary] + failures.map { "  × " + $0 }
            return lines.joined(separator: "\n") + (failures.isEmpty && !passed ? "\n" + output : "")
        }
    }

    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Why the h2spec tests cannot run here: `make` sets it when h2spec's build script (kept outside the repo, in the
    /// shared tools) is nowhere to be found. The tests then show as skipped with this reason, never silently; a
    /// binary that should exist but does not is still a failure (`binary()`).
    package static var skipReason: String? { ProcessInfo.processInfo.environment["PUSHCHECK_H2SPEC_SKIP"] }

    /// The h2spec binary, or an error saying how to get it.
    package static func binary() throws -> String {
        let path = ProcessInfo.processInfo.environment["PUSHCHECK_H2SPEC"] ?? repoRoot + "/.build/h2spec/h2spec"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ToolError.failed(
                ToolOutput(
                    command: ["h2spec"], status: 127, stdoutBytes: [],
                    stderr: "no h2spec at \(path): run `make h2spec` (make test does), or set PUSHCHECK_H2SPEC",
                    timedOut: false))
        }
        return path
    }

    /// Runs every case against `url` (`https://…` over TLS, certificate not verified; `http://…` as h2c with prior
    /// knowledge), on the path of `url` if it has one.
    package static func run(_ url: String, timeout: TimeInterval = 240) throws -> Result {
        guard let u = URL(string: url), let host = u.host, let port = u.port else {
            return Result(summary: "bad URL \(url)", failures: ["bad URL"], output: "")
        }
        var args = ["-h", host, "-p", String(port), "-o", "2"]
        if u.scheme == "https" { args += ["-t", "-k"] }
        if !u.path.isEmpty { args += ["-P", u.path] }
        let out = try runTool(try binary(), args, timeout: timeout)
        return parse(out.stdout)
    }

    /// Reads h2spec's plain-text report: the summary line and the "Failures:" section at its end.
    package static func parse(_ text: String) -> Result {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        let summary =
            lines.last {
                $0.range(of: #"^\d+ tests, \d+ passed, \d+ skipped, \d+ failed$"#, options: .regularExpression) != nil
            }
            ?? "no summary line"
        let groups = [
            "Generic tests for HTTP/2 server": "generic", "Hypertext Transfer Protocol Version 2 (HTTP/2)": "http2",
            "HPACK: Header Compression for HTTP/2": "hpack",
        ]
        var failures: [String] = []
        var group = "?", section = "?"
        let start = (lines.firstIndex { $0.hasPrefix("Failures:") } ?? lines.count) + 1
        var i = start
        while i < lines.count {
            let line = lines[i]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let g = groups[line] {
                group = g
            } else if let r = trimmed.range(of: #"^\d+(\.\d+)*\. "#, options: .regularExpression) {
                section = String(trimmed[r].dropLast(2))
            } else if trimmed.hasPrefix("× "), let colon = trimmed.firstIndex(of: ":") {
                let number = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<colon]
                let title = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                // The lines up to the next blank one: the requirement, Expected and Actual.
                var detail: [String] = []
                var j = i + 1
                while j < lines.count, !lines[j].trimmingCharacters(in: .whitespaces).isEmpty,
                    !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("× ")
                {
                    detail.append(lines[j].trimmingCharacters(in: .whitespaces))
                    j += 1
                }
                failures.append("\(group)/\(section) #\(number) \(title) — \(detail.joined(separator: " "))")
                i = j
                continue
            }
            i += 1
        }
        let clean = failures.isEmpty && summary.hasSuffix(" 0 failed")
        return Result(summary: summary, failures: failures, output: clean ? "" : text)
    }
}
