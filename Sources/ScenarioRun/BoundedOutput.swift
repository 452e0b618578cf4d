import CLinux
import Foundation

/// A command's output kept as a bounded head and tail: however much a command prints, memory holds at
/// most `headLimit + 2 × tailLimit` bytes, and what was dropped in between is counted (bytes and lines)
/// so the transcript can say so.
struct BoundedOutput {
    /// Bytes kept from the start of the stream.
    static let headLimit = 256 * 1024
    /// Bytes kept from the end of the stream.
    static let tailLimit = 256 * 1024

    private let headLimit: Int
    private let tailLimit: Int
    private(set) var head = Data()
    /// Grows to at most 2 × tailLimit before the oldest half is dropped (amortised trimming).
    private var tail = Data()
    private(set) var droppedBytes = 0
    private(set) var droppedLines = 0

    init(headLimit: Int = Self.headLimit, tailLimit: Int = Self.tailLimit) {
        self.headLimit = headLimit
        self.tailLimit = tailLimit
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if head.count < headLimit {
            let take = min(headLimit - head.count, rest.count)
            head.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[0..<take]))
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
        }
        guard !rest.isEmpty else { return }
        if rest.count >= tailLimit {
            // The chunk alone fills the tail: everything before its last tailLimit bytes is dropped.
            drop(tail)
            let cut = rest.count - tailLimit
            drop(UnsafeRawBufferPointer(rebasing: rest[0..<cut]))
            tail = Data(UnsafeRawBufferPointer(rebasing: rest[cut...]))
            return
        }
        tail.append(contentsOf: rest)
        if tail.count > 2 * tailLimit {
            let cut = tail.count - tailLimit
            drop(tail.prefix(cut))
            tail = Data(tail.suffix(tailLimit))
        }
    }

    private mutating func drop(_ data: Data) {
        data.withUnsafeBytes { drop($0) }
    }

    private mutating func drop(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        droppedBytes += bytes.count
        droppedLines += pc_count_byte(base, bytes.count, UInt8(ascii: "\n"))
    }

    /// The kept text; when something was dropped, a line in the middle says how much and of which stream.
    func text(stream: String) -> String {
        var tailBytes = tail
        var dropped = droppedBytes
        var lines = droppedLines
        if tailBytes.count > tailLimit {
            let cut = tailBytes.count - tailLimit
            dropped += cut
            lines += tailBytes.prefix(cut).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            tailBytes = Data(tailBytes.suffix(tailLimit))
        }
        let start = String(decoding: head, as: UTF8.self)
        guard dropped > 0 else { return start + String(decoding: tailBytes, as: UTF8.self) }
        let note =
            "[… pushcheck dropped \(dropped) bytes (\(lines) line breaks) of \(stream) here: it keeps the first "
            + "\(headLimit / 1024) KiB and the last \(tailLimit / 1024) KiB …]"
        let separatorBefore = start.hasSuffix("\n") ? "" : "\n"
        return start + separatorBefore + note + "\n" + String(decoding: tailBytes, as: UTF8.self)
    }
}
