import PushModel

/// The report data's case objects written straight as bytes, in the order `JSONValue` serializes them (keys sorted
/// by their UTF-8 bytes): the same bytes as `ReportData.caseJSON(c).serializedBytes()` without a `JSONValue` tree
/// (a dictionary per case and per trace event, built, sorted and freed once per case: ~6 % of a run's CPU). Members
/// that only failing cases have (checks, problems, retries) and the pictures still go through their `JSONValue`s.
extension ReportData {
    /// `caseJSON(c)` serialized.
    static func caseBytes(_ c: TestCaseReport) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(c.systemOut.utf8.count + 512 * (c.trace.count + 1))
        var o = JSONMembers()
        o.key("classname", &out)
        JSONValue.writeString(c.classname, into: &out)
        o.key("failures", &out)
        JSONMembers.array(c.checks, &out) { checkJSON($0).write(into: &$1) }
        if let file = c.file {
            o.key("file", &out)
            JSONValue.writeString(file, into: &out)
        }
        o.key("flaky", &out)
        JSONMembers.bool(c.isFlaky, &out)
        o.key("id", &out)
        JSONValue.writeString(caseID(c), into: &out)
        if let line = c.line {
            o.key("line", &out)
            JSONMembers.number(Double(line), &out)
        }
        o.key("name", &out)
        JSONValue.writeString(c.name, into: &out)
        var problem: ProblemReport?
        var skipped: String?
        o.key("outcome", &out)
        switch c.outcome {
        case .passed: JSONValue.writeString("passed", into: &out)
        case .failure(let p):
            JSONValue.writeString("failed", into: &out)
            problem = p
        case .error(let p):
            JSONValue.writeString("error", into: &out)
            problem = p
        case .skipped(let message):
            JSONValue.writeString("skipped", into: &out)
            skipped = message
        }
        if let problem {
            o.key("problem", &out)
            problemJSON(problem).write(into: &out)
        }
        o.key("retries", &out)
        JSONMembers.array(c.retries, &out) { retryJSON($0).write(into: &$1) }
        if let skipped {
            o.key("skipped", &out)
            JSONValue.writeString(skipped, into: &out)
        }
        o.key("stderr", &out)
        JSONValue.writeString(c.systemErr, into: &out)
        o.key("tags", &out)
        JSONMembers.array(c.tags, &out) { JSONValue.writeString($0, into: &$1) }
        o.key("time", &out)
        JSONMembers.number(c.time, &out)
        o.key("trace", &out)
        JSONMembers.array(c.trace, &out) { $0.writeReportJSON(into: &$1) }
        o.key("transcript", &out)
        JSONValue.writeString(c.systemOut, into: &out)
        o.close(&out)
        return out
    }
}

extension TraceEvent {
    /// `reportJSON` serialized, appended to `out`.
    func writeReportJSON(into out: inout [UInt8]) {
        var o = JSONMembers()
        if let atMilliseconds {
            o.key("at_ms", &out)
            JSONMembers.number(atMilliseconds, &out)
        }
        if let body {
            o.key("body", &out)
            JSONValue.writeString(body, into: &out)
        }
        if let device {
            o.key("device", &out)
            JSONValue.writeString(device, into: &out)
        }
        if let dropped {
            o.key("dropped", &out)
            JSONValue.writeString(dropped, into: &out)
        }
        if let durationMilliseconds {
            o.key("duration_ms", &out)
            JSONMembers.number(durationMilliseconds, &out)
        }
        o.key("from", &out)
        JSONValue.writeString(from.rawValue, into: &out)
        if !headers.isEmpty {
            o.key("headers", &out)
            JSONMembers.array(headers, &out) { header, out in
                var h = JSONMembers()
                h.key("name", &out)
                JSONValue.writeString(header.name, into: &out)
                h.key("value", &out)
                JSONValue.writeString(header.value, into: &out)
                h.close(&out)
            }
        }
        if let jwt {
            o.key("jwt", &out)
            var j = JSONMembers()
            j.key("claims", &out)
            JSONValue.writeString(jwt.claims, into: &out)
            j.key("header", &out)
            JSONValue.writeString(jwt.header, into: &out)
            j.close(&out)
        }
        o.key("kind", &out)
        JSONValue.writeString(kind.rawValue, into: &out)
        o.key("label", &out)
        JSONValue.writeString(label, into: &out)
        if let navigation {
            o.key("navigation", &out)
            navigation.reportJSON.write(into: &out)
        }
        if !notes.isEmpty {
            o.key("notes", &out)
            JSONMembers.array(notes, &out) { JSONValue.writeString($0, into: &$1) }
        }
        if let notification {
            o.key("notification", &out)
            notification.reportJSON.write(into: &out)
        }
        if let page {
            o.key("page", &out)
            page.reportJSON.write(into: &out)
        }
        if let reason {
            o.key("reason", &out)
            JSONValue.writeString(reason, into: &out)
        }
        if let status {
            o.key("status", &out)
            JSONMembers.number(Double(status), &out)
        }
        if let stepLine {
            o.key("step_line", &out)
            JSONMembers.number(Double(stepLine), &out)
        }
        o.key("to", &out)
        JSONValue.writeString(to.rawValue, into: &out)
        o.close(&out)
    }
}

/// An object's members written one by one: the caller gives the keys in `JSONValue`'s order (sorted by their UTF-8
/// bytes; debug builds check it), each key ASCII with nothing to escape.
struct JSONMembers {
    private var count = 0
    #if DEBUG
    private var last: String?
    #endif

    /// Writes `{` or `,`, then `"name":`.
    mutating func key(_ name: StaticString, _ out: inout [UInt8]) {
        #if DEBUG
        let text = name.description
        assert(last.map { $0.utf8.lexicographicallyPrecedes(text.utf8) } ?? true, "\(text) after \(last!)")
        last = text
        #endif
        out.append(count == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        count += 1
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    /// Ends the object (`{}` when it has no member).
    func close(_ out: inout [UInt8]) {
        if count == 0 { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
    }

    /// `[e,…]`, each element written by `write`.
    static func array<Element>(_ elements: [Element], _ out: inout [UInt8], _ write: (Element, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "["))
        for (i, element) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            write(element, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A number as `JSONValue.number` writes it.
    static func number(_ value: Double, _ out: inout [UInt8]) {
        out.append(contentsOf: JSONValue.format(value).utf8)
    }

    /// `true` or `false`.
    static func bool(_ value: Bool, _ out: inout [UInt8]) {
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }
}
