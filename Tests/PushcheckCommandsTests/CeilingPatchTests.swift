import Foundation
import PushcheckTestSupport
import Testing

/// `make bench-ceiling` (Tests/bench/ceiling-bench.sh) builds the tree three more times, with an experiment patch each. The
/// patches are never applied to what ships; this keeps them applying to the tree as it changes, so the README's
/// "where a push's cost goes" figures stay reproducible, and keeps each one to the one file it is about.
@Suite struct CeilingPatchTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test(arguments: [
        ("log-only.patch", "Sources/APNsGateway/APNsGateway+Evaluate.swift"),
        ("rules-only.patch", "Sources/APNsGateway/APNsGateway+Evaluate.swift"),
        ("http-only.patch", "Sources/APNsGateway/APNsHTTPHandler.swift"),
    ])
    func patchAppliesToItsOneFile(patch: String, file: String) throws {
        let path = Self.root + "/Tests/bench/ceiling/" + patch
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let touched = text.split(separator: "\n").filter { $0.hasPrefix("+++ ") }.map { String($0.dropFirst(6)) }
        #expect(touched == [file])
        #expect(text.contains("Ceiling experiment (Tests/bench/ceiling-bench.sh)"))
        let check = try runTool("git", ["-C", Self.root, "apply", "--check", path])
        #expect(check.status == 0, "\(patch) no longer applies: \(check.stderr)")
    }
}
