import CNghttp2
#if canImport(Glibc)
import Glibc
import HTTPTypes
#endif

/// HTTP/2 server engine over one `nghttp2_session` (memory in, memory out). Loop-confined: nghttp2 sessions
/// are not thread-safe, and every callback below runs inside `receive` or `produceOutput` on the loop thread.
final class HTTP2Session: ProtocolSession {
    /// A request being assembled from HEADERS/CONTINUATION/DATA.
    struct IncomingStream {
        var method = ""
        var path = ""
        var authority: String?
        var scheme: String?
        var headers: [HTTPField] = []
        var body = IncomingBody()
        var headerBytes = 0
        var headersTooLarge = false

        enum Pseudo { case method, path, authority, scheme }

        /// Counts a field against the header list limit; false: drop it (over the limit, and not a pseudo-header).
        mutating func countHeader(size: Int, limit: Int, pseudo: Bool) -> Bool {
            headerBytes += size
            if headerBytes > limit { headersTooLarge = true }
            return !headersTooLarge || pseudo
        }

        mutating func set(_ pseudo: Pseudo, _ value: consuming String) {
            switch pseudo {
            case .method: method = value
            case .path: path = value
            case .authority: authority = value
            case .scheme: scheme = value
            }
        }

        mutating func append(_ field: consuming HTTPField) {
            // One allocation for a typical request's headers instead of one per doubling.
            if headers.isEmpty { headers.reserveCapacity(8) }
            headers.append(field)
        }

        /// The complete request, its parts moved one by one into `request` (an empty one the caller made: each part
        /// is swapped with its empty value, so no retain or release and no copy of the whole entry). Returned by
        /// value instead, the request was built in a temporary, copied out (a retain per reference) and the
        /// temporary destroyed (a release per reference): `HTTPRequest`'s outlined copy was 0.8 % of an FCM send's
        /// samples in `swift_retain` alone.
        mutating func moveRequest(stream: Int32, into request: inout HTTPRequest) {
            swap(&request.method, &method)
            swap(&request.path, &path)
            swap(&request.authority, &authority)
            swap(&request.scheme, &scheme)
            swap(&request.headers, &headers)
            swap(&request.body, &body.bytes)
            request.streamID = stream
            request.bodyOverLimit = body.overLimit
        }
    }

    /// A response body being handed to nghttp2 by the data provider.
    struct OutgoingBody {
        var bytes: [UInt8]
        var offset = 0
    }

    /// How many recent long header values `recentString` remembers.
    static let recentValueSlots = 8

    /// Response header values longer than this are indexed in the HPACK table only the first time their name is
    /// sent on a connection, or when they repeat that first value (`LongFieldIndexing`).
    static let maxIndexedValueLength = 24

    /// The per-stream state every nghttp2 callback touches (several times per header field).
    struct StreamTable {
        var streams = StreamMap<IncomingStream>(capacity: 4)
        /// The stream whose header block is being received and its slot in `streams` (valid until the next
        /// insertion or removal: `beginHeaders`, `endOfRequest` and `streamClosed` reset it). A header block is
        /// contiguous (HEADERS then CONTINUATION, nothing in between), so the field callbacks that follow are for
        /// this stream.
        var headerBlock: (stream: Int32, slot: Int)?
        var bodies = StreamMap<OutgoingBody>(capacity: 4)
        /// Requests handed to the handler and not answered yet.
        var awaiting = StreamMap<Void>()
        var recentValues: [String] = []
        var nextRecentSlot = 0
        var longFields = LongFieldIndexing()
    }

    /// Held through a pointer the session owns rather than as stored properties: every access to a class's
    /// stored `var` is checked for exclusivity at run time (`swift_beginAccess`/`swift_endAccess`, ~4 % of the
    /// gateway's CPU at ~40 accesses per request), while the session is loop-confined and never re-entered
    /// during one access. Allocated in `init`, freed in `deinit`.
    private let table = UnsafeMutablePointer<StreamTable>.allocate(capacity: 1)

    private var session: OpaquePointer?
    /// nghttp2 failed in a way that leaves nothing to send: close now.
    private var fatal = false
    /// A connection error was found: input is ignored, the GOAWAY already queued is sent, then the connection
    /// closes.
    private var terminating = false
    private var scanner = HTTP2FrameScanner()
    /// The end of the last chunk the scanner held back (`HTTP2FrameScanner.heldFrom`, at most 12 bytes): fed with the
    /// next chunk, in front of it.
    private var held: [UInt8] = []
    let limits: RequestLimits
    private let onRequest: (consuming HTTPRequest) -> Void

