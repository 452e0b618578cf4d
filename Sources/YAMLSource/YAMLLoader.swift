import Foundation
import PushModel

/// Loads YAML (and JSON, which goes through the same parser) into position-carrying
/// `YAMLNode` trees.
///
/// Every failure is a `SourceError` pointing into the file; loading stops at the first one.
///
/// ```swift
/// let root = try YAMLLoader.load(path: "Suites/basic.yaml")
/// let suite = try root.mapping(allowedKeys: ["name", "include", "scenarios"])
/// let name = try suite.required("name", as: String.self)
/// for node in try suite.requiredSequence("scenarios") {
///     let scenario = try node.mapping(allowedKeys: ["name", "steps", "timeout"])
///     let timeout = try scenario.optional("timeout", as: Duration.self) ?? .seconds(10)
/// }
/// // on failure: print(error.rendered(color: isTTY)) and exit 2
/// ```
///
/// In functions declared `throws(SourceError)`, closures that `try` must be annotated
/// (`{ (node: YAMLNode) throws(SourceError) in … }`): Swift 6.3 infers `any Error` for them.
package enum YAMLLoader {
    /// Loads a file that must contain exactly one document (an empty file gives a null scalar).
    /// - Parameter path: used as-is in error messages, so pass it relative to the working directory.
    package static func load(path: String, limits: YAMLLimits = .standard) throws(SourceError) -> YAMLNode {
        try single(read(path, limits: limits), file: path, limits: limits)
    }

    /// Loads every `---`-separated document of a file (none for an empty file).
    package static func loadAll(path: String, limits: YAMLLimits = .standard) throws(SourceError) -> [YAMLNode] {
        let bytes = try read(path, limits: limits)
        return try parse(bytes, source: SourceText(file: path, bytes: bytes), limits: limits, stopAfter: .max).map(
            \.node)
    }

    /// Loads text that must contain exactly one document (empty text gives a null scalar).
    /// A second document is a `.multipleDocuments` error at its `---`.
    /// - Parameter file: the name shown in errors.
    package static func load(string: String, file: String, limits: YAMLLimits = .standard) throws(SourceError)
        -> YAMLNode
    {
        try single(Array(string.utf8), file: file, limits: limits)
    }

    /// `load(path:)`, except that the collections listed in the root mapping's `key` sequence are left as
    /// placeholders (`YAMLNode.isDeferred`, with the item's range), each read when asked for (`deferredItem()`): a
    /// large suite's scenarios need not all be nodes at once. A document whose items cannot be read on their own (an
    /// anchor, an alias or a tag in one; JSON whose escapes had to be rewritten) is read whole, as `load(path:)`; so is
    /// a file under `minimumBytes` (reading every item again costs a second parse of its text: only a large file's
    /// memory is worth it).
    package static func load(
        path: String, deferringItemsOf key: String, minimumBytes: Int = 0, limits: YAMLLimits = .standard
    ) throws(SourceError) -> YAMLNode {
        let bytes = try read(path, limits: limits)
        return try single(bytes, file: path, limits: limits, deferring: bytes.count >= minimumBytes ? key : nil)
    }

    private static func single(
        _ bytes: [UInt8], file: String, limits: YAMLLimits, deferring: String? = nil
    ) throws(SourceError) -> YAMLNode {
        let source = SourceText(file: file, bytes: bytes)
        var documents: [Document]
        // A document that fails deferred is read whole for its error: reading past the items skips the checks that
        // building them makes (a mapping key, a duplicate key, an alias), which the whole read may meet before the
        // error the deferred read met.
        if let deferring,
            let deferred = try? parse(bytes, source: source, limits: limits, stopAfter: 2, deferring: deferring)
        {
            documents = deferred
        } else {
            documents = try parse(bytes, source: source, limits: limits, stopAfter: 2)
        }
        if documents.count > 1 {
            throw SourceError(
                .multipleDocuments, "more than one document", at: documents[1].start,
                expected: "expected a single document",
                suggestion: "remove the '---' separator, or split the file")
        }
        return documents.first?.node
            ?? YAMLNode(
                .scalar(YAMLScalar("")),
                range: SourceRange(
                    file: file, start: .init(line: 1, column: 1), end: .init(line: 1, column: 1), source: source))
    }

    /// Loads every `---`-separated document of `string` (none for empty text).
    package static func loadAll(string: String, file: String, limits: YAMLLimits = .standard) throws(SourceError)
        -> [YAMLNode]
    {
        let bytes = Array(string.utf8)
        return try parse(bytes, source: SourceText(file: file, bytes: bytes), limits: limits, stopAfter: .max).map(
            \.node)
    }

    /// The directory that relative `include:` paths in `file` are resolved against.
    package static func baseDirectory(of file: String) -> String {
        let directory = PathText.directory(of: file)
        return directory.isEmpty ? "." : directory
    }

    /// Resolves an `include:` path written in `file`: absolute paths stay, relative
    /// ones are taken from the including file's directory (not the working directory).
    /// `.` and `..` are folded lexically (`Suites/a/../b.yaml` → `Suites/b.yaml`), so the
    /// result stays relative when `file` is, and reads well in error messages.
    package static func resolve(include path: String, from file: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        let directory = baseDirectory(of: file)
        return normalize(directory == "." ? path : directory + "/" + path)
    }

    private static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue  // "/.." is "/"
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    // MARK: - Internals

    private struct Document {
        var node: YAMLNode
        var start: SourceRange
    }

    /// Reads raw bytes: invalid UTF-8 is left for libyaml to report with its position.
    private static func read(_ path: String, limits: YAMLLimits) throws(SourceError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        // Refused before reading: a huge file is never pulled into memory.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size > limits.maxDocumentBytes, !isDirectory.boolValue
        {
            throw tooLarge(path, size: size, limits: limits)
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            let message =
                !exists ? "no such file" : isDirectory.boolValue ? "is a directory, not a file" : "cannot read file"
            let help =
                !exists
                ? "check the path (relative paths start at \(FileManager.default.currentDirectoryPath))"
                : isDirectory.boolValue ? "name a .yaml file inside it" : "check the file's permissions"
            throw SourceError(.io, message, at: .wholeFile(path), suggestion: help)
        }
        return [UInt8](data)
    }

    private static func tooLarge(_ file: String, size: Int, limits: YAMLLimits) -> SourceError {
        let limit = limits.maxDocumentBytes
        let shown = limit >= 1 << 20 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return SourceError(
            .tooLarge, "\(file) is \(size) bytes, over the \(shown) limit", at: .wholeFile(file),
            suggestion: "split it into several files (e.g. one suite per file, with include:)")
    }

    private static func parse(
        _ bytes: [UInt8], source: SourceText, limits: YAMLLimits, stopAfter: Int
    ) throws(SourceError) -> [Document] {
        // Without deferring, a document is never given up on.
        try parse(bytes, source: source, limits: limits, stopAfter: stopAfter, deferring: nil) ?? []
    }

    /// The documents; nil when `deferring` was asked for and could not be done (`DocumentBuilder`).
    private static func parse(
        _ bytes: [UInt8], source: SourceText, limits: YAMLLimits, stopAfter: Int, deferring: String?,
        lineOffset: Int = 0
    ) throws(SourceError) -> [Document]? {
        guard bytes.count <= limits.maxDocumentBytes else {
            throw tooLarge(source.file, size: bytes.count, limits: limits)
        }
        let prepared = JSONCompatibility.prepare(bytes)
        // Rewritten escapes moved columns: an item's text would no longer be where its positions say.
        if deferring != nil, prepared.count != bytes.count { return nil }
        let parser = LibYAMLParser(bytes: prepared, source: source, lineOffset: lineOffset)
        var documents: [Document] = []
        while true {
            switch try parser.next() {
            case .streamEnd:
                return documents
            case .documentStart(let start):
                guard let node = try DocumentBuilder.buildDocument(from: parser, limits: limits, deferring: deferring)
                else { return nil }
                let startRange = parser.range(start, SourcePosition(line: start.line, column: start.column + 3))
                let fallback = YAMLNode(.scalar(YAMLScalar("")), range: parser.range(start, start))
                documents.append(Document(node: node ?? fallback, start: startRange))
                if documents.count >= stopAfter { return documents }
            default:
                continue
            }
        }
    }
}

