/// Follows HTTP/2 frame boundaries in the bytes a client sends, ahead of nghttp2, to catch what nghttp2 lets
/// through with RFC 7540 priorities off (as on APNs), where it keeps no closed streams and skips PRIORITY frames:
/// - RFC 9113 §6.3: PRIORITY on stream 0 is a connection error of type PROTOCOL_ERROR;
/// - RFC 7540 §5.3.1 (h2spec 5.3.1 #2): a PRIORITY frame making a stream depend on itself is an error of type
///   PROTOCOL_ERROR. RFC 9113 §5.3.2 deprecates the priority scheme, but §6.3 still has receivers parse the frame;
///   answered as a connection error, as nghttp2 answers it with priorities on and for a HEADERS frame's
///   self-dependency;
/// - the stream-state rules of RFC 9113 §5.1, §5.1.1 and §6.1 on streams nghttp2 has forgotten
///   (`HTTP2ClientStreams`).
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
    static let dataType: UInt8 = 0x0
    static let headersType: UInt8 = 0x1
    static let priorityType: UInt8 = 0x2
    static let rstStreamType: UInt8 = 0x3
    static let endStreamFlag: UInt8 = 0x1
    /// A PRIORITY payload: exclusive bit and stream dependency (4 bytes), weight (1). nghttp2 refuses other
    /// lengths with FRAME_SIZE_ERROR (§6.3).
    static let priorityLength = 5

    private var prefaceLeft = prefaceLength
    private var payloadLeft = 0
    /// The PRIORITY frame whose payload is being read (its stream and where its header started), and the payload
    /// bytes read so far.
    private var priority: (stream: UInt32, headerOffset: Int)?
    private var priorityPayload: [UInt8] = []
    private(set) var streams = HTTP2ClientStreams()
    /// The RST_STREAM frames of the last scanned chunk that lie in it whole, well-formed (a 4-byte payload) and on
    /// a client stream, in order: where each starts in the chunk and its stream. The session drops from its input
    /// those whose stream nghttp2 has already closed (`HTTP2Session.receive`). Empty for nearly every chunk.
    private(set) var resets: [(offset: Int, stream: UInt32)] = []
    /// A well-formed RST_STREAM frame: its 9-byte header and its error code.
    static let rstStreamFrameLength = frameHeaderLength + 4
    /// Where the last scanned chunk's unfinished end starts, when it ends inside a frame header or inside an
    /// RST_STREAM frame: scanning stopped there, and the caller hands those bytes (at most 12) to nghttp2 only with
    /// the next chunk, scanned again in front of it. So a reset split across two reads is seen whole and can be left
    /// out of nghttp2's input like any other (`resets`); held, nghttp2 only waits for them as it would anyway.
    private(set) var heldFrom: Int?

    /// The client connection preface has been received in full.
    var prefaceReceived: Bool { prefaceLeft == 0 }

    /// The server sent RST_STREAM on `stream` (see `HTTP2ClientStreams.serverReset`).
    mutating func serverReset(stream: UInt32) { streams.serverReset(stream: stream) }

    /// Scans the next chunk; returns the first violation in it, if any (scanning then stops for good). The chunk must
    /// begin with the bytes the last scan held (`heldFrom`), if it held any.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Violation? {
        var i = 0
        let n = bytes.count
        if !resets.isEmpty { resets.removeAll(keepingCapacity: true) }
        heldFrom = nil
        // A PRIORITY frame whose header came in an earlier chunk: that part is already with nghttp2.
        if priority != nil { priority?.headerOffset = 0 }
        while i < n {
            if prefaceLeft > 0 {
                let k = min(prefaceLeft, n - i)
                prefaceLeft -= k
                i += k
            } else if payloadLeft > 0 {
                let k = min(payloadLeft, n - i)
                if let p = priority {
                    priorityPayload.append(
                        contentsOf: bytes[i..<i + min(k, Self.priorityLength - priorityPayload.count)])
                    if priorityPayload.count == Self.priorityLength {
                        priority = nil
                        let dependency =
                            (UInt32(priorityPayload[0]) << 24 | UInt32(priorityPayload[1]) << 16
                                | UInt32(priorityPayload[2]) << 8 | UInt32(priorityPayload[3])) & 0x7FFF_FFFF
                        if dependency == p.stream {
                            return Violation(
                                offset: p.headerOffset, errorCode: HTTP2ClientStreams.protocolError,
                                detail: "PRIORITY: stream depends on itself")
                        }
                    }
                }
                payloadLeft -= k
                i += k
            } else if n - i >= Self.frameHeaderLength {
                // The whole frame header is in this chunk (nearly always): read it in place.
                let h = bytes.baseAddress! + i
                let type = h.load(fromByteOffset: 3, as: UInt8.self)
                if type == Self.rstStreamType, h.load(as: UInt8.self) == 0,
                    h.load(fromByteOffset: 1, as: UInt8.self) == 0, h.load(fromByteOffset: 2, as: UInt8.self) == 4
                {
                    // A reset whose error code is in the next chunk: held, to be read whole with it.
                    guard n - i >= Self.rstStreamFrameLength else {
                        heldFrom = i
                        return nil
                    }
                    let stream = UInt32(bigEndian: h.loadUnaligned(fromByteOffset: 5, as: UInt32.self)) & 0x7FFF_FFFF
                    if stream & 1 == 1 { resets.append((i, stream)) }
                }
                i += Self.frameHeaderLength
                if let violation = frame(
                    length: Int(h.load(as: UInt8.self)) << 16 | Int(h.load(fromByteOffset: 1, as: UInt8.self)) << 8
                        | Int(h.load(fromByteOffset: 2, as: UInt8.self)),
                    type: type,
                    flags: h.load(fromByteOffset: 4, as: UInt8.self),
                    stream: UInt32(bigEndian: h.loadUnaligned(fromByteOffset: 5, as: UInt32.self)) & 0x7FFF_FFFF,
                    headerOffset: i - Self.frameHeaderLength)
                {
                    return violation
                }
            } else {
                // A frame header that goes on in the next chunk: held, to be read whole with it.
                heldFrom = i
                return nil
            }
        }
        return nil
    }

    /// A frame header read whole: updates the streams' record and starts on the payload.
    private mutating func frame(length: Int, type: UInt8, flags: UInt8, stream: UInt32, headerOffset: Int)
        -> Violation?
    {
        payloadLeft = length
        let endStream = flags & Self.endStreamFlag != 0
        let verdict: HTTP2ClientStreams.Verdict
        switch type {
        case Self.dataType:
            verdict = streams.data(stream: stream, endStream: endStream)
        case Self.headersType:
            verdict = streams.headers(stream: stream, endStream: endStream)
        case Self.rstStreamType:
            streams.clientReset(stream: stream)
            verdict = .pass
        case Self.priorityType:
            if stream == 0 {
                verdict = .violation(errorCode: HTTP2ClientStreams.protocolError, detail: "PRIORITY: stream_id == 0")
            } else {
                if length == Self.priorityLength {
                    priority = (stream, headerOffset)
                    priorityPayload.removeAll(keepingCapacity: true)
                }
                verdict = .pass
            }
        default:
            verdict = .pass
        }
        if case .violation(let code, let detail) = verdict {
            return Violation(offset: headerOffset, errorCode: code, detail: detail)
        }
        return nil
    }
}
