import CCurl

/// Why a request failed. Every case carries curl's own message (its error buffer) where there is one.
package enum HTTPClientError: Error, Equatable, CustomStringConvertible {
    /// No TCP connection could be made (refused, unreachable, name not resolved).
    case couldNotConnect(url: String, detail: String)
    /// The TLS handshake failed: untrusted or expired certificate, wrong host name, rejected client certificate.
    case tlsFailure(url: String, detail: String)
    /// The server closed or reset the connection before a complete response. With TLS 1.3 this is also
    /// how a rejected client certificate looks when the server's alert is lost with the connection.
    case connectionClosed(url: String, detail: String)
    /// The server broke the protocol or reset the stream (HTTP/2 RST_STREAM, GOAWAY with an error,
    /// a malformed reply, a body cut short).
    case protocolError(url: String, detail: String)
    /// The connect or total timeout ran out.
    case timeout(url: String, detail: String)
    /// More redirects than the policy allows.
    case tooManyRedirects(url: String, limit: Int, detail: String)
    /// The URL could not be parsed or uses a scheme curl does not speak.
    case invalidURL(url: String, detail: String)
    /// The policy required a version the server did not speak (e.g. `.http2` but ALPN chose HTTP/1.1).
    case unexpectedHTTPVersion(url: String, expected: String, got: String)
    /// The client's configuration is unusable (unreadable CA or certificate file, bad option).
    case configuration(String)
    /// The client was shut down before the request finished.
    case shutDown
    /// The calling task was cancelled.
    case cancelled
    /// Any other curl failure, with curl's code.
    case other(url: String, curlCode: Int, detail: String)
    /// The response body (or its declared `Content-Length`) exceeded `maximumBodySize`; reading stopped there.
    case responseTooLarge(url: String, limit: Int)

    package var description: String {
        switch self {
        case .couldNotConnect(let url, let detail):
            return "could not connect to \(url): \(detail) (is the server running and listening on that port?)"
        case .tlsFailure(let url, let detail):
            return "TLS handshake with \(url) failed: \(detail) (check that the client trusts the server's CA, "
                + "the certificate names the host, and any client certificate is accepted)"
        case .connectionClosed(let url, let detail):
            return "\(url) closed the connection before answering: \(detail) (check the server's log; "
                + "a server that requires a client certificate does this when none or an untrusted one is sent)"
        case .protocolError(let url, let detail):
            return "\(url) broke the HTTP exchange: \(detail) (check the server's log for a reset stream or GOAWAY)"
        case .timeout(let url, let detail):
            return "request to \(url) timed out: \(detail) (raise the timeout or check the server)"
        case .tooManyRedirects(let url, let limit, let detail):
            return "more than \(limit) redirects starting at \(url): \(detail) (look for a redirect loop)"
        case .invalidURL(let url, let detail):
            return "invalid URL '\(url)': \(detail) (use http:// or https:// with a host)"
        case .unexpectedHTTPVersion(let url, let expected, let got):
            return "\(url) answered over \(got) but \(expected) was required (does the server offer h2 in ALPN?)"
        case .configuration(let message):
            return "HTTP client configuration: \(message)"
        case .shutDown:
            return "the HTTP client was shut down before the request finished"
        case .cancelled:
            return "the request was cancelled"
        case .other(let url, let code, let detail):
            return "request to \(url) failed (curl error \(code)): \(detail)"
        case .responseTooLarge(let url, let limit):
            return "the response from \(url) is larger than \(limit) bytes; pushcheck stopped reading it "
                + "(is the page endless, or the wrong URL?)"
        }
    }

    /// Maps a curl result code to the case a caller can act on.
    static func from(_ code: CURLcode, url: String, detail: String, redirectLimit: Int) -> HTTPClientError {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotConnect(url: url, detail: detail)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return .connectionClosed(url: url, detail: detail)
        case CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_WEIRD_SERVER_REPLY, CURLE_PARTIAL_FILE:
            return .protocolError(url: url, detail: detail)
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout(url: url, detail: detail)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url: url, limit: redirectLimit, detail: detail)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL(url: url, detail: detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            return .tlsFailure(url: url, detail: detail)
        default:
            return .other(url: url, curlCode: Int(code.rawValue), detail: detail)
        }
    }
}
