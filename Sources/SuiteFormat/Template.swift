import Foundation
import PushModel
import YAMLSource

/// A string from a suite file that may contain `${name}` references, resolved when the step runs.
///
/// Namespaces: `device.<name>.token|udid|fcm_token`, `env.<NAME>`, `fixture.http|https|ca`,
/// `gateway.sandbox|production`, `scenario.name` and `scenario.<parameter>`, suite `variables:` and
/// captured values by bare name. `$${` writes a literal `${`.
package struct Template: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case literal(String)
        /// A reference and its offset (in Unicode scalars) inside the scalar's text.
        case variable(String, offset: Int)
    }

    /// Most templates are one literal: kept as the string alone, not as an array of one part (a loaded suite keeps
    /// every template for the whole run).
    private enum Storage: Sendable, Equatable {
        case literal(String)
        /// Two parts or more, at least one a reference.
        case parts([Part])
    }

    private let storage: Storage
    /// Where the scalar is written.
    package let range: SourceRange
    /// Columns to add to an offset to reach the character in the file (1 for quoted scalars).
    let columnBias: Int

    /// A template with no references.
    package init(literal: String, range: SourceRange) {
        storage = .literal(literal)
        self.range = range
        columnBias = 0
    }

    /// Parses `text` written at `range`; an unclosed `${` is an error at it.
    package init(_ text: String, range: SourceRange, quoted: Bool = false) throws(SourceError) {
        self.range = range
        columnBias = quoted ? 1 : 0
        // Most scalars hold no reference: one literal part, without the scalar-by-scalar walk below.
        guard text.utf8.contains(UInt8(ascii: "$")) else {
            storage = .literal(text)
            return
        }
        var parts: [Part] = []
        var literal = ""
        // Walked on UTF-8 bytes (`$`, `{`, `}` are ASCII, so every cut is between scalars); offsets still count
        // Unicode scalars: one per byte that does not continue a sequence.
        let bytes = Array(text.utf8)
        let dollar = UInt8(ascii: "$")
        let open = UInt8(ascii: "{")
        var i = 0
        var scalar = 0  // scalars before byte i
        var literalStart = 0  // where the literal's current run of bytes starts
        func isScalarStart(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
        while i < bytes.count {
            if bytes[i] == dollar, i + 2 < bytes.count, bytes[i + 1] == dollar, bytes[i + 2] == open {
                literal += String(decoding: bytes[literalStart..<i], as: UTF8.self) + "${"
                i += 3
                scalar += 3
                literalStart = i
                continue
            }
            if bytes[i] == dollar, i + 1 < bytes.count, bytes[i + 1] == open {
                guard let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw SourceError(
                        .invalidValue, "unclosed '${' in a template",
                        at: Self.at(range, offset: scalar + columnBias), expected: "expected ${name}",
                        suggestion: "write $${ for a literal ${")
                }
                literal += String(decoding: bytes[literalStart..<i], as: UTF8.self)
                // Foundation's `.whitespaces` trim, without its NSString bridging.
                let name = String(decoding: bytes[(i + 2)..<close], as: UTF8.self).trimmingWhitespace()
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.variable(name, offset: scalar))
                scalar += bytes[i...close].reduce(0) { $0 + (isScalarStart($1) ? 1 : 0) }
                i = close + 1
                literalStart = i
                continue
            }
            if isScalarStart(bytes[i]) { scalar += 1 }
            i += 1
        }
        literal += String(decoding: bytes[literalStart..<bytes.count], as: UTF8.self)
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(literal)) }
        if parts.count == 1, case .literal(let text) = parts[0] {
            storage = .literal(text)
        } else {
            storage = .parts(parts)
        }
    }

    /// The literals and references in order.
    var parts: [Part] {
        switch storage {
        case .literal(let text): return [.literal(text)]
        case .parts(let parts): return parts
        }
    }

    /// Decodes a scalar node as a template.
    package static func decode(_ node: YAMLNode) throws(SourceError) -> Template {
        let text = try String.decode(from: node)
        let quoted = node.scalar?.style == .singleQuoted || node.scalar?.style == .doubleQuoted
        return try Template(text, range: node.range, quoted: quoted)
    }

    /// The references, with the position of each.
    var references: [(name: String, range: SourceRange)] {
        guard case .parts(let parts) = storage else { return [] }
        return parts.compactMap {
            if case .variable(let name, let offset) = $0 { return (name, Self.at(range, offset: offset + columnBias)) }
            return nil
        }
    }

    /// True when the text has no references.
    var isLiteral: Bool { references.isEmpty }

    /// The text as written (references shown as `${name}`).
    package var description: String {
        if case .literal(let text) = storage { return text }
        return parts.map {
            switch $0 {
            case .literal(let s): return s
            case .variable(let n, _): return "${\(n)}"
            }
        }.joined()
    }

    /// Resolves every reference through `lookup`; `escape` transforms substituted values (e.g. for JSON strings).
    package func render(
        _ lookup: (String) -> String?, escape: (String) -> String = { $0 }
    ) throws(VariableError) -> String {
        if case .literal(let text) = storage { return text }
        var out = ""
        for part in parts {
            switch part {
            case .literal(let s): out += s
            case .variable(let name, let offset):
                guard let value = lookup(name) else {
                    throw VariableError(name: name, range: Self.place(of: name, offset: offset + columnBias, in: range))
                }
                out += escape(value)
            }
        }
        return out
    }

    /// Where `${name}` is written: at `offset` in a one-line scalar; otherwise — a template of a YAML payload's JSON
    /// text, whose offsets count in that text, or one over several lines — where the source shows it first inside
    /// `range` (a missing `${env.X}` in a payload was shown at the payload's first key). Looked up only for an error.
    static func place(of name: String, offset: Int, in range: SourceRange) -> SourceRange {
        let computed = at(range, offset: offset)
        guard let text = range.source else { return computed }
        let needle = "${\(name)}"
        func scalars(_ line: String) -> [Unicode.Scalar] { Array(line.unicodeScalars) }
        let target = Array(needle.unicodeScalars)
        func holds(_ line: [Unicode.Scalar], at column: Int) -> Bool {
            column >= 1 && column - 1 + target.count <= line.count
                && Array(line[(column - 1)..<(column - 1 + target.count)]) == target
        }
        if computed != range, let line = text.line(computed.start.line), holds(scalars(line), at: computed.start.column)
        {
            return computed
        }
        for number in range.start.line...max(range.start.line, range.end.line) {
            guard let line = text.line(number).map(scalars) else { break }
            let first = number == range.start.line ? range.start.column : 1
            for column in max(first, 1)...max(first, line.count) where holds(line, at: column) {
                let start = SourcePosition(line: number, column: column)
                return range.moved(start: start, end: start)
            }
        }
        return computed
    }

    static func at(_ range: SourceRange, offset: Int) -> SourceRange {
        guard range.start.line == range.end.line else { return range }
        let start = SourcePosition(line: range.start.line, column: range.start.column + offset)
        return range.moved(start: start, end: start)
    }
}

