import PushcheckTestSupport
import Testing

/// The binary allocates through jemalloc (Package.swift links it, README "Benchmarks"): the gateway's 10,000-entry
/// logs free every entry long after it was made, which glibc's per-thread cache of 7 blocks a size does not absorb.
/// The link alone is not enough: malloc must resolve to jemalloc for the Swift runtime and the C libraries too.
@Suite struct AllocatorTests {
    @Test func theBinaryNeedsJemallocBeforeLibc() throws {
        let dynamic = try runTool("readelf", ["-d", pushcheckExecutable()]).requireSuccess().stdout
        let needed = dynamic.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        let jemalloc = try #require(needed.firstIndex(of: "libjemalloc.so.2"), "NEEDED: \(needed)")
        let libc = try #require(needed.firstIndex(of: "libc.so.6"), "NEEDED: \(needed)")
        #expect(jemalloc < libc)
    }

    /// What the dynamic linker did: every `malloc` and `free` binding, libswiftCore's and libc's own among them,
    /// goes to jemalloc.
    @Test func mallocAndFreeBindToJemalloc() throws {
        let run = try runTool(pushcheckExecutable(), ["--version"], environment: ["LD_DEBUG": "bindings"])
            .requireSuccess()
        // "binding file FROM [0] to TO [0]: normal symbol `malloc' [GLIBC_2.2.5]"
        let bindings = run.stderr.split(separator: "\n").compactMap { line -> (from: String, to: String)? in
            guard line.contains("normal symbol `malloc'") || line.contains("normal symbol `free'"),
                let file = line.range(of: "binding file "), let to = line.range(of: " to "),
                let end = line.range(of: ": normal symbol")
            else { return nil }
            return (String(line[file.upperBound..<to.lowerBound]), String(line[to.upperBound..<end.lowerBound]))
        }
        #expect(bindings.contains { $0.from.contains("libswiftCore") }, "no binding from libswiftCore: \(bindings)")
        #expect(bindings.contains { $0.from.contains("libc.so") }, "no binding from libc: \(bindings)")
        let elsewhere = bindings.filter { !$0.to.contains("libjemalloc.so.2") }
        #expect(elsewhere.isEmpty, "bound elsewhere: \(elsewhere)")
    }
}
