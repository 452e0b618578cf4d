import Foundation

// The WebView of the top activity: the same `WebView` (real fetches, redirects, the policy) as the iPhone's
// WKWebView, with the app's `shouldOverrideUrlLoading` expressed as a `WebViewPolicy`.

extension AndroidDeviceState {
    /// Records how a WebView navigation of the top activity ended.
    mutating func recordWebNavigation(_ outcome: WebNavigationOutcome, for pkg: String, now: Date) {
        guard let app = apps[pkg], !app.task.isEmpty else { return }
        log(.webView(outcome), pkg, now)
        switch outcome {
        case .loaded(let page):
            apps[pkg]!.task[app.task.count - 1].router.setTopURL(page.finalURL)
            apps[pkg]!.webPage = page
        case .openedExternally(let url):
            log(.urlOpened(url: url, by: "WebView shouldOverrideUrlLoading (system)"), pkg, now)
        case .cancelled, .failed:
            break
        }
    }
}

extension AndroidDevice {
    /// Loads the URL the top activity's top screen was routed to (fetched for real) and records the outcome.
    @discardableResult
    func loadWebView(_ pkg: String, with web: WebView) async throws(WebViewStepError) -> WebNavigationOutcome {
        let app = snapshot.apps[pkg]
        guard let app, let url = app.task.last?.router.stack.last?.url else { throw .noWebViewOnScreen(bundleID: pkg) }
        let outcome = await web.navigate(to: url, policy: app.declaration.webViewPolicy)
        perform { (s: inout AndroidDeviceState, now: Date) in s.recordWebNavigation(outcome, for: pkg, now: now) }
        return outcome
    }

    /// Follows the link whose `href` or text is `wanted` on the loaded page.
    @discardableResult
    package func followLink(_ pkg: String, _ wanted: String, with web: WebView) async throws(WebViewStepError)
        -> WebNavigationOutcome
    {
        let app = snapshot.apps[pkg]
        guard let app, let page = app.webPage else { throw .noWebViewOnScreen(bundleID: pkg) }
        guard let link = page.links.first(where: { $0.href == wanted || $0.text == wanted }) else {
            throw .noSuchLink(bundleID: pkg, wanted: wanted, available: page.links.map(\.href))
        }
        let outcome = await web.navigate(
            to: WebView.resolve(link.href, against: page.finalURL), targetBlank: link.target == "_blank",
            policy: app.declaration.webViewPolicy)
        perform { (s: inout AndroidDeviceState, now: Date) in s.recordWebNavigation(outcome, for: pkg, now: now) }
        return outcome
    }
}

extension AndroidDevice {
    /// A web step (`load_page`, `follow_link`) on the top activity's WebView: what the iPhone's
    /// `SimulatedDevice.perform(_:with:)` does for its web view.
    @discardableResult
    package func perform(_ action: WebAction, with web: WebView) async throws(WebViewStepError) -> WebNavigationOutcome
    {
        let installed = snapshot.apps.keys.sorted()
        guard let pkg = action.app ?? (installed.count == 1 ? installed[0] : nil), installed.contains(pkg)
        else { throw .noSuchApp(action.app, installed: installed) }
        switch action {
        case .loadPage: return try await loadWebView(pkg, with: web)
        case .followLink(let link, _): return try await followLink(pkg, link, with: web)
        }
    }
}
