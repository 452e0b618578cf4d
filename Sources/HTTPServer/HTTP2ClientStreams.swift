/// The state of every client-initiated stream as the client's own frames and the server's resets leave it, kept
/// ahead of nghttp2 by `HTTP2FrameScanner` for the rules nghttp2 cannot apply once it has forgotten a stream.
///
/// nghttp2 forgets a stream as soon as it closes (with RFC 7540 priorities off it keeps no closed streams), and
/// then ignores a frame on it: it cannot tell "closed" from "never opened". RFC 9113 asks for errors there:
/// - §5.1 (half-closed (remote), closed): DATA or HEADERS on a stream the client ended with END_STREAM or reset
///   with RST_STREAM is an error of type STREAM_CLOSED; §6.1 the same for DATA on any stream that is neither
///   open nor half-closed (local).
/// - §5.1.1: a new stream's identifier must be greater than every one the client used before; a HEADERS frame
///   on an identifier the client skipped is a connection error of type PROTOCOL_ERROR.
/// - §5.1 (closed): frames on a stream the *server* reset may still be in flight and MUST be ignored.
///
/// Each error is reported as a connection error (GOAWAY), which RFC 9113 §5.4.1 allows for any stream error
/// ("an endpoint MAY choose to treat a stream error as a connection error") and which is what nghttp2 itself
/// answers in the same cases while it still knows the stream. Pure logic: frame facts in, verdicts out.
struct HTTP2ClientStreams {
    /// What a client frame on a stream amounts to.
    enum Verdict: Equatable {
        /// nghttp2 takes it from here (a valid frame, or one nghttp2 already refuses or must ignore).
        case pass
        /// A connection error: RFC 9113 error code and GOAWAY debug text (worded as nghttp2 words its own).
        case violation(errorCode: UInt32, detail: String)
    }

    /// How many skipped identifier ranges are remembered (clients normally skip none). Past it the oldest is
    /// forgotten: a HEADERS frame on an identifier in it is then answered STREAM_CLOSED instead of PROTOCOL_ERROR,
    /// still a connection error.
    static let maxGaps = 32
    /// How many streams the server reset while the client could still send on them are remembered. RFC 9113 §5.1
    /// lets an endpoint limit the period over which it ignores such frames; past it, a late DATA or HEADERS frame
    /// on the oldest one is answered STREAM_CLOSED.
    static let maxServerResets = 256

    static let protocolError: UInt32 = 0x1
    static let streamClosed: UInt32 = 0x5

    /// The highest identifier a client HEADERS frame has opened (0: none yet).
    private(set) var lastOpened: UInt32 = 0
    /// Streams the client opened and has neither ended nor reset, and the server has not reset. At most what
    /// nghttp2 holds open plus the refused ones whose RST_STREAM is still queued: nghttp2 answers more
    /// concurrent streams than SETTINGS_MAX_CONCURRENT_STREAMS with a connection error.
    private var open = StreamMap<Void>()
    /// Streams the server reset while they were in `open`, oldest first (a ring of `maxServerResets`).
    private var serverResets: [UInt32] = []
    private var nextServerReset = 0
    /// Identifier ranges the client jumped over (opening 7 right after 1 skips 3...5), oldest first.
    private var gaps: [ClosedRange<UInt32>] = []

    /// Where a client-initiated (odd, non-zero) stream stands.
    enum State: Equatable {
        /// Greater than any opened: using it opens a new stream.
        case idle
        /// Opened, and the client may still send on it.
        case open
        /// The server reset it: late frames are ignored.
        case resetByServer
        /// Skipped by a greater identifier: never opened, now closed (§5.1.1).
        case skipped
        /// The client ended it (END_STREAM) or reset it (RST_STREAM).
        case endedByClient
    }

    func state(of stream: UInt32) -> State {
        if stream > lastOpened { return .idle }
        if open.contains(stream) { return .open }
        if serverResets.contains(stream) { return .resetByServer }
        if gaps.contains(where: { $0.contains(stream) }) { return .skipped }
        return .endedByClient
    }

    /// Server-initiated identifiers (even) and stream 0 are nghttp2's to judge: it refuses them all.
    private static func isClientStream(_ stream: UInt32) -> Bool { stream & 1 == 1 }

    /// A HEADERS frame from the client (the END_STREAM flag is on the HEADERS frame, not its CONTINUATIONs).
    mutating func headers(stream: UInt32, endStream: Bool) -> Verdict {
        guard Self.isClientStream(stream) else { return .pass }
        switch state(of: stream) {
        case .idle:
            open(stream, endStream: endStream)
            return .pass
        case .open:
            // Trailers; nghttp2 refuses trailers without END_STREAM (RFC 9113 §8.1) with RST_STREAM.
            if endStream { open.remove(stream) }
            return .pass
        case .resetByServer:
            // Decoded by nghttp2 (the HPACK state must stay in step) and ignored.
            return .pass
        case .skipped:
            return .violation(errorCode: Self.protocolError, detail: "HEADERS: stream_id below an opened stream")
        case .endedByClient:
            return .violation(errorCode: Self.streamClosed, detail: "HEADERS: stream closed")
        }
    }

    /// A DATA frame from the client.
    mutating func data(stream: UInt32, endStream: Bool) -> Verdict {
        guard Self.isClientStream(stream) else { return .pass }
        switch state(of: stream) {
        case .idle, .resetByServer:
            // Idle: nghttp2's PROTOCOL_ERROR (§5.1). Reset by us: nghttp2 ignores it and still counts it against
            // the connection's flow-control window (§6.9).
            return .pass
        case .open:
            if endStream { open.remove(stream) }
            return .pass
        case .skipped, .endedByClient:
            return .violation(errorCode: Self.streamClosed, detail: "DATA: stream closed")
        }
    }

    /// An RST_STREAM frame from the client: nothing more may come on the stream (§5.1 closed).
    mutating func clientReset(stream: UInt32) {
        open.remove(stream)
    }

    /// The server sent RST_STREAM on `stream` (a refused stream, a stream error nghttp2 found): frames the client
    /// sent before seeing it are ignored.
    mutating func serverReset(stream: UInt32) {
        guard open.remove(stream) != nil else { return }
        if serverResets.count < Self.maxServerResets {
            serverResets.append(stream)
        } else {
            serverResets[nextServerReset] = stream
            nextServerReset = (nextServerReset + 1) % Self.maxServerResets
        }
    }

    private mutating func open(_ stream: UInt32, endStream: Bool) {
        // The first use of an identifier closes every lower idle one (§5.1.1): remember the skipped ones.
        let firstSkipped = lastOpened == 0 ? 1 : lastOpened + 2
        if stream > firstSkipped {
            if gaps.count == Self.maxGaps { gaps.removeFirst() }
            gaps.append(firstSkipped...(stream - 2))
        }
        lastOpened = stream
        if !endStream { open.set(stream, ()) }
    }
}
