import Foundation
import PushcheckTestSupport
import Testing

@testable import PushcheckCommands

/// `--version`'s commit: the section `make dist` adds with objcopy, read back from the binary's own file.
@Suite struct BuildInfoTests {
    static let commit = "0123456789abcdef0123456789abcdef01234567"

    /// A copy of `executable` with the `.pushcheck.build` section `make dist` adds (Tests/dist/make-deb.sh).
    static func stamped(_ executable: String, _ stamp: String, in dir: TempDirectory) throws -> String {
        let copy = dir.file("stamped")
        let section = try dir.write("stamp", stamp)
        try FileManager.default.copyItem(atPath: executable, toPath: copy)
        try runTool(
            "objcopy",
            [
                "--add-section", "\(BuildInfo.sectionName)=\(section)", "--set-section-flags",
                "\(BuildInfo.sectionName)=noload,readonly", copy,
            ], timeout: 120
        ).requireSuccess()
        return copy
    }

    @Test func readsTheStampObjcopyAdds() throws {
        let dir = try TempDirectory("buildinfo")
        defer { dir.remove() }
        let copy = try Self.stamped("/bin/true", "commit=\(Self.commit)\ndate=2026-01-02\ntree=modified\n", in: dir)
        let info = BuildInfo.read(executable: copy)
        #expect(info == BuildInfo(commit: Self.commit, date: "2026-01-02", modified: true))
        #expect(
            info.versionLine("1.2.3") == "pushcheck 1.2.3 (commit \(Self.commit) with uncommitted changes, 2026-01-02)")
        // No section, not ELF, no file: nothing is made up.
        #expect(BuildInfo.read(executable: "/bin/true") == BuildInfo())
        #expect(BuildInfo.read(executable: try dir.write("text", "not an ELF file")) == BuildInfo())
        #expect(BuildInfo.read(executable: dir.file("missing")) == BuildInfo())
    }

    @Test func malformedStampLinesAreDropped() {
        let info = BuildInfo.parse("commit=not-a-sha\ndate=\ntree=clean\nother=1\n")
        #expect(info == BuildInfo())
        #expect(info.versionLine("0.1.0") == "pushcheck 0.1.0 (commit unknown: not built by make dist)")
    }

    /// A plain `swift build` (the test build) says the commit is unknown; the same binary stamped names it.
    @Test func versionOfThePlainAndTheStampedBinary() throws {
        let plain = try runTool(pushcheckExecutable(), ["--version"]).requireSuccess()
        #expect(plain.stdout == "pushcheck \(Pushcheck.version) (commit unknown: not built by make dist)\n")
        let dir = try TempDirectory("buildinfo-binary")
        defer { dir.remove() }
        let copy = try Self.stamped(
            pushcheckExecutable(), "commit=\(Self.commit)\ndate=2026-01-02\ntree=clean\n", in: dir)
        let stamped = try runTool(copy, ["--version"]).requireSuccess()
        #expect(stamped.stdout == "pushcheck \(Pushcheck.version) (commit \(Self.commit), 2026-01-02)\n")
    }
}
