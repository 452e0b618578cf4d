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

extension SimulatedDevice: WebViewHost {
    var installedApps: [String] { snapshot.apps.keys.sorted() }

    func webScreen(of app: String) -> WebScreen? {
        snapshot.apps[app].map {
            WebScreen(routedURL: $0.router.stack.last?.url, page: $0.webPage, policy: $0.declaration.webViewPolicy)
        }
    }

    func recordWebNavigation(_ outcome: WebNavigationOutcome, for app: String) {
        perform { (s: inout DeviceState, now: Date) in s.recordWebNavigation(outcome, for: app, now: now) }
    }
}