    /// - Parameter onRequest: called on the loop thread for every complete, acceptable request.
    init(maxConcurrentStreams: UInt32, limits: RequestLimits, onRequest: @escaping (consuming HTTPRequest) -> Void) {
        self.limits = limits
        self.onRequest = onRequest
        table.initialize(to: StreamTable())
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, h2OnBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, h2OnHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, h2OnDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, h2OnFrameRecv)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, h2OnStreamClose)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, h2OnFrameSend)
        var option: OpaquePointer?
        nghttp2_option_new(&option)
        defer { nghttp2_option_del(option) }
        // Like APNs, ignore stream priorities: no priority tree, no retained closed streams. The stream-state
        // errors nghttp2 can then no longer raise (RFC 9113 §5.1, §5.1.1, §6.1) are raised by the frame scanner
        // from its own record of the client's streams (`HTTP2ClientStreams`), which costs a set insert and
        // remove per request instead of a dependency tree and up to SETTINGS_MAX_CONCURRENT_STREAMS closed
        // streams kept per connection.
        nghttp2_option_set_no_closed_streams(option, 1)
        nghttp2_session_server_new2(&session, callbacks, Unmanaged.passUnretained(self).toOpaque(), option)
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: maxConcurrentStreams),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                value: UInt32(clamping: limits.maxHeaderListSize)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES.rawValue), value: 1),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
    }

    deinit {
        nghttp2_session_del(session)
        table.deinitialize(count: 1)
        table.deallocate()
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !fatal, !terminating else { return false }
        guard bytes.count > 0 else { return true }
        guard !held.isEmpty else { return receiveScanned(bytes) }
        // The last chunk's unfinished end (a frame header, or a reset's error code, still to come) goes first.
        var joined: [UInt8] = []
        swap(&joined, &held)
        joined.append(contentsOf: bytes)
        return joined.withUnsafeBytes { receiveScanned($0) }
    }

    /// `receive` of a chunk that starts where the scanner's last one stopped.
    private func receiveScanned(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let violation = scanner.scan(bytes)
        let end = violation?.offset ?? scanner.heldFrom ?? bytes.count
        var start = 0
        // RST_STREAM on a stream nghttp2 has already closed (both ends sent END_STREAM, or we reset it) is left out
        // of its input: nghttp2 would ignore it but count it against its rapid-reset limit (a burst of 1000, then
        // 33 a second) and end the connection with GOAWAY(INTERNAL_ERROR). RFC 9113 §5.1 lets a peer send it
        // there ("closed": RST_STREAM "for a short period after" END_STREAM), and libcurl 7.88 (Debian 12's) does
        // after every answer that is one HEADERS frame, which every 200 of APNs is: its 1,001st push on one
        // connection failed. A reset of a stream still open (a request cancelled before its answer went out, the
        // CVE-2023-44487 pattern) still reaches nghttp2 and still counts. What is before each reset is fed first,
        // so nghttp2 has seen the stream's HEADERS (the last stream it processed) and its answer when asked. A reset
        // split across two reads is held and read whole with the next (`HTTP2FrameScanner.heldFrom`): fed in two
        // parts, it was counted.
        for reset in scanner.resets where reset.offset + HTTP2FrameScanner.rstStreamFrameLength <= end {
            guard feed(base + start, reset.offset - start) else { return false }
            start = reset.offset
            let stream = Int32(bitPattern: reset.stream)
            if stream <= nghttp2_session_get_last_proc_stream_id(session),
                nghttp2_session_find_stream(session, stream) == nil
            {
                start += HTTP2FrameScanner.rstStreamFrameLength
            }
        }
        guard feed(base + start, end - start) else { return false }
        if let violation {
            terminate(errorCode: violation.errorCode, detail: violation.detail)
            return false
        }
        if end < bytes.count { held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[end...])) }
        return true
    }

    /// Hands `count` bytes at `bytes` to nghttp2; false (the connection is ending) when it failed on them.
    private func feed(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        guard count > 0 else { return true }
        let rv = nghttp2_session_mem_recv(session, bytes.assumingMemoryBound(to: UInt8.self), count)
        guard rv < 0 else { return true }
        terminate(afterReceiveError: Int32(truncatingIfNeeded: rv))
        return false
    }

    /// The client preface has arrived (the connection's opening deadline no longer applies).
    var prefaceReceived: Bool { scanner.prefaceReceived }

    /// After `nghttp2_session_mem_recv` failed: every connection error ends with a GOAWAY carrying its code.
    /// nghttp2 has already queued one for the errors it terminates on itself (HPACK failure, bad frame);
    /// `nghttp2_session_terminate_session` is a no-op then. Flood limits (too many queued ACKs, too many
    /// CONTINUATION frames) return without one: ENHANCE_YOUR_CALM, as RFC 9113 §5.4.1 / RFC 9113 §10.5 suggest.
    private func terminate(afterReceiveError rv: Int32) {
        switch rv {
        case NGHTTP2_ERR_FLOODED.rawValue:
            terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue, detail: "flood: too many frames to acknowledge")
        case NGHTTP2_ERR_TOO_MANY_CONTINUATIONS.rawValue:
            terminate(errorCode: NGHTTP2_ENHANCE_YOUR_CALM.rawValue, detail: "flood: too many CONTINUATION frames")
        case NGHTTP2_ERR_BAD_CLIENT_MAGIC.rawValue:
            terminate(errorCode: NGHTTP2_PROTOCOL_ERROR.rawValue, detail: "bad client connection preface")
        case NGHTTP2_ERR_NOMEM.rawValue:
            fatal = true
        default:
            terminate(errorCode: NGHTTP2_PROTOCOL_ERROR.rawValue, detail: String(cString: nghttp2_strerror(rv)))
        }
    }

    /// Queues GOAWAY(`errorCode`, `detail`) unless nghttp2 is already ending the session with its own.
    private func terminate(errorCode: UInt32, detail: String) {
        terminating = true
        // nghttp2 stops wanting to read once it has queued its own terminating GOAWAY: one GOAWAY only.
        guard nghttp2_session_want_read(session) != 0 else { return }
        goAway(errorCode: errorCode, debugData: Array(detail.utf8))
    }

    func produceOutput(into out: inout [UInt8], limit: Int) {
        while out.count < limit && !fatal {
            var data: UnsafePointer<UInt8>?
            let n = nghttp2_session_mem_send(session, &data)
            if n < 0 {
                fatal = true
                return
            }
            guard n > 0, let data else { return }
            out.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
        }
    }

    var isFinished: Bool {
        fatal || (nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0)
            || (terminating && nghttp2_session_want_write(session) == 0)
    }

    var inFlightRequests: Int { table.pointee.awaiting.count }

    /// nghttp2 flow control and SETTINGS_MAX_CONCURRENT_STREAMS bound what a client can make us hold.
    var acceptsInput: Bool { true }

    func respond(stream: Int32?, _ response: HTTPResponse) -> Bool {
        guard let stream, table.pointee.awaiting.remove(key(stream)) != nil else { return false }
        submit(response, on: stream)
        return true
    }

    func goAway(errorCode: UInt32, debugData: [UInt8]) {
        let last = nghttp2_session_get_last_proc_stream_id(session)
        debugData.withUnsafeBufferPointer {
            _ = nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, errorCode,
                $0.baseAddress, $0.count)
        }
    }

    func setMaxConcurrentStreams(_ value: UInt32) {
        var entry = nghttp2_settings_entry(
            settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: value)
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entry, 1)
    }

    // MARK: callback bodies (called through the trampolines in HTTP2Session+Callbacks.swift)

    /// A stream identifier as `StreamMap`'s key (identifiers are 31-bit).
    private func key(_ stream: Int32) -> UInt32 { UInt32(bitPattern: stream) }

    func beginHeaders(stream: Int32) {
        table.pointee.streams.set(key(stream), IncomingStream())
        table.pointee.headerBlock = (stream, table.pointee.streams.slot(of: key(stream))!)
    }

    /// Where `stream` is in `streams`: the open header block's remembered slot, else a look-up.
    private func streamSlot(_ stream: Int32) -> Int? {
        if let (id, slot) = table.pointee.headerBlock, id == stream { return slot }
        return table.pointee.streams.slot(of: key(stream))
    }

    func header(stream: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard let slot = streamSlot(stream) else { return }
        // Two in-place mutations of the entry (no copy of it, no closure holding it across the String making),
        // with the Strings made between them.
        let pseudo = name.first == UInt8(ascii: ":")
        let size = name.count + value.count + 32
        let limit = limits.maxHeaderListSize
        guard table.pointee.streams.modify(slot: slot, { $0.countHeader(size: size, limit: limit, pseudo: pseudo) })
        else {
            return
        }
        let v =
            value.count > 15
            ? recentString(value) : Self.knownValue(value) ?? String(decoding: value, as: UTF8.self)
        if pseudo {
            // Compared as bytes: no String for the name.
            let pseudo: IncomingStream.Pseudo
            if bytesEqual(name, ":method") {
                pseudo = .method
            } else if bytesEqual(name, ":path") {
                pseudo = .path
            } else if bytesEqual(name, ":authority") {
                pseudo = .authority
            } else if bytesEqual(name, ":scheme") {
                pseudo = .scheme
            } else {
                return
            }
            table.pointee.streams[slot: slot].set(pseudo, v)
        } else {
            // nghttp2 has already rejected uppercase field names in HTTP/2, so no lowercasing pass.
            let n = Self.knownName(name) ?? String(decoding: name, as: UTF8.self)
            table.pointee.streams[slot: slot].append(HTTPField(lowercased: n, v))
        }
    }

    /// `bytes` equal to a literal: one length check and a `memcmp` (generic `elementsEqual` over a `String.UTF8View`
    /// walks the literal byte by byte, and this runs four times per request).
    private func bytesEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard let base = bytes.baseAddress, bytes.count == literal.utf8CodeUnitCount else { return false }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }

    /// The literal for a field name providers send on every push (no UTF-8 validation, no copy), else `nil`.
    static func knownName(_ name: UnsafeBufferPointer<UInt8>) -> String? {
        func match(_ literal: StaticString) -> Bool {
            memcmp(name.baseAddress!, literal.utf8Start, name.count) == 0
        }
        switch name.count {
        case 7: return match("apns-id") ? "apns-id" : nil
        case 10:
            if match("apns-topic") { return "apns-topic" }
            return match("user-agent") ? "user-agent" : nil
        case 12: return match("content-type") ? "content-type" : nil
        case 13:
            if match("authorization") { return "authorization" }
            return match("apns-priority") ? "apns-priority" : nil
        case 14:
            if match("apns-push-type") { return "apns-push-type" }
            return match("content-length") ? "content-length" : nil
        case 15: return match("apns-expiration") ? "apns-expiration" : nil
        case 16: return match("apns-collapse-id") ? "apns-collapse-id" : nil
        default: return nil
        }
    }

    /// The literal for a short value most pushes carry (`:method`, `:scheme`, `apns-push-type`, `apns-priority`),
    /// else `nil`: a literal needs no UTF-8 validation, which was most of the cost of a short value's String.
    static func knownValue(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        func match(_ literal: StaticString) -> Bool {
            memcmp(value.baseAddress!, literal.utf8Start, value.count) == 0
        }
        switch value.count {
        case 1:
            if match("5") { return "5" }
            return match("0") ? "0" : nil
        case 2: return match("10") ? "10" : nil
        case 4: return match("POST") ? "POST" : nil
        case 5:
            if match("https") { return "https" }
            return match("alert") ? "alert" : nil
        case 10: return match("background") ? "background" : nil
        default: return nil
        }
    }

    /// A String for a long header value, reusing the one made for an identical recent value. Clients repeat the
    /// same `authorization`, `:path` and topic on every request of a connection: reuse saves an allocation, a
    /// UTF-8 validation and a copy per value, and lets later equality checks hit the same storage.
    private func recentString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        for i in table.pointee.recentValues.indices where table.pointee.recentValues[i].utf8.count == bytes.count {
            let same = table.pointee.recentValues[i].utf8.withContiguousStorageIfAvailable {
                memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if same == true { return table.pointee.recentValues[i] }
        }
        let made = String(decoding: bytes, as: UTF8.self)
        if table.pointee.recentValues.count < Self.recentValueSlots {
            table.pointee.recentValues.append(made)
        } else {
            table.pointee.recentValues[table.pointee.nextRecentSlot] = made
            table.pointee.nextRecentSlot = (table.pointee.nextRecentSlot + 1) % Self.recentValueSlots
        }
        return made
    }

    func data(stream: Int32, _ chunk: UnsafeBufferPointer<UInt8>) {
        guard let slot = streamSlot(stream) else { return }
        let limit = limits.maxBodySize
        table.pointee.streams.modify(slot: slot) { $0.body.append(chunk, limit: limit) }
    }

    /// END_STREAM on HEADERS, DATA or trailers: the request is complete. Its parts are moved out in place, then the
    /// emptied entry is removed (a request already handed on is no longer in `streams`).
    func endOfRequest(stream: Int32) {
        guard let slot = table.pointee.streams.slot(of: key(stream)) else { return }
        table.pointee.headerBlock = nil  // removing may move other entries
        let refusal = table.pointee.streams.modify(slot: slot) {
            limits.refusal(headersTooLarge: $0.headersTooLarge, body: $0.body)
        }
        if let refusal {
            table.pointee.streams.remove(key(stream))
            submit(refusal, on: stream)
            return
        }
        var request = HTTPRequest(empty: .http2)
        table.pointee.streams.modify(slot: slot) { $0.moveRequest(stream: stream, into: &request) }
        table.pointee.streams.remove(key(stream))
        table.pointee.awaiting.set(key(stream), ())
        onRequest(consume request)  // moved: the var the closure above wrote is otherwise copied
    }

    /// nghttp2 sent RST_STREAM on `stream`: the scanner then ignores what the client still sends on it.
    func sentReset(stream: Int32) {
        scanner.serverReset(stream: UInt32(bitPattern: stream))
    }

    func streamClosed(_ stream: Int32) {
        table.pointee.headerBlock = nil  // removing may move other entries
        // Usually already gone (handed on, answered with an empty body): skip the look-ups.
        if !table.pointee.streams.isEmpty { table.pointee.streams.remove(key(stream)) }
        if !table.pointee.bodies.isEmpty { table.pointee.bodies.remove(key(stream)) }
        if !table.pointee.awaiting.isEmpty { table.pointee.awaiting.remove(key(stream)) }
    }

    func readBody(stream: Int32, into buf: UnsafeMutablePointer<UInt8>, length: Int) -> (Int, Bool) {
        guard let slot = table.pointee.bodies.slot(of: key(stream)) else { return (0, true) }
        let done = table.pointee.bodies.modify(slot: slot) { body -> (Int, Bool) in
            let n = min(length, body.bytes.count - body.offset)
            body.bytes.withUnsafeBufferPointer { src in
                buf.update(from: src.baseAddress! + body.offset, count: n)
            }
            body.offset += n
            return (n, body.offset >= body.bytes.count)
        }
        if done.1 { table.pointee.bodies.remove(key(stream)) }
        return done
    }

    private func submit(_ response: HTTPResponse, on stream: Int32) {
        // Names, values and the nghttp2_nv array all on the stack: nghttp2_submit_response copies them, so they
        // only need to live through the call.
        var size = NVWriter.numberFieldSize(":status") + NVWriter.numberFieldSize("content-length")
        var count = 2
        // Bit i set: the i-th field is sent as a never-indexed literal (`LongFieldIndexing`; past the 64th field,
        // every long value is). Decided here, where the fields are read anyway: asked inside the closures below,
        // the rule made each field a copy (a retain and a release of its name and value).
        var neverIndexed: UInt64 = 0
        for i in response.headers.indices where !isHopByHop(response.headers[i].name) {
            let valueSize = response.headers[i].value.utf8.count
            size += response.headers[i].name.utf8.count + valueSize
            count += 1
            if i < 64, valueSize > Self.maxIndexedValueLength,
                !table.pointee.longFields.index(name: response.headers[i].name, value: response.headers[i].value)
            {
                neverIndexed |= 1 << UInt64(i)
            }
        }
        if !response.body.isEmpty { table.pointee.bodies.set(key(stream), OutgoingBody(bytes: response.body)) }
        let rv = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { bytes in
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: count) { nva -> Int32 in
                var w = NVWriter(bytes: bytes, nva: nva)
                w.add(":status", number: response.status)
                for (i, field) in response.headers.enumerated() where !isHopByHop(field.name) {
                    let indexed =
                        i < 64
                        ? neverIndexed & (1 << UInt64(i)) == 0 : field.value.utf8.count <= Self.maxIndexedValueLength
                    w.add(field.name, field.value, indexed: indexed)
                }
                w.add("content-length", number: response.body.count)
                if response.body.isEmpty {
                    return nghttp2_submit_response(session, stream, nva.baseAddress, w.count, nil)
                }
                var provider = nghttp2_data_provider()
                provider.read_callback = h2ReadBody
                return nghttp2_submit_response(session, stream, nva.baseAddress, w.count, &provider)
            }
        }
        if rv != 0 { table.pointee.bodies.remove(key(stream)) }
    }
}
