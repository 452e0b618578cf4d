/// Errors from writing, reading, merging and validating JUnit reports.
/// Each description names the file (and line, where there is one) and says what to do.
package enum ReportsError: Error, Equatable, CustomStringConvertible {
    /// The report could not be written (directory missing, permission denied, disk full).
    case writeFailed(path: String, reason: String)
    /// A report file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// A report file is not well-formed XML.
    case malformed(path: String, line: Int, reason: String)
    /// A report file is XML but not a JUnit report we understand (wrong root, missing attribute, bad number).
    case invalidReport(path: String, line: Int, reason: String)
    /// The same scenario (classname + name) appears twice: in one suite's plan, or across merged files
    /// (usually the same shard merged twice).
    case duplicateCase(classname: String, name: String, path: String, line: Int, firstPath: String)
    /// An HTML report's embedded data is missing, cut off, of another version or not what `run --html` writes.
    case invalidReportData(path: String, line: Int, reason: String)
    /// `merge` was given no files.
    case noInputs
    /// The reports record `shard i/N` but not every shard of N is among them: `missing` per shard count.
    case missingShards(missing: [Int: [Int]])
    /// The XSD itself could not be loaded.
    case schemaUnusable(path: String, reason: String)
    /// A document does not satisfy the XSD; one entry per violation, `line: message`.
    case schemaViolations(path: String, violations: [String])

    package var description: String {
        switch self {
        case let .writeFailed(path, reason):
            return "\(path): cannot write the report: \(reason). Check that the directory exists and is writable."
        case let .unreadable(path, reason):
            return "\(path): cannot read the report: \(reason). Check the path passed to merge-reports."
        case let .malformed(path, line, reason):
            return
                "\(path):\(line): not well-formed XML: \(reason). The shard may have been cut off; re-run that shard."
        case let .invalidReport(path, line, reason):
            return "\(path):\(line): not a JUnit report pushcheck can merge: \(reason)."
        case let .duplicateCase(classname, name, path, line, firstPath):
            return "\(path):\(line): scenario '\(name)' of \(classname) appears twice (first in \(firstPath)). "
                + "Give scenarios unique names within a suite; when merging, pass each junit-<i>-of-<N>.xml once."
        case let .invalidReportData(path, line, reason):
            return "\(path):\(line): cannot read the HTML report's data: \(reason)."
        case .noInputs:
            return "merge: no report files given. Pass the shard files, e.g. Reports/junit-*-of-*.xml."
        case let .missingShards(missing):
            let parts = missing.keys.sorted().map { count in
                let list = missing[count, default: []].map { "\($0)/\(count)" }
                return (list.count == 1 ? "shard " : "shards ") + list.joined(separator: ", ")
            }
            let one = parts.count == 1 && missing.values.first?.count == 1
            return "the reports are incomplete: \(parts.joined(separator: "; ")) "
                + (one ? "is missing (its" : "are missing (their")
                + " scenarios would be left out of the merged report). "
                + "Pass every shard's report (junit-<i>-of-<N>.xml or report-<i>-of-<N>.html), or re-run the missing shards."
        case let .schemaUnusable(path, reason):
            return "\(path): cannot load the XML schema: \(reason)."
        case let .schemaViolations(path, violations):
            return "\(path): does not match the schema:\n" + violations.joined(separator: "\n")
        }
    }
}
