import Foundation

/// Gives the memory a run freed back to the system at the moments it is known to be garbage, when the process's
/// allocator is jemalloc (the `pushcheck` binary links it; README "Benchmarks").
///
/// jemalloc keeps freed pages for its own reuse for 10 s, and per arena: a thread allocates from its own arena, so
/// what the loading threads freed (a suite's YAML document, ~6 KB a scenario before it is decoded) is not reused by
/// the threads that run the scenarios, and stayed in the run's RSS to its end. `mallctl("arena.<all>.purge")` hands
/// those pages back at once, a call of a few milliseconds per moment; elsewhere (tests, whose allocator is glibc's)
/// `mallctl` is not there and this does nothing.
enum FreedMemory {
    private typealias Mallctl =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32

    /// jemalloc's `mallctl`, looked up once in the process (nil when malloc is not jemalloc's).
    private static let mallctl: Mallctl? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return nil }
        return unsafeBitCast(symbol, to: Mallctl.self)
    }()

    /// Returns every arena's unused dirty pages to the system (`arena.4096.purge`: 4096 is jemalloc's
    /// `MALLCTL_ARENAS_ALL`). Safe from any thread.
    static func release() {
        _ = mallctl?("arena.4096.purge", nil, nil, nil, 0)
    }
}
