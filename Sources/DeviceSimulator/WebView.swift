import Foundation
import HTTPClient
import HTTPTypes

/// A page the web view loaded.
package struct WebPage: Sendable, Equatable {
    package var requestedURL: String
    /// After redirects.
    package var finalURL: String
    package var status: Int
    package var httpVersion: String
    /// Each redirect followed, in order: its status, the URL that answered with it and where it pointed.
    package var redirectChain: [ClientRedirect]
    package var contentType: String?
    package var title: String?
    package var text: String
    package var links: [HTMLLink]
    /// False when libxml2 had to recover from broken markup (recorded, not fatal).
    var wellFormed: Bool
    /// The document as served, as text: its first `WebPage.sourceLimit` bytes (what the HTML report shows in a
    /// sandboxed frame with scripts off, and `serve`'s console beside the device).
    package var source: String = ""
    /// The page was longer than `source` holds.
    package var sourceTruncated = false
    /// The document's size as served, in bytes (`source` holds at most `sourceLimit` of them).
    package var servedBytes = 0

    /// Each redirect's target, in order.
    package var redirects: [String] { redirectChain.map(\.to) }

    /// How much of a page `source` keeps: a report holds every page a scenario loaded, so a page is bounded as
    /// the gateway's log bounds a payload.
    package static let sourceLimit = 64 << 10
}

/// Why a page did not load. Each says what to check.
package enum WebLoadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case timeout(url: String, detail: String)
    case tlsFailure(url: String, detail: String)
    case couldNotConnect(url: String, detail: String)
    case tooManyRedirects(url: String, limit: Int)
    case notHTML(url: String, contentType: String)
    case unparsableHTML(url: String)
    case transport(url: String, detail: String)
    /// The page is larger than the web view reads (`HTTPClientConfiguration.webViewPageLimit`).
    case tooLarge(url: String, limit: Int)

    package var description: String {
        switch self {
        case .timeout(let url, let d): return "loading \(url) timed out (\(d)); is the server slow or down?"
        case .tlsFailure(let url, let d):
            return "TLS with \(url) failed (\(d)); the device trusts the pushcheck CA and the system roots only"
        case .couldNotConnect(let url, let d): return "could not connect to \(url) (\(d)); is the server running?"
        case .tooManyRedirects(let url, let limit):
            return "more than \(limit) redirects from \(url); look for a redirect loop"
        case .notHTML(let url, let type): return "\(url) is \(type), not HTML; the web view shows it raw"
        case .unparsableHTML(let url):
            return "\(url) returned nothing the HTML parser could read (empty or binary body)"
        case .transport(let url, let d): return "loading \(url) failed: \(d)"
        case .tooLarge(let url, let limit):
            return "\(url) is larger than \(limit / (1024 * 1024)) MiB, the most the web view reads; "
                + "is the page endless, or is the push carrying the wrong URL?"
        }
    }
}

/// What a navigation ended in.
package enum WebNavigationOutcome: Sendable, Equatable, CustomStringConvertible {
    case loaded(WebPage)
    /// The policy sent the URL to the system (App Store, other apps) and cancelled the navigation.
    case openedExternally(url: String)
    case cancelled(url: String, reason: String)
    case failed(WebLoadFailure)

    package var description: String {
        switch self {
        case .loaded(let p):
            return "loaded \(p.finalURL) \(p.status) '\(p.title ?? "")' (\(p.links.count) links"
                + (p.wellFormed ? ")" : ", recovered from broken HTML)")
        case .openedExternally(let u): return "opened externally \(u) (navigation cancelled)"
        case .cancelled(let u, let r): return "navigation to \(u) cancelled: \(r)"
        case .failed(let f): return "failed: \(f)"
        }
    }
}

/// The device's web engine: applies an app's navigation policy, fetches for real through libcurl
/// (HTTP/1.1 or HTTP/2, redirects with a limit, timeouts) and parses with libxml2. One per device
/// (or per suite); each app's `WebViewPolicy` is passed per navigation.
package final class WebView: Sendable {
    package let client: HTTPClient

    package init(client: HTTPClient) {
        self.client = client
    }

    /// A web view trusting `trustRoots` (e.g. the pushcheck CA plus the system roots).
    package convenience init(trustRoots: TrustRoots?, timeout: Duration = .seconds(15), redirectLimit: Int = 10)
        throws(HTTPClientError)
    {
        var configuration = HTTPClientConfiguration.webView(trustRoots: trustRoots)
        configuration.totalTimeout = timeout
        configuration.connectTimeout = min(timeout, configuration.connectTimeout)
        configuration.redirects = .follow(limit: redirectLimit)
        self.init(client: try HTTPClient(configuration: configuration))
    }

    /// Navigates to `url` as the delegate would decide it; `target="_blank"` loads in place.
    func navigate(to url: String, targetBlank: Bool = false, policy: WebViewPolicy = WebViewPolicy()) async
        -> WebNavigationOutcome
    {
        switch policy.decide(url, targetBlank: targetBlank) {
        case .openExternally: return .openedExternally(url: url)
        case .cancel(let reason): return .cancelled(url: url, reason: reason)
        case .load: return await fetch(url, policy: policy)
        }
    }

    private func fetch(_ url: String, policy: WebViewPolicy) async -> WebNavigationOutcome {
        let response: ClientResponse
        do {
            response = try await client.execute(
                .get(url, headers: [HTTPField("accept", "text/html,application/xhtml+xml,*/*;q=0.8")]))
        } catch {
            return .failed(Self.failure(error, url: url))
        }
        // An HTTP error status is still a page: WKWebView renders the server's error page unless the
        // app's `decidePolicyFor navigationResponse` cancels it (seed 001 has no such handler).
        if let reason = policy.decideResponse(status: response.status) {
            return .cancelled(url: response.effectiveURL, reason: reason)
        }
        let type = response.value("content-type")
        if let type, !type.lowercased().contains("html") {
            return .failed(.notHTML(url: response.effectiveURL, contentType: type))
        }
        guard
            let doc = HTMLDocument.parse(
                response.body, url: response.effectiveURL, encoding: HTMLDocument.charset(ofContentType: type))
        else {
            return .failed(.unparsableHTML(url: response.effectiveURL))
        }
        return .loaded(
            WebPage(
                requestedURL: url, finalURL: response.effectiveURL, status: response.status,
                httpVersion: response.httpVersion.rawValue, redirectChain: response.redirects, contentType: type,
                title: doc.title, text: doc.text, links: doc.links, wellFormed: doc.wellFormed,
                source: HTMLDocument.text(of: response.body.prefix(WebPage.sourceLimit), charset: doc.charset),
                sourceTruncated: response.body.count > WebPage.sourceLimit, servedBytes: response.body.count))
    }

    private static func failure(_ error: HTTPClientError, url: String) -> WebLoadFailure {
        switch error {
        case .timeout(_, let d): return .timeout(url: url, detail: d)
        case .tlsFailure(_, let d): return .tlsFailure(url: url, detail: d)
        case .couldNotConnect(_, let d): return .couldNotConnect(url: url, detail: d)
        case .tooManyRedirects(_, let limit, _): return .tooManyRedirects(url: url, limit: limit)
        case .responseTooLarge(_, let limit): return .tooLarge(url: url, limit: limit)
        default: return .transport(url: url, detail: error.description)
        }
    }

    /// Resolves a link's `href` against the page it is on.
    package static func resolve(_ href: String, against base: String) -> String {
        URL(string: href, relativeTo: URL(string: base))?.absoluteString ?? href
    }

    /// Stops the underlying client.
    package func shutdown() { client.shutdown() }
}
