import Foundation
import Synchronization

/// A fresh directory under the system temp dir, removed by `remove()`.
package struct TempDirectory: Sendable {
    /// The directory's absolute path (no trailing slash).
    package let path: String
    /// The directory as a file URL.
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates `<tmp>/<prefix>-<random>`.
    package init(_ prefix: String = "pushcheck-test") throws {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        path = base + "\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A directory for fixtures made once per test process; it is removed when the process exits.
    package static func forProcess(_ prefix: String) throws -> TempDirectory {
        let dir = try TempDirectory(prefix)
        _ = registerRemovalAtExit
        directoriesToRemoveAtExit.withLock { $0.append(dir.path) }
        return dir
    }

    /// The path of `name` inside the directory (not created).
    package func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` (UTF-8) to `name`; returns its path. A `serve` config (`serve*.yaml`, written after the files it
    /// names, as the tests do) is collected with its directory for the schema test, as suites are
    /// (`SuiteFiles.recordCorpus`): every one `serve --check` accepts must validate against Suites/suite.schema.json.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        if name.hasPrefix("serve"), name.hasSuffix(".yaml"), !name.contains("/") { SuiteFiles.recordCorpus(path) }
        return file(name)
    }

    /// Writes `bytes` to `name`; returns its path.
    @discardableResult
    package func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    /// The bytes of `name`.
    package func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }

    /// Deletes the directory and everything in it.
    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}

private let directoriesToRemoveAtExit = Mutex<[String]>([])

private let registerRemovalAtExit: Void = {
    atexit {
        for path in directoriesToRemoveAtExit.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}()
