import PushModel

/// Length-prefixed packing of strings and byte arrays into one buffer, for the gateway's bounded rings (delivery
/// log, delivery history): one allocation per kept record instead of one per string, and one free when the ring
/// drops it.
enum PackedBytes {
    static let absent = UInt32.max

    /// Bytes `put(_:)` needs for `s`.
    static func size(_ s: String?) -> Int { 4 + (s?.utf8.count ?? 0) }

    /// A buffer of exactly `size` bytes, filled by `body`.
    static func pack(size: Int, _ body: (inout Writer) -> Void) -> [UInt8] {
        [UInt8](exactCount: size) { buffer in
            var w = Writer(buffer: buffer)
            body(&w)
            precondition(w.at == size, "packed size mismatch")
        }
    }

    /// Raw writes (no closures capturing the position: those cost an access check per byte).
    struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var at = 0

        mutating func put(_ b: UInt8) {
            buffer[at] = b
            at += 1
        }

        /// Little-endian, in one store (a byte at a time was a loop per length prefix, a dozen per entry).
        mutating func put(_ n: UInt32) {
            UnsafeMutableRawPointer(buffer.baseAddress! + at).storeBytes(of: n.littleEndian, as: UInt32.self)
            at += 4
        }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            (buffer.baseAddress! + at).initialize(from: base, count: bytes.count)
            at += bytes.count
        }

        /// Length, then the bytes.
        mutating func put(_ bytes: [UInt8]) { put(bytes[...]) }

        /// Length, then the bytes.
        mutating func put(_ bytes: ArraySlice<UInt8>) {
            put(UInt32(bytes.count))
            bytes.withUnsafeBufferPointer { put($0) }
        }

        /// Length (or `absent`), then the UTF-8.
        mutating func put(_ s: String?) {
            guard let s else { return put(PackedBytes.absent) }
            put(UInt32(s.utf8.count))
            let copied: Void? = s.utf8.withContiguousStorageIfAvailable { put($0) }
            if copied == nil { for b in s.utf8 { put(b) } }
        }
    }

    /// Reads back what `Writer` wrote, in the same order.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u32() -> UInt32 {
            var n: UInt32 = 0
            for shift in stride(from: 0, to: 32, by: 8) { n |= UInt32(byte()) << UInt32(shift) }
            return n
        }

        mutating func byteArray() -> [UInt8] {
            let n = Int(u32())
            defer { offset += n }
            return Array(bytes[offset..<offset + n])
        }

        mutating func string() -> String? {
            let n = u32()
            guard n != PackedBytes.absent else { return nil }
            defer { offset += Int(n) }
            return String(decoding: bytes[offset..<offset + Int(n)], as: UTF8.self)
        }
    }
}
