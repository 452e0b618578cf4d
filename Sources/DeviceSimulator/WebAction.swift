import Foundation
import HTTPClient
import Synchronization
import YAMLSource

/// A web view step: load the page the top screen was routed to, or tap a link on the loaded page.
/// The one implementation a suite's `load_page` / `follow_link` step and `serve`'s
/// `POST /devices/{name}/actions` share (pages are fetched for real, so it is async and apart from
/// the synchronous `DeviceAction`).
package enum WebAction: Sendable, Equatable {
    /// `{ load_page: true }` or `{ load_page: <bundle id> }`.
    case loadPage(app: String?)
    /// `{ follow_link: <href or text>, app: … }`.
    case followLink(String, app: String?)

    /// The action keys (exactly one may appear), plus `app`.
    package static let yamlKeys = ["load_page", "follow_link"]

    /// The app it names, if any (else the device's only app).
    package var app: String? {
        switch self {
        case .loadPage(let a), .followLink(_, let a): return a
        }
    }

    /// Decodes `{ load_page: true }`, `{ load_page: com.example.app }`, `{ follow_link: Details, app: … }`.
    package static func decode(_ m: YAMLMapping) throws(SourceError) -> WebAction {
        try m.checkKeys(allowed: yamlKeys + ["app"])
        let key = try m.exactlyOne(of: yamlKeys)
        let value = m[key]!
        var app: String? = try m.optional("app")
        if key == "follow_link" { return .followLink(try String.decode(from: value), app: app) }
        if !value.isNull, value.scalar?.value != "true" { app = try String.decode(from: value) }
        return .loadPage(app: app)
    }
}

extension SimulatedDevice {
    /// Performs a web step on its app (or the only installed one) with `web` and records the outcome.
    @discardableResult
    package func perform(_ action: WebAction, with web: WebView) async throws(WebViewStepError) -> WebNavigationOutcome
    {
        try await performWebAction(action, with: web)
    }
}

/// Web engines created on first use and then shared, one per set of trusted CA files and timeout
/// (each engine owns a transfer thread): what `serve`'s devices and a suite run's worlds fetch pages with.
package final class WebViewPool: Sendable {
    private let engines = Mutex<[String: WebView]>([:])

    package init() {}

    /// The engine trusting the system roots plus `caFiles` (PEM paths), with `timeout` per navigation.
    package func engine(trusting caFiles: [String], timeout: Duration = .seconds(15)) throws(HTTPClientError)
        -> WebView
    {
        let key = caFiles.joined(separator: "\n") + "|\(timeout)"
        return try engines.withLock { (cache: inout [String: WebView]) throws(HTTPClientError) -> WebView in
            if let w = cache[key] { return w }
            let w = try WebView(
                trustRoots: try TrustRoots.files(caFiles, includingSystemRoots: true), timeout: timeout)
            cache[key] = w
            return w
        }
    }

    /// Stops every engine's transfer thread.
    package func shutdown() { engines.withLock { for w in $0.values { w.client.shutdown() } } }
}
