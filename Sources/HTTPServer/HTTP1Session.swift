import CHTTPParser
import HTTPTypes

/// HTTP/1.1 server engine over `http_parser`: keep-alive, Content-Length and chunked bodies, one request at a
/// time (pipelined bytes wait in `input` until the current response is queued). Loop-confined.
final class HTTP1Session: ProtocolSession {
    /// The request being parsed.
    struct Partial {
        var url: [UInt8] = []
        var headers: [HTTPField] = []
        var field: [UInt8] = []
        var value: [UInt8] = []
        var inValue = false
        var body = IncomingBody()
        var headerBytes = 0
        var headersTooLarge = false

        mutating func finishField() {
            guard !field.isEmpty else { return }
            headers.append(HTTPField(String(decoding: field, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            field = []
            value = []
        }
    }

    // Heap-allocated: callbacks read the parser while `http_parser_execute` runs, which Swift's exclusivity
    // checking forbids for a stored `var` passed inout.
    private let parser = UnsafeMutablePointer<http_parser>.allocate(capacity: 1)
    private let settings = UnsafeMutablePointer<http_parser_settings>.allocate(capacity: 1)
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var partial = Partial()
    private var completed: HTTPRequest?
    private var completedKeepAlive = true
    private var awaitingResponse = false
    private var currentIsHead = false
    private var currentKeepAlive = true
    private var closing = false
    let limits: RequestLimits
    private let onRequest: (consuming HTTPRequest) -> Void

    init(limits: RequestLimits, onRequest: @escaping (consuming HTTPRequest) -> Void) {
        self.limits = limits
        self.onRequest = onRequest
        http_parser_settings_init(settings)
        settings.pointee.on_message_begin = { p in
            h1(p).partial = Partial(); return 0
        }
        settings.pointee.on_url = { p, at, n in
            h1(p).partial.url.append(contentsOf: bytes(at, n)); return 0
        }
        settings.pointee.on_header_field = { p, at, n in
            h1(p).headerField(bytes(at, n)); return 0
        }
        settings.pointee.on_header_value = { p, at, n in
            h1(p).headerValue(bytes(at, n)); return 0
        }
        settings.pointee.on_headers_complete = { p in
            h1(p).headersComplete(); return 0
        }
        settings.pointee.on_body = { p, at, n in
            h1(p).bodyChunk(bytes(at, n)); return 0
        }
        settings.pointee.on_message_complete = { p in
            h1(p).messageComplete(); return 0
        }
        resetParser()
    }

    deinit {
        parser.deallocate()
        settings.deallocate()
    }

    private func resetParser() {
        http_parser_init(parser, HTTP_REQUEST)
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if closing { return true }
        input.append(contentsOf: bytes)
        parseAvailable()
        return true
    }

    func produceOutput(into out: inout [UInt8], limit: Int) {
        guard !output.isEmpty else { return }
        out.append(contentsOf: output)
        output = []
    }

    var isFinished: Bool { closing && output.isEmpty && !awaitingResponse }

    var inFlightRequests: Int { awaitingResponse ? 1 : 0 }

    /// Pipelined bytes wait while a request is with the handler; beyond this much, stop reading the socket.
    static let maxBufferedInput = 256 * 1024

    var acceptsInput: Bool { !awaitingResponse || input.count < Self.maxBufferedInput }

    func respond(stream: Int32?, _ response: HTTPResponse) -> Bool {
        guard awaitingResponse else { return false }
        awaitingResponse = false
        let close =
            !currentKeepAlive || closing
            || response.actions.contains { if case .goAway = $0 { true } else { false } }
        write(response, head: currentIsHead, close: close)
        if close { closing = true } else { parseAvailable() }
        return true
    }

    func goAway(errorCode: UInt32, debugData: [UInt8]) {
        closing = true
        input = []
    }

    func setMaxConcurrentStreams(_ value: UInt32) {}

    /// HTTP/1.1 has no preface: the connection counts as opened once its first request head is complete, so a
    /// first request line trickled a byte at a time is cut at the opening deadline too.
    var prefaceReceived: Bool { firstHeadComplete }
    private var firstHeadComplete = false

    // MARK: parsing

    private func parseAvailable() {
        while !awaitingResponse && !closing && !input.isEmpty {
            let consumed = input.withUnsafeBytes { raw in
                raw.withMemoryRebound(to: CChar.self) {
                    http_parser_execute(parser, settings, $0.baseAddress, $0.count)
                }
            }
            let errno = http_errno(rawValue: parser.pointee.http_errno)
            input.removeFirst(min(consumed, input.count))
            if errno == HPE_PAUSED || completed != nil {
                resetParser()
                if let request = completed {
                    completed = nil
                    dispatch(request)
                }
            } else if errno != HPE_OK {
                input = []
                let status = errno == HPE_HEADER_OVERFLOW ? 431 : 400
                write(HTTPResponse(status: status), head: false, close: true)
                closing = true
            } else if parser.pointee.upgrade == 1 {
                // An Upgrade (e.g. h2c) request is served as plain HTTP/1.1; the parser stopped after it.
                resetParser()
            }
        }
    }

    private func dispatch(_ request: HTTPRequest) {
        currentIsHead = request.method == "HEAD"
        currentKeepAlive = completedKeepAlive
        awaitingResponse = true
        if let refusal = limits.refusal(headersTooLarge: partial.headersTooLarge, body: partial.body) {
            _ = respond(stream: nil, refusal)
        } else {
            var request = request
            request.bodyOverLimit = partial.body.overLimit
            onRequest(request)
        }
    }

    fileprivate func headerField(_ chunk: UnsafeBufferPointer<UInt8>) {
        if partial.inValue {
            partial.finishField()
            partial.inValue = false
        }
        count(chunk.count)
        if !partial.headersTooLarge { partial.field.append(contentsOf: chunk) }
    }

    fileprivate func headerValue(_ chunk: UnsafeBufferPointer<UInt8>) {
        partial.inValue = true
        count(chunk.count)
        if !partial.headersTooLarge { partial.value.append(contentsOf: chunk) }
    }

    private func count(_ n: Int) {
        partial.headerBytes += n
        if partial.headerBytes > limits.maxHeaderListSize {
            partial.headersTooLarge = true
            partial.field = []
            partial.value = []
        }
    }

    fileprivate func headersComplete() {
        firstHeadComplete = true
        partial.finishField()
        if partial.headers.contains(where: { $0.name == "expect" && $0.value.lowercased() == "100-continue" }) {
            output.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
        }
    }

    fileprivate func bodyChunk(_ chunk: UnsafeBufferPointer<UInt8>) {
        partial.body.append(chunk, limit: limits.maxBodySize)
    }

    fileprivate func messageComplete() {
        let method = String(cString: http_method_str(http_method(rawValue: parser.pointee.method)))
        let authority = partial.headers.first { $0.name == "host" }?.value
        completed = HTTPRequest(
            version: .http1_1, method: method, path: String(decoding: partial.url, as: UTF8.self),
            authority: authority, headers: partial.headers, body: partial.body.bytes)
        completedKeepAlive = http_should_keep_alive(parser) != 0
        http_parser_pause(parser, 1)
    }

    private func write(_ response: HTTPResponse, head: Bool, close: Bool) {
        let reason = HTTPResponse.reasonPhrase(response.status) ?? "Status \(response.status)"
        var text = "HTTP/1.1 \(response.status) \(reason)\r\n"
        for field in response.headers where !isHopByHop(field.name) {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "content-length: \(response.body.count)\r\n"
        if close { text += "connection: close\r\n" }
        text += "\r\n"
        output.append(contentsOf: text.utf8)
        if !head { output.append(contentsOf: response.body) }
    }
}

private func h1(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTP1Session {
    Unmanaged<HTTP1Session>.fromOpaque(parser!.pointee.data).takeUnretainedValue()
}

private func bytes(_ at: UnsafePointer<CChar>?, _ n: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: UnsafeRawPointer(at)?.assumingMemoryBound(to: UInt8.self), count: n)
}
