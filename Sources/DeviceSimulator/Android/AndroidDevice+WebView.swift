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

extension AndroidDevice: WebViewHost {
    var installedApps: [String] { snapshot.apps.keys.sorted() }

    /// The top activity's top screen; an app whose process is not running has none (no URL, no page).
    func webScreen(of app: String) -> WebScreen? {
        snapshot.apps[app].map {
            WebScreen(
                routedURL: $0.task.last?.router.stack.last?.url, page: $0.webPage,
                policy: $0.declaration.webViewPolicy)
        }
    }

    func recordWebNavigation(_ outcome: WebNavigationOutcome, for app: String) {
        perform { (s: inout AndroidDeviceState, now: Date) in s.recordWebNavigation(outcome, for: app, now: now) }
    }

    /// A web step (`load_page`, `follow_link`) on the top activity's WebView, as the iPhone's
    /// `SimulatedDevice.perform(_:with:)` does it for its web view.
    @discardableResult
    package func perform(_ action: WebAction, with web: WebView) async throws(WebViewStepError) -> WebNavigationOutcome
    {
        try await performWebAction(action, with: web)
    }
}
