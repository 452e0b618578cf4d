import CNghttp2

#if canImport(Glibc)
import Glibc
#endif

/// nghttp2's allocator for one session: small blocks (its stream, outbound item, header-list copy and HPACK
/// buffers, a handful per request) come back from per-size free lists instead of `malloc`/`free`.
///
/// With 64 streams in flight a connection allocates and frees these blocks in batches of 64, more than glibc's
/// per-thread cache keeps per size (7 by default), so most of them went through glibc's slower bins; nghttpd, on
/// the same library, links jemalloc. The session is loop-confined, so the lists need no lock. At most
/// `maxCachedBytes` are kept; the rest go back to `free`, and everything kept is freed with the pool.
/// Each block starts with a 16-byte header holding its size class (or its byte count, past the largest class),
/// which keeps the payload 16-byte aligned like `malloc`'s.
struct NGHTTP2BlockPool {
    /// Classes of 64, 128, 256, 512 and 1024 bytes.
    static let classCount = 5
    static let headerSize = 16
    static let maxCachedBytes = 64 * 1024
    /// Marks a block past the largest class (allocated and freed directly).
    static let unpooled = -1

    /// One free list per class, linked through each free block's first word.
    private let heads: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private var cachedBytes = 0

    init() {
        heads = .allocate(capacity: Self.classCount)
        heads.initialize(repeating: nil, count: Self.classCount)
    }

    private static func classSize(_ c: Int) -> Int { 64 << c }

    private static func sizeClass(_ size: Int) -> Int {
        if size <= 64 { return 0 }
        if size <= 128 { return 1 }
        if size <= 256 { return 2 }
        if size <= 512 { return 3 }
        if size <= 1024 { return 4 }
        return unpooled
    }

    mutating func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        // `malloc`'s answer to a size it cannot serve, instead of an overflow trap in `headerSize + capacity`.
        guard size <= Int.max - Self.headerSize else { return nil }
        let c = Self.sizeClass(size)
        if c != Self.unpooled, let block = heads[c] {
            heads[c] = block.load(as: UnsafeMutableRawPointer?.self)
            cachedBytes -= Self.classSize(c)
            return block
        }
        let capacity = c == Self.unpooled ? size : Self.classSize(c)
        guard let raw = malloc(Self.headerSize + capacity) else { return nil }
        raw.storeBytes(of: c == Self.unpooled ? capacity : c, as: Int.self)
        raw.storeBytes(of: c, toByteOffset: 8, as: Int.self)
        return raw + Self.headerSize
    }

    /// The payload bytes `block` can hold.
    private static func capacity(_ block: UnsafeMutableRawPointer) -> Int {
        let raw = block - headerSize
        let c = raw.load(fromByteOffset: 8, as: Int.self)
        return c == unpooled ? raw.load(as: Int.self) : classSize(c)
    }

    mutating func free(_ block: UnsafeMutableRawPointer?) {
        guard let block else { return }
        let raw = block - Self.headerSize
        let c = raw.load(fromByteOffset: 8, as: Int.self)
        if c == Self.unpooled || cachedBytes + Self.classSize(c) > Self.maxCachedBytes {
            Glibc.free(raw)
            return
        }
        block.storeBytes(of: heads[c], as: UnsafeMutableRawPointer?.self)
        heads[c] = block
        cachedBytes += Self.classSize(c)
    }

    mutating func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let block else { return allocate(size) }
        let old = Self.capacity(block)
        if size <= old { return block }
        guard let moved = allocate(size) else { return nil }
        moved.copyMemory(from: block, byteCount: old)
        free(block)
        return moved
    }

    /// Frees every cached block and the lists (the session using the pool is gone).
    mutating func release() {
        for c in 0..<Self.classCount {
            while let block = heads[c] {
                heads[c] = block.load(as: UnsafeMutableRawPointer?.self)
                Glibc.free(block - Self.headerSize)
            }
        }
        cachedBytes = 0
        heads.deallocate()
    }
}

/// The pool behind nghttp2's allocator callbacks (`mem_user_data`); capture nothing.
func h2PoolMalloc(_ size: Int, _ pool: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    pool!.assumingMemoryBound(to: NGHTTP2BlockPool.self).pointee.allocate(size)
}

func h2PoolFree(_ block: UnsafeMutableRawPointer?, _ pool: UnsafeMutableRawPointer?) {
    pool!.assumingMemoryBound(to: NGHTTP2BlockPool.self).pointee.free(block)
}

func h2PoolCalloc(_ count: Int, _ size: Int, _ pool: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
    guard !overflow, let block = h2PoolMalloc(bytes, pool) else { return nil }
    memset(block, 0, bytes)
    return block
}

func h2PoolRealloc(_ block: UnsafeMutableRawPointer?, _ size: Int, _ pool: UnsafeMutableRawPointer?)
    -> UnsafeMutableRawPointer?
{
    pool!.assumingMemoryBound(to: NGHTTP2BlockPool.self).pointee.reallocate(block, size)
}
