import Testing
@testable import YAMLSource

/// Runs `body`, expecting it to throw a SourceError, and returns it.
func expectError<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> SourceError? {
    do {
        let value = try body()
        Issue.record("expected a SourceError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as SourceError {
        return error
    } catch {
        Issue.record("expected a SourceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Loads `text` as file `file`.
func load(_ text: String, file: String = "t.yaml") throws(SourceError) -> YAMLNode {
    try YAMLLoader.load(string: text, file: file)
}

/// The start of `node` as "line:column".
func at(_ node: YAMLNode?) -> String {
    guard let node else { return "nil" }
    return "\(node.range.start)"
}
