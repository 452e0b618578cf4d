import Foundation

extension DeviceState {
    /// Records how a web navigation of the app's top screen ended.
    mutating func recordWebNavigation(_ outcome: WebNavigationOutcome, for bundleID: String, now: Date) {
        guard apps[bundleID] != nil else { return }
        log(.webView(outcome), bundleID, now)
        switch outcome {
        case .loaded(let page):
            apps[bundleID]!.router.setTopURL(page.finalURL)
            apps[bundleID]!.webPage = page
        case .openedExternally(let url):
            log(.urlOpened(url: url, by: "web view policy (system)"), bundleID, now)
        case .cancelled, .failed:
            break
        }
    }
}

/// Why a web view step could not start.
package enum WebViewStepError: Error, Equatable, CustomStringConvertible {
    case noWebViewOnScreen(bundleID: String)
    case noSuchLink(bundleID: String, wanted: String, available: [String])
    /// The step names no installed app (and the device has not exactly one).
    case noSuchApp(String?, installed: [String])

    package var description: String {
        switch self {
        case .noWebViewOnScreen(let b):
            return "\(b): the top screen has no URL to load; route a push with a url key to a screen first"
        case .noSuchApp(let app, let installed):
            let list = installed.isEmpty ? "none" : installed.joined(separator: ", ")
            return app.map { "\($0) is not installed; installed: \(list)" }
                ?? "name an installed app with app:; installed: \(list)"
        case .noSuchLink(let b, let wanted, let available):
            return
                "\(b): no link '\(wanted)' on the page; links: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        }
    }
}

extension SimulatedDevice {
    /// Loads the URL the top screen was routed to (fetching it for real) and records the outcome.
    @discardableResult
    func loadWebView(_ bundleID: String, with web: WebView) async throws(WebViewStepError)
        -> WebNavigationOutcome
    {
        let app = snapshot.apps[bundleID]
        guard let app, let url = app.router.stack.last?.url else { throw .noWebViewOnScreen(bundleID: bundleID) }
        let outcome = await web.navigate(to: url, policy: app.declaration.webViewPolicy)
        perform { (s: inout DeviceState, now: Date) in s.recordWebNavigation(outcome, for: bundleID, now: now) }
        return outcome
    }

    /// Taps the link whose `href` or text equals `wanted` on the loaded page (policy applies;
    /// `target="_blank"` loads in place) and records the outcome.
    @discardableResult
    package func followLink(_ bundleID: String, _ wanted: String, with web: WebView) async throws(WebViewStepError)
        -> WebNavigationOutcome
    {
        let app = snapshot.apps[bundleID]
        guard let app, let page = app.webPage else { throw .noWebViewOnScreen(bundleID: bundleID) }
        guard let link = page.links.first(where: { $0.href == wanted || $0.text == wanted }) else {
            throw .noSuchLink(bundleID: bundleID, wanted: wanted, available: page.links.map(\.href))
        }
        let url = WebView.resolve(link.href, against: page.finalURL)
        let outcome = await web.navigate(
            to: url, targetBlank: link.target == "_blank", policy: app.declaration.webViewPolicy)
        perform { (s: inout DeviceState, now: Date) in s.recordWebNavigation(outcome, for: bundleID, now: now) }
        return outcome
    }
}
