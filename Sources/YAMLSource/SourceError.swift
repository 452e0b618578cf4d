/// An error in a user's file, with everything needed to show it Hurl-style:
/// where (file, line, column, and the span to underline), what went wrong, what
/// was expected there, and an optional fix.
///
/// Loading and decoding stop at the first error (every API here throws one
/// `SourceError`), so messages never cascade from an earlier mistake.
package struct SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable classification, for exit codes and tests.
    package enum Kind: String, Sendable, Hashable {
        /// The file could not be read.
        case io
        /// libyaml rejected the text (indentation, quotes, tabs, invalid UTF-8, …).
        case syntax
        /// An alias names an anchor that does not exist, or contains itself.
        case badAlias
        /// Aliases expand the document beyond the node limit (alias bomb), or nesting is too deep.
        case limitExceeded
        /// The text is larger than `YAMLLimits.maxDocumentBytes`.
        case tooLarge
        /// The same key appears twice in a mapping.
        case duplicateKey
        /// A `<<` merge key whose value is not a mapping or a list of mappings.
        case badMerge
        /// More than one document where one was expected.
        case multipleDocuments
        /// A key that the schema does not allow.
        case unknownKey
        /// A required key is absent.
        case missingKey
        /// The node has the wrong shape or scalar type (e.g. string where an integer is needed).
        case typeMismatch
        /// The node has the right type but a value outside the allowed set or format.
        case invalidValue
        /// Anything else raised by a loader built on this module.
        case other
    }

    /// The classification of this error.
    package var kind: Kind
    /// One-line headline, shown after `error: `.
    package var message: String
    /// Where the problem is; the span is underlined when it fits on one line.
    package var range: SourceRange
    /// What was expected at that spot, printed after the caret (e.g. `expected one of: a, b`).
    package var expected: String?
    /// A fix, printed as `= help: …` (e.g. `did you mean 'expect'?`).
    package var suggestion: String?

    /// Creates an error at `range`.
    package init(
        _ kind: Kind, _ message: String, at range: SourceRange,
        expected: String? = nil, suggestion: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.range = range
        self.expected = expected
        self.suggestion = suggestion
    }

    /// The file name as given to the loader.
    package var file: String { range.file }
    /// 1-based line (0 for whole-file errors such as I/O).
    package var line: Int { range.start.line }
    /// 1-based column in Unicode scalars (0 for whole-file errors).
    package var column: Int { range.start.column }

    /// One line: `file:line:col: message (expected …) — help`.
    package var description: String {
        var text = "\(range): \(message)"
        if let expected { text += " (\(expected))" }
        if let suggestion { text += "; \(suggestion)" }
        return text
    }

    package static func == (lhs: SourceError, rhs: SourceError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.range == rhs.range
            && lhs.expected == rhs.expected && lhs.suggestion == rhs.suggestion
    }
}
