import CNghttp2

/// Fills caller-sized buffers with response header fields for nghttp2 (no closures capturing the position).
struct NVWriter {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let nva: UnsafeMutableBufferPointer<nghttp2_nv>
    var used = 0
    var count = 0

    /// Bytes reserved for `name` plus a decimal Int.
    static func numberFieldSize(_ name: String) -> Int { name.utf8.count + 20 }

    /// `indexed: false` sends the field as a never-indexed literal (RFC 7541 §6.2.3): it is not added to the HPACK
    /// table, though its name may still come from there.
    mutating func add(_ name: String, _ value: String, indexed: Bool) {
        let n = put(name)
        let v = put(value)
        field(n, v, indexed: indexed)
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
        field(n, start..<used, indexed: true)
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

    private mutating func field(_ name: Range<Int>, _ value: Range<Int>, indexed: Bool) {
        let base = bytes.baseAddress!
        let flag = indexed ? NGHTTP2_NV_FLAG_NONE : NGHTTP2_NV_FLAG_NO_INDEX
        nva.initializeElement(
            at: count,
            to: nghttp2_nv(
                name: base + name.lowerBound, value: base + value.lowerBound, namelen: name.count,
                valuelen: value.count, flags: UInt8(flag.rawValue)))
        count += 1
    }
}
