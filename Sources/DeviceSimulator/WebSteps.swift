import Foundation

/// What the web steps (`load_page`, `follow_link`) need of a phone, iPhone or Android: the web view of an app's
/// top screen as it is now, and a way to record how a navigation of it ended. The steps themselves are written
/// once, below, for both.
protocol WebViewHost: Sendable {
    /// The installed apps, sorted.
    var installedApps: [String] { get }
    /// The app's web view now; nil when the app is not installed.
    func webScreen(of app: String) -> WebScreen?
    /// Records how a navigation of the app's top screen ended (one operation of the phone, stamped with its clock).
    func recordWebNavigation(_ outcome: WebNavigationOutcome, for app: String)
}

/// An app's top screen as the web steps see it.
struct WebScreen {
    /// The URL the top screen was routed to (nil: no web view on screen).
    var routedURL: String?
    /// The page loaded in its web view.
    var page: WebPage?
    var policy: WebViewPolicy
}

/// The web steps of both phones: pages are fetched for real by `WebView` and the outcome is recorded on the phone.
extension WebViewHost {
    /// A web step on its app (or the only installed one): what the phones' `perform(_:with:)` does.
    func performWebAction(_ action: WebAction, with web: WebView) async throws(WebViewStepError)
        -> WebNavigationOutcome
    {
        let installed = installedApps
        guard let app = action.app ?? (installed.count == 1 ? installed[0] : nil), installed.contains(app)
        else { throw .noSuchApp(action.app, installed: installed) }
        switch action {
        case .loadPage: return try await loadWebView(app, with: web)
        case .followLink(let link, _): return try await followLink(app, link, with: web)
        }
    }

    /// Loads the URL the top screen was routed to and records the outcome.
    @discardableResult
    func loadWebView(_ app: String, with web: WebView) async throws(WebViewStepError) -> WebNavigationOutcome {
        guard let screen = webScreen(of: app), let url = screen.routedURL else {
            throw .noWebViewOnScreen(bundleID: app)
        }
        let outcome = await web.navigate(to: url, policy: screen.policy)
        recordWebNavigation(outcome, for: app)
        return outcome
    }

    /// Taps the link whose `href` or text equals `wanted` on the loaded page (policy applies; `target="_blank"`
    /// loads in place) and records the outcome.
    @discardableResult
    func followLink(_ app: String, _ wanted: String, with web: WebView) async throws(WebViewStepError)
        -> WebNavigationOutcome
    {
        guard let screen = webScreen(of: app), let page = screen.page else {
            throw .noWebViewOnScreen(bundleID: app)
        }
        guard let link = page.links.first(where: { $0.href == wanted || $0.text == wanted }) else {
            throw .noSuchLink(bundleID: app, wanted: wanted, available: page.links.map(\.href))
        }
        let url = WebView.resolve(link.href, against: page.finalURL)
        let outcome = await web.navigate(to: url, targetBlank: link.target == "_blank", policy: screen.policy)
        recordWebNavigation(outcome, for: app)
        return outcome
    }
}
