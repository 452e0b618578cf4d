import PushModel
import Synchronization

/// A file's bytes kept deflated, in blocks that inflate on their own: what a suite's text becomes once its scenarios
/// are deferred (`SourceText.compact()`), read again an item at a time through a long run. The most recent block read
/// is kept inflated: a run takes a file's scenarios in order, so a block is inflated about once.
final class DeflatedText: Sendable {
    /// Bytes of text per block: small enough that reading one item inflates little, large enough to deflate well
    /// (the runner bench's suite: 5 % of its size; the repository's suites, 30 %).
    static let blockSize = 16 * 1024

    /// Each block's deflated bytes (one gzip member, `Gzip`); block `i` holds the text's bytes from `i * blockSize`.
    private let blocks: [[UInt8]]
    /// The text's size in bytes.
    let count: Int
    /// The last block inflated, by number.
    private let recent = Mutex<(block: Int, bytes: [UInt8])?>(nil)

    /// `bytes` deflated; nil when zlib fails or deflating saves less than a quarter (the text is kept as it is).
    init?(_ bytes: [UInt8]) {
        var blocks: [[UInt8]] = []
        var total = 0
        var start = 0
        while start < bytes.count {
            let end = min(start + Self.blockSize, bytes.count)
            let block = Gzip.compress(Array(bytes[start..<end]), level: 1)
            guard !block.isEmpty else { return nil }
            total += block.count
            blocks.append(block)
            start = end
        }
        guard total < bytes.count - bytes.count / 4 else { return nil }
        self.blocks = blocks
        self.count = bytes.count
    }

    /// The bytes of `range` (within `0..<count`); nil when a block does not inflate (it cannot: zlib made it).
    func bytes(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= count else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var at = range.lowerBound
        while at < range.upperBound {
            let number = at / Self.blockSize
            guard let block = inflated(number) else { return nil }
            let blockStart = number * Self.blockSize
            let end = min(range.upperBound, blockStart + block.count)
            out.append(contentsOf: block[(at - blockStart)..<(end - blockStart)])
            at = end
        }
        return out
    }

    private func inflated(_ number: Int) -> [UInt8]? {
        if let recent = recent.withLock({ $0 }), recent.block == number { return recent.bytes }
        let size = min(Self.blockSize, count - number * Self.blockSize)
        guard let bytes = try? Gzip.decompress(blocks[number]), bytes.count == size else { return nil }
        recent.withLock { $0 = (number, bytes) }
        return bytes
    }
}
