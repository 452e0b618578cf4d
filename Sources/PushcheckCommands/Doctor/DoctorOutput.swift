import Doctor
import Foundation
import Provisioning
import PushModel
import Reports

/// Renders doctor's checks: the human report, JSON, and a JUnit `TestReport`.
enum DoctorOutput {
    /// Findings grouped by file; files with errors first, then warnings; within a file errors first.
    /// Files whose checks all passed are listed last with their count.
    /// With `verbose`, every passed check is listed by its title (what was verified) instead of counted.
    static func human(_ checks: [DoctorCheck], colors: Bool, verbose: Bool = false) -> String {
        func paint(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let findings = checks.flatMap(\.findings)
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        var files: [String] = []
        for check in checks where !files.contains(check.file) { files.append(check.file) }
        func rank(_ file: String) -> Int {
            let f = findings.filter { $0.file == file }
            return f.contains { $0.severity == .error } ? 0 : f.isEmpty ? 2 : 1
        }
        let ordered = files.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
            \.element)
        var lines: [String] = []
        for file in ordered {
            let fileChecks = checks.filter { $0.file == file }
            let fileFindings = findings.filter { $0.file == file }
            if fileFindings.isEmpty {
                lines.append(
                    paint("✓", "32") + " \(file) — \(fileChecks.count) check\(fileChecks.count == 1 ? "" : "s") passed")
                if verbose { lines += fileChecks.map { paint("  ✓ \($0.title)", "2") } }
                continue
            }
            lines.append(paint(file, "1"))
            let sorted = fileFindings.filter { $0.severity == .error } + fileFindings.filter { $0.severity == .warning }
            for f in sorted {
                let label = f.severity == .error ? paint("✗ error", "31") : paint("! warning", "33")
                lines.append("  \(label) \(f.id): \(f.cause)")
                lines.append("      breaks:  \(f.breaks)")
                lines.append("      symptom: \(f.symptom)")
                lines.append("      fix:     \(f.fix)")
            }
            let passed = fileChecks.filter(\.passed)
            if verbose {
                lines += passed.map { paint("  ✓ \($0.title)", "2") }
            } else if !passed.isEmpty {
                lines.append(paint("  ✓ \(passed.count) other check\(passed.count == 1 ? "" : "s") passed", "2"))
            }
            lines.append("")
        }
        if lines.last == "" { lines.removeLast() }
        let passed = checks.filter(\.passed).count
        lines.append("")
        lines.append(
            "\(checks.count) check\(checks.count == 1 ? "" : "s"): \(passed) passed, \(errors) error\(errors == 1 ? "" : "s"), "
                + "\(warnings) warning\(warnings == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    static func json(_ checks: [DoctorCheck]) -> JSONValue {
        func finding(_ f: DoctorFinding) -> JSONValue {
            .object([
                "id": .string(f.id), "severity": .string(f.severity.rawValue), "file": .string(f.file),
                "cause": .string(f.cause), "breaks": .string(f.breaks), "symptom": .string(f.symptom),
                "fix": .string(f.fix),
            ])
        }
        let findings = checks.flatMap(\.findings)
        return .object([
            "ok": .bool(!findings.contains { $0.severity == .error }),
            "checks": .array(
                checks.map { c in
                    .object([
                        "id": .string(c.id), "title": .string(c.title), "file": .string(c.file),
                        "passed": .bool(c.passed), "findings": .array(c.findings.map(finding)),
                    ])
                }),
            "findings": .array(findings.map(finding)),
        ])
    }

    /// One suite `pushcheck doctor`, one testcase per check (classname = the file). An error-level
    /// finding is a `<failure>`; a warning-only check passes with the warning in `<system-out>`.
    static func junit(_ checks: [DoctorCheck], timestamp: Date) -> TestReport {
        let cases = checks.map { check -> TestCaseReport in
            let text = check.findings.map { f in
                "\(f.severity.rawValue) \(f.id): \(f.cause)\nbreaks: \(f.breaks)\nsymptom: \(f.symptom)\nfix: \(f.fix)"
            }.joined(separator: "\n\n")
            let errors = check.findings.filter { $0.severity == .error }
            let outcome: CaseOutcome =
                errors.isEmpty
                ? .passed
                : .failure(
                    ProblemReport(
                        message: errors.map { "\($0.id): \($0.cause)" }.joined(separator: "; "),
                        type: errors[0].id, detail: text))
            return TestCaseReport(
                classname: "doctor." + check.file, name: "\(check.id): \(check.title)", time: 0, outcome: outcome,
                systemOut: errors.isEmpty ? text : "")
        }
        let suite = TestSuiteReport(
            name: "pushcheck doctor", timestamp: timestamp, hostname: TestReport.currentHostname(), cases: cases)
        return TestReport(name: "pushcheck doctor", timestamp: timestamp, hostname: suite.hostname, suites: [suite])
    }
}
