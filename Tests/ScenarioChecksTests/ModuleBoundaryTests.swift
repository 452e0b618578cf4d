import Foundation
import Testing

/// ScenarioChecks judges plain values: it must not reach a world, a socket or an HTTP stack. Package.swift
/// declares what it may use and SwiftPM lets a module import what its dependencies bring along, so this reads
/// both: the target's declared dependencies, and every `import` in its sources (and in its tests').
@Suite struct ModuleBoundaryTests {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let forbidden: Set<String> = ["DeviceBridge", "HTTPClient", "HTTPServer"]
    /// The toolchain's modules any target may import.
    static let toolchain: Set<String> = ["Foundation", "Synchronization", "Dispatch", "Testing", "Glibc"]

    /// The `dependencies: [...]` of `target` in Package.swift (nil when it is not declared there).
    static func dependencies(of target: String) throws -> Set<String>? {
        let manifest = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        // The target's own declaration (not the package's or a product's `name:`), up to the next declaration.
        let opening = try Regex("\\.(target|executableTarget|testTarget)\\(\\s*name: \"\(target)\"")
        guard let start = manifest.firstMatch(of: opening)?.range else { return nil }
        var rest = manifest[start.upperBound...]
        if let next = rest.range(of: "name: \"") { rest = rest[..<next.lowerBound] }
        guard let open = rest.range(of: "dependencies: ["), let close = rest[open.upperBound...].firstIndex(of: "]")
        else { return [] }
        let list = rest[open.upperBound..<close]
        return Set(
            list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) })
    }

    /// Every module imported by the Swift files in `directory` and below (`@testable import X` included), with a
    /// file each. Module names start with a capital letter, which leaves out Python's `import json` in the tests'
    /// embedded scripts.
    static func imports(in directory: String) throws -> [String: String] {
        var found: [String: String] = [:]
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for name in files where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
                    words[..<i].allSatisfy({ $0.hasPrefix("@") }), words[i + 1].first?.isUppercase == true
                else { continue }
                if found[words[i + 1]] == nil { found[words[i + 1]] = name }
            }
        }
        return found
    }

    @Test(arguments: [
        ("ScenarioChecks", "Sources/ScenarioChecks"), ("ScenarioChecksTests", "Tests/ScenarioChecksTests"),
    ])
    func checksReachNoWorldAndNoHTTP(target: String, directory: String) throws {
        let declared = try #require(try Self.dependencies(of: target), "\(target) is not in Package.swift")
        #expect(
            declared.isDisjoint(with: Self.forbidden), "\(target) declares \(declared.intersection(Self.forbidden))")
        let imported = try Self.imports(in: Self.root + "/" + directory)
        #expect(!imported.isEmpty)
        for (module, file) in imported.sorted(by: { $0.key < $1.key }) {
            #expect(!Self.forbidden.contains(module), "\(directory)/\(file) imports \(module)")
            #expect(
                declared.contains(module) || Self.toolchain.contains(module),
                "\(directory)/\(file) imports \(module), which \(target) does not declare in Package.swift")
        }
    }

    /// SwiftPM lets a module import what its dependencies bring along; a module that does so breaks when a
    /// dependency's own list changes. Every Swift target (and test target) declares each module it imports.
    @Test func everyTargetDeclaresWhatItImports() throws {
        var checked = 0
        for base in ["Sources", "Tests"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/" + base).sorted()
            for target in names {
                guard let declared = try Self.dependencies(of: target) else { continue }
                let imported = try Self.imports(in: Self.root + "/" + base + "/" + target)
                for (module, file) in imported.sorted(by: { $0.key < $1.key })
                where module != target && !Self.toolchain.contains(module) {
                    #expect(
                        declared.contains(module),
                        "\(base)/\(target)/\(file) imports \(module), which \(target) does not declare in Package.swift"
                    )
                }
                checked += imported.isEmpty ? 0 : 1
            }
        }
        #expect(checked > 30)
    }

    @Test func theManifestReaderFindsTheTargets() throws {
        // The parse above reads what it should: a target known to use the HTTP stack shows it.
        #expect(try Self.dependencies(of: "ScenarioRun")?.contains("HTTPClient") == true)
        #expect(try Self.dependencies(of: "NoSuchTarget") == nil)
    }
}