/// A reference with no value when the step ran (e.g. `${env.NAME}` not set).
package struct VariableError: Error, Sendable, CustomStringConvertible {
    package var name: String
    package var range: SourceRange
    package var description: String { "\(range): undefined variable '${\(name)}'" }

    /// As a `SourceError`, for rendering with the line and a caret.
    package var sourceError: SourceError {
        var expected: String?
        var suggestion: String?
        if name.hasPrefix("env.") {
            expected = "expected the environment variable \(name.dropFirst(4)) to be set"
            suggestion = "export \(name.dropFirst(4))=… before running, or pass it to the runner"
        } else if name.hasPrefix("fixture.") {
            expected = "expected the runner's fixture server (it serves Suites/pages/)"
            suggestion = "run the suite with `pushcheck run`, which starts it"
        } else if name.hasPrefix("device.") {
            expected = "expected the device's app to have that value (is it installed and registered?)"
        }
        return SourceError(
            .invalidValue, "undefined variable '${\(name)}'", at: range, expected: expected, suggestion: suggestion)
    }
}

/// Escapes a value for the inside of a JSON string (PushModel's JSON writer, without the quotes).
package func jsonStringEscape(_ s: String) -> String {
    String(JSONValue.string(s).serialized().dropFirst().dropLast())
}
