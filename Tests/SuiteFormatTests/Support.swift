import Foundation
import PushcheckTestSupport
@testable import SuiteFormat
import Testing
@testable import YAMLSource

/// Suite files for the SuiteFormat tests.
enum Support {
    static let suites = SuiteFiles.suites

    /// Writes `text` to a fresh file in a temp directory and returns its path.
    static func write(_ text: String, name: String = "suite.yaml", extra: [String: String] = [:]) throws -> String {
        try SuiteFiles.write(text, name: name, extra: extra)
    }

    /// Loads a suite, failing the test with the rendered error.
    static func load(_ path: String) throws -> Suite {
        do { return try SuiteLoader.load(path: path) } catch {
            Issue.record("\(error.rendered(color: false))")
            throw error
        }
    }

    /// The SourceError loading `text` gives (nil when it loads).
    static func loadError(_ text: String, extra: [String: String] = [:]) throws -> SourceError? {
        try SuiteFiles.error(loading: text, extra: extra) { (path: String) throws(SourceError) in
            _ = try SuiteLoader.load(path: path)
        }
    }
}
