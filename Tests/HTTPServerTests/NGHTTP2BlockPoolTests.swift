import Testing

@testable import HTTPServer

/// `NGHTTP2BlockPool` as nghttp2 uses it: blocks of every class and past the largest, reused after `free`,
/// grown by `reallocate` with their bytes kept, 16-byte aligned, and a size `malloc` could not serve refused.
@Suite struct NGHTTP2BlockPoolTests {
    @Test func blocksKeepTheirBytesAcrossReuseAndGrowth() throws {
        var pool = NGHTTP2BlockPool()
        defer { pool.release() }
        var live: [(UnsafeMutableRawPointer, Int, UInt8)] = []
        for (i, size) in [0, 1, 63, 64, 65, 200, 512, 1000, 1024, 1025, 5000].enumerated() {
            let allocated = pool.allocate(size)
            let block = try #require(allocated)
            #expect(Int(bitPattern: block) % 16 == 0)
            block.initializeMemory(as: UInt8.self, repeating: UInt8(i + 1), count: size)
            live.append((block, size, UInt8(i + 1)))
        }
        for (block, size, byte) in live {
            #expect(UnsafeRawBufferPointer(start: block, count: size).allSatisfy { $0 == byte })
        }
        // A freed block of a class comes back for the next request of that class.
        let (small, _, _) = live[3]
        pool.free(small)
        let reused = pool.allocate(40)
        #expect(reused == small)
        // Growth past the class keeps the bytes; shrinking keeps the block.
        let (mid, midSize, midByte) = live[5]
        let reallocated = pool.reallocate(mid, 3000)
        let grown = try #require(reallocated)
        #expect(UnsafeRawBufferPointer(start: grown, count: midSize).allSatisfy { $0 == midByte })
        let shrunk = pool.reallocate(grown, 10)
        #expect(shrunk == grown)
        live[5].0 = grown
        for (i, entry) in live.enumerated() where i != 3 { pool.free(entry.0) }
        pool.free(small)
        pool.free(nil)
    }

    @Test func aSizeMallocCannotServeIsRefused() {
        var pool = NGHTTP2BlockPool()
        defer { pool.release() }
        let huge = pool.allocate(Int.max)
        let almost = pool.allocate(Int.max - 8)
        #expect(huge == nil)
        #expect(almost == nil)
    }

    @Test func keepsAtMostItsCapOfFreedBlocks() throws {
        var pool = NGHTTP2BlockPool()
        defer { pool.release() }
        // 200 blocks of 1 KiB freed: 64 KiB kept, the rest returned to malloc; all still allocatable afterwards.
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<200 {
            let allocated = pool.allocate(1024)
            blocks.append(try #require(allocated))
        }
        for b in blocks { pool.free(b) }
        var again: [UnsafeMutableRawPointer] = []
        for _ in 0..<200 {
            let allocated = pool.allocate(1000)
            again.append(try #require(allocated))
        }
        #expect(Set(again).count == 200)
        #expect(Set(again).intersection(Set(blocks)).count >= 64)
        for b in again { pool.free(b) }
    }
}
