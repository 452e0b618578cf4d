import Foundation

/// The app's `WKNavigationDelegate.decidePolicyFor navigationAction` (seed 001; device.md §4 [WK]):
/// listed hosts open outside the app and the navigation is cancelled; `http`/`https` load; other
/// schemes are cancelled (or handed to the system); `target="_blank"` loads in place.
package struct WebViewPolicy: Sendable, Equatable {
    /// Hosts (and their subdomains) opened externally, e.g. the App Store.
    var externalHosts: [String]
    /// Schemes the web view loads itself.
    var loadableSchemes: [String]
    /// Whether other schemes (`tel:`, `mailto:`, custom) go to `UIApplication.open` before cancelling.
    var openOtherSchemesExternally: Bool

    /// The app's `decidePolicyFor navigationResponse`: nil (no handler) shows every response, error
    /// pages included, as WKWebView does; otherwise the statuses it allows.
    var allowedResponseStatuses: ClosedRange<Int>?

    package init(
        externalHosts: [String] = ["apps.apple.com", "itunes.apple.com"],
        loadableSchemes: [String] = ["http", "https"],
        openOtherSchemesExternally: Bool = false,
        allowedResponseStatuses: ClosedRange<Int>? = nil
    ) {
        self.externalHosts = externalHosts
        self.loadableSchemes = loadableSchemes
        self.openOtherSchemesExternally = openOtherSchemesExternally
        self.allowedResponseStatuses = allowedResponseStatuses
    }

    /// What `decidePolicyFor navigationResponse` answers for `status`: nil = `.allow` (the page shows,
    /// whatever its status), else why it was `.cancel`led.
    func decideResponse(status: Int) -> String? {
        guard let allowed = allowedResponseStatuses, !allowed.contains(status) else { return nil }
        return "the app's response policy cancels HTTP \(status) (allows \(allowed.lowerBound)-\(allowed.upperBound))"
    }

    /// What the delegate answers.
    package enum Decision: Sendable, Equatable {
        /// `.allow`: load in this web view (also for `target="_blank"`).
        case load
        /// `UIApplication.shared.open(url)` then `.cancel`.
        case openExternally
        /// `.cancel`.
        case cancel(reason: String)
    }

    /// Decides a navigation to `url`. `targetBlank` does not change the answer: such links load in place.
    package func decide(_ url: String, targetBlank: Bool = false) -> Decision {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return .cancel(reason: "'\(url)' is not a URL")
        }
        if let host = parsed.host?.lowercased(),
            externalHosts.contains(where: { host == $0.lowercased() || host.hasSuffix("." + $0.lowercased()) })
        {
            return .openExternally
        }
        if loadableSchemes.contains(scheme) { return .load }
        return openOtherSchemesExternally
            ? .openExternally : .cancel(reason: "scheme '\(scheme)' is not loaded by the web view")
    }
}
