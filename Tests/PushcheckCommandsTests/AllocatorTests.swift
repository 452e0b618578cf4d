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

    /// What the dynamic linker did: libswiftCore's and libc's own `malloc` and `free` bind to jemalloc, and no
    /// `malloc` or `free` anywhere binds to glibc's. Other libraries' bindings are held to the second rule only: CI
    /// once printed libFoundation bound to libFoundation for one of them (never seen on the development machine),
    /// and whatever that resolves to, it is not glibc's allocator.
    @Test func mallocAndFreeBindToJemalloc() throws {
        let run = try runTool(pushcheckExecutable(), ["--version"], environment: ["LD_DEBUG": "bindings"])
            .requireSuccess()
        // "binding file FROM [0] to TO [0]: normal symbol `malloc' [GLIBC_2.2.5]", one a line; but two threads'
        // records can share a line (CI printed a `pthread_getname_np' binding with a `malloc' one after it, no
        // newline between), so records are cut at each "binding file ", then at the end of their line.
        let bindings = run.stderr.components(separatedBy: "binding file ").dropFirst().compactMap {
            chunk -> (from: String, to: String, line: String)? in
            let line = chunk.prefix { $0 != "\n" }
            guard line.contains(" symbol `malloc'") || line.contains(" symbol `free'"),
                let to = line.range(of: " to "), let end = line.range(of: ": ", range: to.upperBound..<line.endIndex)
            else { return nil }
            return (String(line[..<to.lowerBound]), String(line[to.upperBound..<end.lowerBound]), String(line))
        }
        let fromCore = bindings.filter { $0.from.contains("libswiftCore") }
        let fromLibc = bindings.filter { $0.from.contains("/libc.so") }
        #expect(!fromCore.isEmpty, "no binding from libswiftCore: \(bindings.map(\.line))")
        #expect(!fromLibc.isEmpty, "no binding from libc: \(bindings.map(\.line))")
        for binding in fromCore + fromLibc {
            #expect(binding.to.contains("libjemalloc.so.2"), "\(binding.line)")
        }
        let toGlibc = bindings.filter { $0.to.contains("/libc.so") }
        #expect(toGlibc.isEmpty, "bound to glibc's allocator: \(toGlibc.map(\.line))")
    }
}
