import Testing

@testable import PushModel

@Suite struct ByteArrayTests {
    /// The writer sees a buffer of exactly the count asked for, and the array holds what it wrote.
    @Test(arguments: [0, 1, 7, 4096, 100_003])
    func holdsWhatTheWriterWrote(count: Int) {
        var seen = -1
        let bytes = [UInt8](exactCount: count) { buffer in
            seen = buffer.count
            for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
        }
        #expect(seen == count)
        #expect(bytes.count == count)
        #expect(bytes == (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    /// A value type like any array: a copy mutated later leaves the original alone, and appending grows it.
    @Test func behavesAsAnOrdinaryArrayAfterwards() {
        let original = [UInt8](exactCount: 3) { buffer in buffer.initialize(repeating: 9) }
        var copy = original
        copy[0] = 1
        copy.append(contentsOf: [4, 5])
        #expect(original == [9, 9, 9])
        #expect(copy == [1, 9, 9, 4, 5])
    }
}
