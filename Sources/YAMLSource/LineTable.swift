/// Where each line of a text starts and ends, in about 3 bytes a line (a run keeps its suites' line tables to the
/// end, and a `Range` of two 32-bit offsets took 8): every 32nd line's start in full, the others as their distance
/// from the line before (16 bits; a longer line's start is kept apart), and each line's break length (the bytes
/// between its end and the next line's start).
struct LineTable: Sendable {
    /// Lines between two starts kept in full.
    private static let checkpointEvery = 32
    /// A distance that did not fit: the start is in `farStarts`.
    private static let far = UInt16.max

    /// The start of lines 0, 32, 64, …
    private var checkpoints: [UInt32] = []
    /// Each line's start minus the previous line's (unused for a checkpoint line).
    private var distances: [UInt16] = []
    /// Each line's break length (0 for the last line).
    private var breaks: [UInt8] = []
    /// The starts whose distance did not fit, by line.
    private var farStarts: [Int: Int] = [:]
    /// The last line's end.
    private var lastEnd = 0

    /// How many lines.
    var count: Int { breaks.count }

    /// The last line's end: the text's size (0 for an empty table).
    var end: Int { lastEnd }

    /// An empty table (no lines).
    init() {}

    /// Adds the next line (its offsets: after the previous line's, within 32 bits).
    mutating func append(_ line: Range<Int>) {
        let index = count
        if index > 0 {
            breaks[index - 1] = UInt8(clamping: line.lowerBound - lastEnd)
        }
        if index % Self.checkpointEvery == 0 {
            checkpoints.append(UInt32(clamping: line.lowerBound))
            distances.append(0)
        } else {
            let distance = line.lowerBound - start(index - 1)
            if distance < Int(Self.far) {
                distances.append(UInt16(distance))
            } else {
                distances.append(Self.far)
                farStarts[index] = line.lowerBound
            }
        }
        breaks.append(0)
        lastEnd = line.upperBound
    }

    /// The same table in arrays of its size (appending leaves them up to twice as large).
    mutating func trim() {
        checkpoints = Array(checkpoints[...])
        distances = Array(distances[...])
        breaks = Array(breaks[...])
    }

    /// Line `index`'s offsets (0-based, below `count`), without its break.
    subscript(index: Int) -> Range<Int> {
        let start = start(index)
        let end = index == count - 1 ? lastEnd : self.start(index + 1) - Int(breaks[index])
        return start..<end
    }

    private func start(_ index: Int) -> Int {
        var line = index
        var sum = 0
        while true {
            if line % Self.checkpointEvery == 0 { return Int(checkpoints[line / Self.checkpointEvery]) + sum }
            let distance = distances[line]
            if distance == Self.far { return farStarts[line]! + sum }
            sum += Int(distance)
            line -= 1
        }
    }
}
