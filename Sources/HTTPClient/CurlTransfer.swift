import CCurl
import Foundation
import HTTPTypes
import PushModel

/// The result a submitter waits for.
typealias TransferResult = Result<ClientResponse, HTTPClientError>

/// One curl easy handle and everything it points at (header list, error buffer, received bytes).
/// Lives on the loop thread only: created, driven and destroyed there.
final class CurlTransfer {
    let id: UInt64
    let easy: UnsafeMutableRawPointer
    private let request: ClientRequest
    private let configuration: HTTPClientConfiguration
    /// The configuration's certificates and keys, which curl reads in place (kept alive by every transfer).
    private let blobs: PinnedBlobs
    private let continuation: CheckedContinuation<TransferResult, Never>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var finished = false

    // Filled by the callbacks while curl runs the transfer.
    private var body: [UInt8] = []
    private var headers: [HTTPField] = []
    private var blockStatus = 0
    private var currentURL: String
    private var redirects: [ClientRedirect] = []
    /// Set when the body outgrew `maximumBodySize` (the write callback then makes curl abort).
    private var tooLarge = false

    /// The address curl reports in `CURLMsg.easy_handle`, used as the key of in-flight transfers.
    var key: UInt { UInt(bitPattern: easy) }

    private init(
        id: UInt64, easy: UnsafeMutableRawPointer, request: ClientRequest, configuration: HTTPClientConfiguration,
        blobs: PinnedBlobs, continuation: CheckedContinuation<TransferResult, Never>
    ) {
        self.id = id
        self.easy = easy
        self.request = request
        self.configuration = configuration
        self.blobs = blobs
        self.continuation = continuation
        self.currentURL = request.url
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        if !finished { continuation.resume(returning: .failure(.shutDown)) }
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Builds a configured easy handle, or resumes the continuation with the setup error and returns nil.
    static func make(
        id: UInt64, request: ClientRequest, configuration: HTTPClientConfiguration, blobs: PinnedBlobs,
        continuation: CheckedContinuation<TransferResult, Never>
    ) -> CurlTransfer? {
        guard let easy = curl_easy_init() else {
            continuation.resume(returning: .failure(.configuration("curl_easy_init failed (out of memory?)")))
            return nil
        }
        let transfer = CurlTransfer(
            id: id, easy: easy, request: request, configuration: configuration, blobs: blobs,
            continuation: continuation)
        do throws(HTTPClientError) {
            try transfer.configure()
            return transfer
        } catch {
            transfer.finish(.failure(error))
            return nil
        }
    }

    /// Resumes the waiting caller exactly once.
    func finish(_ result: TransferResult) {
        guard !finished else { return }
        finished = true
        continuation.resume(returning: result)
    }

    // MARK: - setup

    /// Hosts reached without the environment's proxy (`HTTPS_PROXY`, `http_proxy`, …): the environment's own
    /// `no_proxy` / `NO_PROXY` list, plus loopback always, as Go's net/http does. The runner sends to its own
    /// gateways on 127.0.0.1, and a proxy set for the backend under test (serve's CONNECT proxy, or a CI-wide one)
    /// cannot reach them: every send failed with "CONNECT tunnel failed, response 403".
    static let noProxy: String = {
        let environment = ProcessInfo.processInfo.environment
        let listed = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        if listed.trimmingCharacters(in: .whitespaces) == "*" { return "*" }
        return (listed.split(separator: ",").map(String.init) + ["localhost", "127.0.0.1", "::1"]).joined(
            separator: ",")
    }()

    private func configure() throws(HTTPClientError) {
        let c = configuration
        if c.httpVersion == .http2, request.url.lowercased().hasPrefix("http://") {
            // Without TLS there is no ALPN, so curl would speak HTTP/1.1: refuse before sending anything.
            throw .unexpectedHTTPVersion(url: request.url, expected: "HTTP/2", got: "HTTP/1.1")
        }
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_NOSIGNAL, 1)
        try check(pc_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(pc_easy_setopt_datafn(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback), CURLOPT_WRITEFUNCTION)
        try check(pc_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me), CURLOPT_WRITEDATA)
        try check(pc_easy_setopt_datafn(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback), CURLOPT_HEADERFUNCTION)
        try check(pc_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me), CURLOPT_HEADERDATA)