extension YAMLNode {
    /// The tag of a placeholder for a deferred item (`YAMLLoader.load(path:deferringItemsOf:)`): no tag libyaml
    /// reports looks like it (they are URIs or start with `!`), and a document with a tag in an item is not deferred.
    static let deferredTag = "pushcheck:deferred-item"

    /// True for the placeholder of a deferred item: its `range` says where the item is; `deferredItem()` reads it.
    package var isDeferred: Bool { tag == Self.deferredTag }

    /// The deferred item this placeholder stands for, read from its file's text (kept by the range) alone: the
    /// node, with its positions in the file, that loading the whole document would have given. Self when this is
    /// not a placeholder.
    package func deferredItem(limits: YAMLLimits = .standard) throws(SourceError) -> YAMLNode {
        guard isDeferred else { return self }
        guard let source = range.source, let bytes = source.detachedText(from: range.start, to: range.end),
            let documents = try YAMLLoader.parseDetached(
                bytes, source: source, lineOffset: range.start.line - 1, limits: limits),
            documents.count == 1, documents[0].scalar == nil
        else {
            throw SourceError(
                .io, "cannot read this item again from the file's text", at: range,
                suggestion: "this is a bug of pushcheck's: please report it with the file")
        }
        return documents[0]
    }
}

extension YAMLLoader {
    /// The documents of a deferred item's text (see `YAMLNode.deferredItem()`).
    fileprivate static func parseDetached(
        _ bytes: [UInt8], source: SourceText, lineOffset: Int, limits: YAMLLimits
    ) throws(SourceError) -> [YAMLNode]? {
        try parse(bytes, source: source, limits: limits, stopAfter: 2, deferring: nil, lineOffset: lineOffset)?
            .map(\.node)
    }
}

extension YAMLNode {
    /// Reads the file this scalar names, resolved against the directory of `file` (the YAML file the
    /// scalar is written in). A missing or unreadable file is an `.io` error at this node.
    /// - Parameter expected: what the caller wanted there, printed after the caret.
    package func referencedFile(
        from file: String, expected: String = "expected a readable file"
    ) throws(SourceError) -> (path: String, bytes: [UInt8]) {
        let path = YAMLLoader.resolve(include: try String.decode(from: self), from: file)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SourceError(
                .io, "cannot read '\(path)'", at: range, expected: expected,
                suggestion: "paths are relative to the config file's directory")
        }
        return (path, Array(data))
    }
}
