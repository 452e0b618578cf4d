/// Follows HTTP/2 frame boundaries in the bytes a client sends, ahead of nghttp2, to catch what nghttp2 lets
/// through: with RFC 7540 priorities off (as on APNs), nghttp2 skips PRIORITY frames without looking at their
/// stream id, but RFC 9113 §6.3 makes PRIORITY on stream 0 a connection error of type PROTOCOL_ERROR.
/// Also tells when the 24-byte client connection preface has fully arrived (the opening deadline).
/// Pure logic: bytes in, verdicts out.
struct HTTP2FrameScanner {
    /// A frame the connection must die for.
    struct Violation: Equatable {
        /// Offset in the scanned chunk where the offending frame's header starts (0 when it began in an earlier
        /// chunk): everything before it is fed to nghttp2 first.
        var offset: Int
        /// RFC 9113 error code for the GOAWAY.
        var errorCode: UInt32
        /// GOAWAY debug data, worded as nghttp2 words its own connection errors.
        var detail: String
    }

    static let prefaceLength = 24
    static let frameHeaderLength = 9
    static let priorityType: UInt8 = 0x2

    private var prefaceLeft = prefaceLength
    private var header: [UInt8] = []
    private var payloadLeft = 0

    /// The client connection preface has been received in full.
    var prefaceReceived: Bool { prefaceLeft == 0 }

    /// Scans the next chunk; returns the first violation in it, if any (scanning then stops for good).
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Violation? {
        var i = 0
        let n = bytes.count
        while i < n {
            if prefaceLeft > 0 {
                let k = min(prefaceLeft, n - i)
                prefaceLeft -= k
                i += k
            } else if payloadLeft > 0 {
                let k = min(payloadLeft, n - i)
                payloadLeft -= k
                i += k
            } else {
                let k = min(Self.frameHeaderLength - header.count, n - i)
                header.append(contentsOf: bytes[i..<i + k])
                i += k
                guard header.count == Self.frameHeaderLength else { continue }
                let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                let type = header[3]
                let stream =
                    (UInt32(header[5]) << 24 | UInt32(header[6]) << 16 | UInt32(header[7]) << 8
                        | UInt32(header[8])) & 0x7FFF_FFFF
                header.removeAll(keepingCapacity: true)
                payloadLeft = length
                if type == Self.priorityType && stream == 0 {
                    return Violation(
                        offset: max(0, i - Self.frameHeaderLength), errorCode: 0x1,
                        detail: "PRIORITY: stream_id == 0")
                }
            }
        }
        return nil
    }
}