        switch c.httpVersion {
        case .http2, .best: try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        case .http2PriorKnowledge: try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE))
        case .http1_1: try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        }
        try set(CURLOPT_NOPROXY, Self.noProxy)
        try set(CURLOPT_PIPEWAIT, c.preferMultiplexing ? 1 : 0)
        try set(CURLOPT_CONNECTTIMEOUT_MS, c.connectTimeout.curlMilliseconds)
        try set(CURLOPT_TIMEOUT_MS, (request.timeout ?? c.totalTimeout).curlMilliseconds)
        switch c.redirects {
        case .none:
            try set(CURLOPT_FOLLOWLOCATION, 0)
        case .follow(let limit):
            try set(CURLOPT_FOLLOWLOCATION, 1)
            try set(CURLOPT_MAXREDIRS, limit)
        }

        if let roots = blobs.trustRoots {
            // Only these roots: drop curl's built-in file/dir so the blob is the whole truth.
            try check(pc_easy_setopt_str(easy, CURLOPT_CAINFO, nil), CURLOPT_CAINFO)
            try check(pc_easy_setopt_str(easy, CURLOPT_CAPATH, nil), CURLOPT_CAPATH)
            try setBlob(CURLOPT_CAINFO_BLOB, roots)
        }
        if let certificate = blobs.certificate, let key = blobs.privateKey {
            try setBlob(CURLOPT_SSLCERT_BLOB, certificate)
            try set(CURLOPT_SSLCERTTYPE, "PEM")
            try setBlob(CURLOPT_SSLKEY_BLOB, key)
            try set(CURLOPT_SSLKEYTYPE, "PEM")
        }
        if let limit = c.maximumBodySize {
            // Refuses a declared Content-Length over the limit up front; the write callback bounds the rest.
            try check(pc_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)), CURLOPT_MAXFILESIZE_LARGE)
        }
        if let agent = c.userAgent {
            try set(CURLOPT_USERAGENT, agent)
        }
        if c.insecureSkipVerify {
            try set(CURLOPT_SSL_VERIFYPEER, 0)
            try set(CURLOPT_SSL_VERIFYHOST, 0)
        }

        try configureMethodAndBody()
        try configureHeaders()
    }

    private func configureMethodAndBody() throws(HTTPClientError) {
        let method = request.method.uppercased()
        let hasBody = !request.body.isEmpty
        switch method {
        case "GET" where !hasBody:
            try set(CURLOPT_HTTPGET, 1)
        case "HEAD" where !hasBody:
            try set(CURLOPT_NOBODY, 1)
        default:
            if method == "POST" || hasBody {
                try set(CURLOPT_POST, 1)
                try check(
                    pc_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
                    CURLOPT_POSTFIELDSIZE_LARGE)
                var bytes = request.body
                bytes.append(0)  // COPYPOSTFIELDS copies POSTFIELDSIZE bytes; the NUL only guards an empty body
                let code = bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        pc_easy_setopt_str(easy, CURLOPT_COPYPOSTFIELDS, $0)
                    }
                }
                try check(code, CURLOPT_COPYPOSTFIELDS)
            }
            if method != "POST" {
                try set(CURLOPT_CUSTOMREQUEST, method)
            }
        }
    }

    private func configureHeaders() throws(HTTPClientError) {
        var lines: [String] = []
        for header in request.headers {
            guard Self.isSendable(header) else {
                throw .configuration("header '\(header.name)' has an empty name, a colon or a line break; remove it")
            }
            // "Name;" is curl's spelling for a header with an empty value ("Name:" would delete it).
            lines.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
        }
        var hasContentType = false
        var hasExpect = false
        for header in request.headers {
            let name = asciiOrLowercased(header.name)
            hasContentType = hasContentType || name == "content-type"
            hasExpect = hasExpect || name == "expect"
        }
        // curl adds these on its own for POST bodies; a test harness must send only what it was told to.
        if !hasContentType { lines.append("Content-Type:") }
        if !hasExpect { lines.append("Expect:") }
        for line in lines {
            guard let list = curl_slist_append(headerList, line) else {
                throw .configuration("curl_slist_append failed for header '\(line)'")
            }
            headerList = list
        }
        try check(pc_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
    }

    /// A header curl can send as given: a name that is not empty and holds no colon, no line break in name or value.
    /// Checked on UTF-8 bytes: CR and LF are always characters of their own (or CR LF together), so a byte of
    /// either is a line break; a colon is looked for as a byte only in an ASCII name (Foundation's `contains` on
    /// Strings bridged every header to NSString).
    private static func isSendable(_ header: HTTPField) -> Bool {
        let isBreak = { (byte: UInt8) in byte == 0x0A || byte == 0x0D }
        guard !header.name.isEmpty, !header.name.utf8.contains(where: isBreak),
            !header.value.utf8.contains(where: isBreak)
        else { return false }
        if header.name.utf8.allSatisfy({ $0 < 0x80 }) { return !header.name.utf8.contains(UInt8(ascii: ":")) }
        return !header.name.contains(":")
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(pc_easy_setopt_long(easy, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        try check(pc_easy_setopt_str(easy, option, value), option)
    }

    /// Points curl at `bytes` without a copy (`PinnedBlobs` outlives the handle).
    private func setBlob(_ option: CURLoption, _ bytes: UnsafeMutableRawBufferPointer) throws(HTTPClientError) {
        var blob = curl_blob(data: bytes.baseAddress, len: bytes.count, flags: UInt32(CURL_BLOB_NOCOPY))
        try check(pc_easy_setopt_blob(easy, option, &blob), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            let text = String(cString: curl_easy_strerror(code))
            throw .configuration("curl rejected option \(option.rawValue) for \(request.url): \(text)")
        }
    }

    // MARK: - callbacks (loop thread, inside curl_multi_perform)

    /// Keeps a chunk of the body; false (curl aborts the transfer) once the body would exceed the limit.
    fileprivate func received(body chunk: UnsafeRawBufferPointer) -> Bool {
        if let limit = configuration.maximumBodySize, body.count + chunk.count > limit {
            tooLarge = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    fileprivate func received(headerLine raw: UnsafeRawBufferPointer) {
        // Trim CR LF as bytes: in a Swift String "\r\n" is one Character, which hasSuffix("\n") misses.
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        if !bytes.starts(with: "HTTP/".utf8), let field = Self.asciiField(bytes) {
            headers.append(field)
            return
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response starts (after a redirect or a 1xx): only the last one is returned.
            let parts = line.split(separator: " ", maxSplits: 2)
            blockStatus = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = []
            body = []
        } else if line.isEmpty {
            recordRedirectIfFollowed()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            headers.append(HTTPField(name, value))
        }
    }

    /// A header line that is all ASCII (as header lines are) split as `received` splits the others — name
    /// lowercased, value without Foundation's `whitespaces` (in ASCII: space and tab) around it — without building
    /// and rescanning Strings; nil for any other line.
    private static func asciiField(_ line: UnsafeRawBufferPointer) -> HTTPField? {
        guard line.allSatisfy({ $0 < 0x80 }), let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = String(unsafeUninitializedCapacity: colon) { buffer in
            for i in 0..<colon {
                let byte = line[i]
                buffer[i] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return colon
        }
        var from = colon + 1
        var to = line.count
        while from < to, line[from] == 0x20 || line[from] == 0x09 { from += 1 }
        while to > from, line[to - 1] == 0x20 || line[to - 1] == 0x09 { to -= 1 }
        return HTTPField(
            lowercased: name, String(decoding: UnsafeRawBufferPointer(rebasing: line[from..<to]), as: UTF8.self))
    }

    private func recordRedirectIfFollowed() {
        guard case .follow = configuration.redirects, [301, 302, 303, 307, 308].contains(blockStatus),
            let location = headers.first(where: { $0.name == "location" })?.value
        else { return }
        let target = URL(string: location, relativeTo: URL(string: currentURL))?.absoluteString ?? location
        redirects.append(ClientRedirect(status: blockStatus, from: currentURL, to: target))
        currentURL = target
    }

    // MARK: - completion

    /// Called when curl reports the transfer done; builds the response or the error and resumes the caller.
    func complete(_ code: CURLcode) {
        if let limit = configuration.maximumBodySize, tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            body = []
            finish(.failure(.responseTooLarge(url: request.url, limit: limit)))
            return
        }
        guard code == CURLE_OK else {
            var detail = String(cString: errorBuffer)
            if detail.isEmpty { detail = String(cString: curl_easy_strerror(code)) }
            var limit = 0
            if case .follow(let l) = configuration.redirects { limit = l }
            finish(.failure(classify(code, detail: detail, redirectLimit: limit)))
            return
        }
        let version = negotiatedVersion()
        if configuration.httpVersion == .http2, version != .http2 {
            finish(.failure(.unexpectedHTTPVersion(url: request.url, expected: "HTTP/2", got: version.rawValue)))
            return
        }
        let response = ClientResponse(
            status: long(CURLINFO_RESPONSE_CODE), headers: headers, body: body, httpVersion: version,
            effectiveURL: string(CURLINFO_EFFECTIVE_URL) ?? request.url, redirects: redirects,
            remoteIP: string(CURLINFO_PRIMARY_IP) ?? "", remotePort: long(CURLINFO_PRIMARY_PORT),
            localPort: long(CURLINFO_LOCAL_PORT), newConnections: long(CURLINFO_NUM_CONNECTS),
            timings: ClientTimings(
                connect: micros(CURLINFO_CONNECT_TIME_T), tlsHandshake: micros(CURLINFO_APPCONNECT_TIME_T),
                total: micros(CURLINFO_TOTAL_TIME_T)))
        finish(.success(response))
    }

    private func classify(_ code: CURLcode, detail: String, redirectLimit: Int) -> HTTPClientError {
        // A server that rejects our client certificate does so with a TLS alert after the handshake
        // (TLS 1.3), which curl reports as a receive/send error: call it what it is.
        // curl refuses a reply that is not HTTP as "Received HTTP/0.9 when not allowed".
        if code == CURLE_UNSUPPORTED_PROTOCOL, detail.contains("HTTP/0.9") {
            return .protocolError(url: request.url, detail: detail)
        }
        if code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR,
            detail.contains("SSL") || detail.contains("alert")
        {
            return .tlsFailure(url: request.url, detail: detail)
        }
        return HTTPClientError.from(code, url: request.url, detail: detail, redirectLimit: redirectLimit)
    }

    private func negotiatedVersion() -> ClientHTTPVersion {
        switch long(CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): return .http1_0
        case Int(CURL_HTTP_VERSION_1_1): return .http1_1
        case Int(CURL_HTTP_VERSION_2_0): return .http2
        case Int(CURL_HTTP_VERSION_3): return .http3
        default: return .unknown
        }
    }

    private func long(_ info: CURLINFO) -> Int {
        var value = 0
        return pc_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard pc_easy_getinfo_str(easy, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func micros(_ info: CURLINFO) -> Duration {
        var value: curl_off_t = 0
        guard pc_easy_getinfo_off(easy, info, &value) == CURLE_OK else { return .zero }
        return .microseconds(value)
    }
}

/// A configuration's trust roots, client certificate and key, copied once to memory that does not move, for curl to
/// read in place (`CURL_BLOB_NOCOPY`): handing curl a copy per request cost an allocation and two copies of the
/// system roots (about 200 KB) per page load. Freed when the loop and its last transfer let go of it.
final class PinnedBlobs {
    let trustRoots: UnsafeMutableRawBufferPointer?
    let certificate: UnsafeMutableRawBufferPointer?
    let privateKey: UnsafeMutableRawBufferPointer?

    init(_ configuration: HTTPClientConfiguration) {
        trustRoots = configuration.trustRoots.map { Self.pin($0.pemBundle) }
        certificate = configuration.clientCertificate.map { Self.pin($0.certificatePEM) }
        privateKey = configuration.clientCertificate.map { Self.pin($0.privateKeyPEM) }
    }

    deinit {
        for pinned in [trustRoots, certificate, privateKey] { pinned?.deallocate() }
    }

    private static func pin(_ bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let pinned = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        pinned.copyBytes(from: bytes)
        return UnsafeMutableRawBufferPointer(rebasing: pinned[0..<bytes.count])
    }
}

/// `name.lowercased()`, without a new String when it is lowercase ASCII already (as header names are).
private func asciiOrLowercased(_ name: String) -> String {
    name.utf8.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }) ? name.lowercased() : name
}

// C callbacks capture nothing: the transfer arrives as user data, unretained (the loop owns it
// until curl has finished with the handle).
private let curlWriteCallback: pc_data_callback = { data, size, count, user in
    guard let user else { return 0 }
    let bytes = size * count
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.received(body: UnsafeRawBufferPointer(start: data, count: bytes)) ? bytes : 0
}

private let curlHeaderCallback: pc_data_callback = { data, size, count, user in
    guard let user else { return 0 }
    let bytes = size * count
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    transfer.received(headerLine: UnsafeRawBufferPointer(start: data, count: bytes))
    return bytes
}
