import CNghttp2

/// Fills caller-sized buffers with response header fields for nghttp2 (no closures capturing the position).
struct NVWriter {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let nva: UnsafeMutableBufferPointer<nghttp2_nv>
    var used = 0
    var count = 0

    /// Bytes reserved for `name` plus a decimal Int.
    static func numberFieldSize(_ name: String) -> Int { name.utf8.count + 20 }

    mutating func add(_ name: String, _ value: String) {
        let n = put(name)
        let v = put(value)
        field(n, v)
    }

    mutating func add(_ name: String, number: Int) {
        let n = put(name)
        let start = used
        if number < 0 {
            _ = put(String(number))
        } else {
            var divisor = 1
            while divisor <= number / 10 { divisor *= 10 }
            var rest = number
            while divisor > 0 {
                bytes[used] = UInt8(ascii: "0") + UInt8(rest / divisor)
                used += 1
                rest %= divisor
                divisor /= 10
            }
        }
        field(n, start..<used)
    }

    private mutating func put(_ s: String) -> Range<Int> {
        let start = used
        let copied: Void? = s.utf8.withContiguousStorageIfAvailable { src in
            if let base = src.baseAddress, !src.isEmpty {
                (bytes.baseAddress! + used).initialize(from: base, count: src.count)
                used += src.count
            }
        }
        if copied == nil {
            for b in s.utf8 {
                bytes[used] = b
                used += 1
            }
        }
        return start..<used
    }

    private mutating func field(_ name: Range<Int>, _ value: Range<Int>) {
        let base = bytes.baseAddress!
        // Long values (ids, timestamps) are unique per response: indexing them in the HPACK table would only
        // evict useful entries and cost an insertion and an eviction per header.
        let flag = value.count > HTTP2Session.maxIndexedValueLength ? NGHTTP2_NV_FLAG_NO_INDEX : NGHTTP2_NV_FLAG_NONE
        nva.initializeElement(
            at: count,
            to: nghttp2_nv(
                name: base + name.lowerBound, value: base + value.lowerBound, namelen: name.count,
                valuelen: value.count, flags: UInt8(flag.rawValue)))
        count += 1
    }
}
