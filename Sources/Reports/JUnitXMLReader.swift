import Foundation
import XMLSupport

/// Reads JUnit XML (ours, or any `testsuites`/`testsuite` document in the common shape) into a `TestReport`.
///
/// Counts written in the file are ignored: totals are always recomputed from the cases.
/// Run-level properties are not distinguishable from suite properties in the file, so everything
/// read lands in the suites' `properties` and the report's own `properties` stays empty.
package enum JUnitXMLReader {
    /// Reads and parses the file at `url`.
    package static func read(contentsOf url: URL) throws(ReportsError) -> TestReport {
        try readLocated(contentsOf: url).report
    }

    /// Parses XML `bytes`; `path` is used in error messages and as the fallback timestamp source.
    package static func parse(_ bytes: [UInt8], path: String) throws(ReportsError) -> TestReport {
        try parseLocated(bytes, path: path, fallbackDate: Date(timeIntervalSince1970: 0)).report
    }

    /// A report plus the source line of every case (`caseLines[suite][case]`), for messages.
    struct Located {
        var report: TestReport
        var caseLines: [[Int]]
        var path: String
    }

    static func readLocated(contentsOf url: URL) throws(ReportsError) -> Located {
        let path = url.path
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(path: path, reason: describeReadError(error, path: path))
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
        return try parseLocated([UInt8](data), path: path, fallbackDate: modified ?? Date(timeIntervalSince1970: 0))
    }

    static func parseLocated(_ bytes: [UInt8], path: String, fallbackDate: Date) throws(ReportsError) -> Located {
        let root: XMLElementNode
        do { root = try XMLTree.parse(bytes, sourceName: path) } catch {
            throw .malformed(path: path, line: error.line, reason: error.message)
        }
        let suiteNodes: [XMLElementNode]
        switch root.name {
        case "testsuites": suiteNodes = root.children.filter { $0.name == "testsuite" }
        case "testsuite": suiteNodes = [root]
        default:
            throw .invalidReport(
                path: path, line: root.line,
                reason: "the root element is <\(root.name)>, expected <testsuites> or <testsuite>")
        }
        var suites: [TestSuiteReport] = []
        var caseLines: [[Int]] = []
        for node in suiteNodes {
            let (suite, lines) = try readSuite(node, path: path, fallbackDate: fallbackDate)
            suites.append(suite)
            caseLines.append(lines)
        }
        let timestamp = suites.map(\.timestamp).min() ?? fallbackDate
        let report = TestReport(
            name: root.name == "testsuites" ? (root.attributes["name"] ?? "pushcheck") : "pushcheck",
            timestamp: timestamp, hostname: suites.first?.hostname ?? "localhost", suites: suites)
        return Located(report: report, caseLines: caseLines, path: path)
    }

    private static func readSuite(
        _ node: XMLElementNode, path: String, fallbackDate: Date
    ) throws(ReportsError) -> (TestSuiteReport, [Int]) {
        guard let name = node.attributes["name"], !name.isEmpty else {
            throw .invalidReport(path: path, line: node.line, reason: "<testsuite> has no name attribute")
        }
        var timestamp = fallbackDate
        if let text = node.attributes["timestamp"] {
            guard let parsed = parseTimestamp(text) else {
                throw .invalidReport(
                    path: path, line: node.line, reason: "timestamp '\(text)' is not ISO 8601 (YYYY-MM-DDTHH:MM:SS)")
            }
            timestamp = parsed
        }
        var suite = TestSuiteReport(
            name: name, file: node.attributes["file"], timestamp: timestamp,
            hostname: node.attributes["hostname"] ?? "localhost")
        var lines: [Int] = []
        for child in node.children {
            switch child.name {
            case "properties":
                for property in child.children where property.name == "property" {
                    guard let propertyName = property.attributes["name"] else {
                        throw .invalidReport(
                            path: path, line: property.line, reason: "<property> has no name attribute")
                    }
                    suite.properties.append(ReportProperty(propertyName, property.attributes["value"] ?? property.text))
                }
            case "testcase":
                suite.cases.append(try readCase(child, suiteName: name, path: path))
                lines.append(child.line)
            case "system-out": suite.systemOut = child.text
            case "system-err": suite.systemErr = child.text
            default: break
            }
        }
        return (suite, lines)
    }

    private static func readCase(_ node: XMLElementNode, suiteName: String, path: String) throws(ReportsError)
        -> TestCaseReport
    {
        guard let name = node.attributes["name"] else {
            throw .invalidReport(path: path, line: node.line, reason: "<testcase> has no name attribute")
        }
        var time = 0.0
        if let text = node.attributes["time"] {
            guard let seconds = parseSeconds(text) else {
                throw .invalidReport(
                    path: path, line: node.line,
                    reason: "time '\(text)' of testcase '\(name)' is not a number of seconds")
            }
            time = seconds
        }
        var line: Int?
        if let text = node.attributes["line"] {
            guard let value = Int(text), value > 0 else {
                throw .invalidReport(
                    path: path, line: node.line,
                    reason: "line '\(text)' of testcase '\(name)' is not a positive integer")
            }
            line = value
        }
        var testCase = TestCaseReport(
            classname: node.attributes["classname"] ?? suiteName, name: name, file: node.attributes["file"], line: line,
            time: time, outcome: .passed)
        var outcomeSeen = false
        for child in node.children {
            switch child.name {
            case "failure", "error", "skipped":
                guard !outcomeSeen else { continue }
                outcomeSeen = true
                let problem = ProblemReport(
                    message: child.attributes["message"] ?? "", type: child.attributes["type"] ?? child.name,
                    detail: child.text)
                switch child.name {
                case "failure": testCase.outcome = .failure(problem)
                case "error": testCase.outcome = .error(problem)
                default: testCase.outcome = .skipped(message: child.attributes["message"] ?? child.text)
                }
            case "flakyFailure", "rerunFailure", "flakyError", "rerunError":
                let problem = ProblemReport(
                    message: child.attributes["message"] ?? "", type: child.attributes["type"] ?? "failure",
                    detail: child.child("stackTrace")?.text ?? "")
                testCase.retries.append(
                    RetryAttempt(
                        kind: child.name.hasSuffix("Error") ? .error : .failure, problem: problem,
                        systemOut: child.child("system-out")?.text ?? "",
                        systemErr: child.child("system-err")?.text ?? ""))
            case "system-out": testCase.systemOut = child.text
            case "system-err": testCase.systemErr = child.text
            default: break
            }
        }
        return testCase
    }

    /// Seconds as a plain decimal (`1.5`, `0.001`, `12`); no locale commas.
    static func parseSeconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty,
            trimmed.allSatisfy({
                $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+")
            }),
            let value = Double(trimmed), value.isFinite, value >= 0
        else { return nil }
        return value
    }

    /// `YYYY-MM-DDTHH:MM:SS`, optionally with fractional seconds and `Z` or `±HH:MM` (UTC when absent).
    static func parseTimestamp(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        guard scalars.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(scalars[index]) else { return nil }
                value = value * 10 + Int(scalars[index] - 48)
            }
            return value
        }
        guard scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"), scalars[10] == UInt8(ascii: "T"),
            scalars[13] == UInt8(ascii: ":"), scalars[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < scalars.count, scalars[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < scalars.count, (48...57).contains(scalars[index]) {
                fraction += Double(scalars[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        if index < scalars.count {
            if scalars[index] == UInt8(ascii: "Z"), index + 1 == scalars.count {
                offsetSeconds = 0
            } else if scalars.count == index + 6,
                scalars[index] == UInt8(ascii: "+") || scalars[index] == UInt8(ascii: "-"),
                scalars[index + 3] == UInt8(ascii: ":"),
                let offsetHours = number(index + 1..<index + 3), let offsetMinutes = number(index + 4..<index + 6)
            {
                let sign = scalars[index] == UInt8(ascii: "-") ? -1 : 1
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            } else {
                return nil
            }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = timegm(&parts)
        return Date(timeIntervalSince1970: Double(epoch - offsetSeconds) + fraction)
    }

    private static func describeReadError(_ error: any Error, path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        return (error as NSError).localizedDescription
    }
}
