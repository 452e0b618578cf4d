import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// One accepted socket: optional TLS, protocol detection (ALPN, then the first bytes), one protocol engine,
/// an output buffer with backpressure, and idle tracking. Owned by its loop's `LoopState`; loop thread only.
final class Connection {
    /// Stop reading (and stop pulling from the engine) while this many bytes wait for the socket.
    static let highWater = 256 * 1024

    let id: UInt64
    let fd: Int32
    let listener: ListenerRuntime
    /// The loop that owns this connection (it keeps every open `Connection` and outlives them). `unowned(unsafe)`:
    /// a checked `unowned` read costs an atomic `swift_unownedRetainStrong` and a release per access, several per
    /// request on the loop thread (`make bench-map`); the ownership makes the check redundant.
    unowned(unsafe) let state: LoopState
    let remoteAddress: String
    private let tls: TLSSession?
    private(set) var session: (any ProtocolSession)?
    private(set) var context: ConnectionContext?
    private var sniffed: [UInt8] = []
    private var out: [UInt8] = []
    private var outOffset = 0
    private var interest: UInt32 = 0
    private var closeWhenFlushed = false
    /// The peer shut down its sending side: answer what is in flight, then close.
    private var peerHalfClosed = false
    /// Inside `session.receive` or `session.respond`: nghttp2 may be running callbacks (no output may be
    /// pulled from it) and a nested respond would recurse, so responses wait in `answered` until it returns.
    @exclusivity(unchecked) private var inSession = false
    /// Responses the handler gave synchronously while `inSession`, in order; each is taken out (nil left behind)
    /// when queued, so queuing does not copy it.
    ///
    /// `inSession`, `answered` and `spareSlot` are touched once or twice per request; the connection is
    /// loop-confined and none of their accesses overlaps another, so their run-time exclusivity checks
    /// (`swift_beginAccess`) are off.
    @exclusivity(unchecked) private var answered: [(stream: Int32?, response: HTTPResponse)?] = []
    /// The last request's response slot, when no responder kept it: the next request reuses it.
    @exclusivity(unchecked) private var spareSlot: InlineResponseSlot?
    private(set) var closed = false
    private(set) var lastActivity = monotonicNow()
    private let acceptedAt = monotonicNow()
    /// TLS handshake done and the protocol preface received (then only the idle timeout applies).
    private var opened = false

    init(id: UInt64, fd: Int32, listener: ListenerRuntime, state: LoopState, remoteAddress: String) {
        self.id = id
        self.fd = fd
        self.listener = listener
        self.state = state
        self.remoteAddress = remoteAddress
        tls = listener.tls.flatMap { TLSSession(context: $0) }
        interest = pc_EPOLLIN()
        _ = pc_epoll_add(state.loop.epollFD, fd, interest, id)
    }

    private var pending: Int { out.count - outOffset }

    /// Idle: nothing in flight and no traffic for the listener's idle timeout.
    func isIdle(now: Int64) -> Bool {
        (session?.inFlightRequests ?? 0) == 0 && now - lastActivity > listener.config.idleTimeout.nanoseconds
    }

    /// Still not opened (TLS handshake, HTTP/2 preface) this long after accept: a client trickling a byte at a
    /// time keeps `lastActivity` fresh, so the idle timeout alone never ends it.
    func missedOpeningDeadline(now: Int64) -> Bool {
        if opened { return false }
        if tls?.handshakeComplete ?? true, let session, session.prefaceReceived {
            opened = true
            return false
        }
        return now - acceptedAt > listener.config.openingTimeout.nanoseconds
    }

    // MARK: events

    func handle(events: UInt32) {
        if peerHalfClosed && events & (pc_EPOLLERR() | pc_EPOLLHUP()) != 0 { return close() }
        if events & (pc_EPOLLIN() | pc_EPOLLERR() | pc_EPOLLHUP()) != 0 { readAvailable() }
        if !closed && events & pc_EPOLLOUT() != 0 { flush() }
    }

