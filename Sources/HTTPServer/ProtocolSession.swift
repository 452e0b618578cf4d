/// What a connection needs from its HTTP/1.1 or HTTP/2 protocol engine. Loop-confined; no I/O inside:
/// bytes in through `receive`, bytes out through `produceOutput`.
protocol ProtocolSession: AnyObject {
    /// Feeds decrypted bytes. Returns `false` when the connection must be closed (after flushing output).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Appends pending output to `out`, stopping once `out` holds at least `limit` bytes (backpressure).
    func produceOutput(into out: inout [UInt8], limit: Int)
    /// The session has nothing more to do: close once output is flushed.
    var isFinished: Bool { get }
    /// False while the engine holds as much unparsed input as it will buffer (the connection stops reading).
    var acceptsInput: Bool { get }
    /// Requests handed to the handler and not answered yet.
    var inFlightRequests: Int { get }
    /// The client has sent its connection preface (HTTP/2's 24-byte magic; on HTTP/1.1, its first request head).
    var prefaceReceived: Bool { get }
    /// Queues the response for `stream` (`nil` on HTTP/1.1). Returns false if nothing was waiting for it.
    func respond(stream: Int32?, _ response: HTTPResponse) -> Bool
    /// HTTP/2: GOAWAY then finish in-flight streams. HTTP/1.1: close after the current response.
    func goAway(errorCode: UInt32, debugData: [UInt8])
    /// HTTP/2: SETTINGS_MAX_CONCURRENT_STREAMS. HTTP/1.1: ignored.
    func setMaxConcurrentStreams(_ value: UInt32)
}

/// Limits shared by both protocol engines.
struct RequestLimits {
    var maxBodySize: Int
    var maxHeaderListSize: Int
    /// Hand oversized requests to the handler (`HTTPHandler.answersOversizedRequests`) instead of a bare 413.
    var dispatchOversized = false
}

extension RequestLimits {
    /// The bare answer a received request gets instead of reaching the handler: 431 when its header list passed
    /// `maxHeaderListSize`, 413 when its body passed `maxBodySize` (unless `dispatchOversized`); nil when it goes on.
    func refusal(headersTooLarge: Bool, body: IncomingBody) -> HTTPResponse? {
        if headersTooLarge { return HTTPResponse(status: 431) }
        if body.tooLarge && !dispatchOversized { return HTTPResponse(status: 413) }
        return nil
    }
}

/// A request body as it arrives, the same for both protocol engines: held to `RequestLimits.maxBodySize`, past
/// which the bytes are dropped but still counted.
struct IncomingBody {
    var bytes: [UInt8] = []
    /// Bytes received, counted past the limit.
    var received = 0
    var tooLarge = false

    mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, limit: Int) {
        received += chunk.count
        if tooLarge || bytes.count + chunk.count > limit {
            tooLarge = true
            bytes = []
        } else {
            bytes.append(contentsOf: chunk)
        }
    }

    /// `HTTPRequest.bodyOverLimit`: the size received when it passed the limit.
    var overLimit: Int? { tooLarge ? received : nil }
}

extension HTTPResponse {
    /// The reason phrase RFC 9110 §15 gives a status (413 by its RFC 7231 name, as clients print it; nil for others): HTTP/1.1 status lines and the fixture
    /// server's generated pages both take it from here.
    package static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Payload Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: nil
        }
    }
}

/// Header names that belong to one hop and must not be copied into a response of either version
/// (a switch, not a Set: checked for every response header).
func isHopByHop(_ name: String) -> Bool {
    // By length first: a response's own fields (`apns-id`, `content-type`, …) then cost one comparison at most
    // instead of a failed String comparison against each of the six names (this runs twice per field).
    switch name.utf8.count {
    case 7: name == "upgrade"
    case 10: name == "connection" || name == "keep-alive"
    case 14: name == "content-length"
    case 16: name == "proxy-connection"
    case 17: name == "transfer-encoding"
    default: false
    }
}