    private func readAvailable() {
        let buffer = state.readBuffer
        for _ in 0..<8 where !closed && interest & pc_EPOLLIN() != 0 {
            let result: IOResult<Int>
            do {
                result = try syscall("read") { read(fd, buffer.baseAddress, buffer.count) }
            } catch {
                return close()
            }
            guard case .done(let n) = result else { break }
            if n == 0 {
                peerHalfClosed = true
                break
            }
            lastActivity = monotonicNow()
            received(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        if !closed { flush() }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else { return plaintext(bytes) }
        tls.feed(bytes)
        if !tls.handshakeComplete {
            switch tls.handshake() {
            case .inProgress:
                tls.drainCiphertext(into: &out)
                return
            case .failed:
                tls.drainCiphertext(into: &out)  // the alert, if any
                closeWhenFlushed = true
                return
            case .done:
                tls.drainCiphertext(into: &out)
                switch tls.negotiatedALPN {
                case "h2": startSession(.http2)
                case "http/1.1": startSession(.http1_1)
                default: break  // no ALPN: the first bytes decide
                }
            }
        }
        var plain = state.takePlaintextBuffer()
        defer { state.returnPlaintextBuffer(plain) }
        let (closedByPeer, failed) = tls.readPlaintext(into: &plain, scratch: state.tlsBuffer)
        if !plain.isEmpty { plain.withUnsafeBytes { plaintext($0) } }
        if failed { closeWhenFlushed = true } else if closedByPeer { peerHalfClosed = true }
    }

    private func plaintext(_ bytes: UnsafeRawBufferPointer) {
        if closeWhenFlushed { return }
        guard let session else {
            sniffed.append(contentsOf: bytes)
            switch ProtocolSniffer.sniff(sniffed) {
            case .needMore: return
            case .http2: startSession(.http2)
            case .http1_1: startSession(.http1_1)
            }
            let buffered = sniffed
            sniffed = []
            return buffered.withUnsafeBytes { plaintext($0) }
        }
        inSession = true
        let ok = session.receive(bytes)
        inSession = false
        if !ok { closeWhenFlushed = true }
        respondToAnswered()  // `readAvailable` flushes once for the whole read
    }

    /// Queues the responses given while inside the session (and those their queuing produces, e.g. the next
    /// pipelined HTTP/1.1 request's), in order, without recursion.
    private func respondToAnswered() {
        var next = 0
        while next < answered.count && !closed {
            let (stream, response) = answered[next].take()!
            next += 1
            queue(stream: stream, response)
        }
        answered.removeAll(keepingCapacity: true)
    }

    private func startSession(_ version: HTTPVersion) {
        let security: TransportSecurity
        var trusted = false
        if let tls {
            let peer = tls.peerCertificate
            trusted = peer?.trusted ?? false
            security = .tls(alpn: tls.negotiatedALPN, peerCertificateDER: peer?.der)
        } else {
            security = .cleartext
        }
        let context = ConnectionContext(
            id: id, listenerName: listener.config.name, remoteAddress: remoteAddress, localPort: listener.port,
            security: security, version: version, clientCertificateTrusted: trusted)
        self.context = context
        let handler = listener.config.handler
        let initialStreams = handler.connectionOpened(context) ?? listener.config.maxConcurrentStreams
        let limits = RequestLimits(
            maxBodySize: listener.config.maxBodySize, maxHeaderListSize: listener.config.maxHeaderListSize,
            dispatchOversized: handler.answersOversizedRequests)
        let loop = state.loop
        let id = self.id
        // Runs the handler with a responder around `slot`; the responder is gone when this returns, unless the
        // handler kept it (a delayed answer).
        func run(_ request: consuming HTTPRequest, _ slot: InlineResponseSlot) -> HTTPResponse? {
            let responder = HTTPResponder { slot.respond($0) }  // one capture: the slot is the closure's context
            handler.handle(request, context: context, responder: responder)
            return slot.close()
        }
        // `unowned(unsafe)`: the session holding this closure is the connection's own, and is dropped with it; a
        // checked `unowned` cost an atomic retain and a release at each of the closure's five reads of `self`.
        let dispatch: (consuming HTTPRequest) -> Void = { [unowned(unsafe) self] request in
            let stream = request.streamID
            var slot: InlineResponseSlot
            if let spare = self.spareSlot {
                self.spareSlot = nil
                slot = spare
                slot.reopen(stream: stream)
            } else {
                slot = InlineResponseSlot(loop: loop, connection: id, stream: stream)
            }
            let answer = run(request, slot)
            // Nobody else holds the slot (no responder escaped): the next request reuses it.
            if isKnownUniquelyReferenced(&slot) { self.spareSlot = slot }
            guard let response = answer else { return }
            if self.inSession {
                self.answered.append((stream, response))
            } else {
                self.respond(stream: stream, response)
            }
        }
        switch version {
        case .http2:
            session = HTTP2Session(maxConcurrentStreams: initialStreams, limits: limits, onRequest: dispatch)
        case .http1_1:
            session = HTTP1Session(limits: limits, onRequest: dispatch)
        }
        state.stats.protocolSelected(version)
    }

    // MARK: responses and actions

    /// Queues `response` for `stream`, applies its actions, and writes.
    func respond(stream: Int32?, _ response: HTTPResponse) {
        lastActivity = monotonicNow()
        queue(stream: stream, response)
        respondToAnswered()
        flush()
    }

    /// Hands one response to the session and applies its actions; writes only for a dropped connection. Does not
    /// read the clock: an answer given inline comes in the same wake-up as the read that set `lastActivity`, and
    /// `respond` sets it for a later one.
    private func queue(stream: Int32?, _ response: HTTPResponse) {
        // A dropped connection never writes the response it came with: the client sees the socket close
        // mid-request, as when a real gateway's connection dies (bytes already queued are flushed).
        if response.actions.contains(.drop) {
            flush()
            return close()
        }
        guard let session, !closed else { return }
        inSession = true
        let accepted = session.respond(stream: stream, response)
        inSession = false
        guard accepted else { return }
        state.stats.requestServed()
        for action in response.actions {
            switch action {
            case .goAway(let code, let debug): session.goAway(errorCode: code, debugData: debug)
            case .setMaxConcurrentStreams(let n): session.setMaxConcurrentStreams(n)
            case .drop: break  // handled above
            }
        }
    }

    /// Graceful shutdown: HTTP/2 gets GOAWAY(NO_ERROR, `{"reason":"Shutdown"}`) and finishes in-flight streams;
    /// HTTP/1.1 closes after the current response; a connection still handshaking or sniffing closes now.
    func beginShutdown() {
        guard let session else { return close() }
        session.goAway(errorCode: 0, debugData: Self.apnsReason("Shutdown"))
        flush()
    }

    /// Idle timeout (or opening deadline): say goodbye on HTTP/2 with GOAWAY(NO_ERROR, `{"reason":"IdleTimeout"}`),
    /// then close without waiting.
    func closeIdle() {
        session?.goAway(errorCode: 0, debugData: Self.apnsReason("IdleTimeout"))
        flush()
        close()
    }

    /// GOAWAY debug data as APNs writes it: JSON with a `reason` from its error table (`IdleTimeout`, `Shutdown`;
    /// shared/reference/apns.md §1.1), so a client that reads APNs' GOAWAY reason meets it on these closes too.
    static func apnsReason(_ reason: String) -> [UInt8] { Array(#"{"reason":"\#(reason)"}"#.utf8) }

    // MARK: output

    func flush() {
        guard !closed else { return }
        while true {
            if pending < Self.highWater, let session {
                var plain: [UInt8] = []
                session.produceOutput(into: &plain, limit: Self.highWater)
                if !plain.isEmpty {
                    if let tls {
                        tls.write(plain)
                        tls.drainCiphertext(into: &out)
                    } else {
                        out.append(contentsOf: plain)
                    }
                }
            }
            if pending == 0 { break }
            let result: IOResult<Int>
            do {
                result = try out.withUnsafeBytes { raw throws(HTTPServerError) in
                    try syscall("write") {
                        send(fd, raw.baseAddress! + outOffset, raw.count - outOffset, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch {
                return close()
            }
            guard case .done(let n) = result else { break }
            outOffset += n
            lastActivity = monotonicNow()
            if outOffset == out.count {
                out.removeAll(keepingCapacity: true)
                outOffset = 0
            }
        }
        if outOffset > 65536 {
            out.removeFirst(outOffset)
            outOffset = 0
        }
        let inFlight = session?.inFlightRequests ?? 0
        let finished = closeWhenFlushed || (session?.isFinished ?? false) || (peerHalfClosed && inFlight == 0)
        if finished && pending == 0 { return close() }
        var wanted: UInt32 = 0
        if pending > 0 { wanted |= pc_EPOLLOUT() }
        if pending < Self.highWater && !finished && !peerHalfClosed && (session?.acceptsInput ?? true) {
            wanted |= pc_EPOLLIN()
        }
        if wanted != interest {
            if interest & pc_EPOLLIN() != 0 && pending >= Self.highWater { state.stats.backpressurePaused() }
            interest = wanted
            _ = pc_epoll_mod(state.loop.epollFD, fd, wanted, id)
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        state.connectionClosed(self)  // before the fd closes, so a peer that sees EOF sees the count too
        _ = pc_epoll_del(state.loop.epollFD, fd)
        Glibc.close(fd)
        if let context { listener.config.handler.connectionClosed(context) }
    }
}
