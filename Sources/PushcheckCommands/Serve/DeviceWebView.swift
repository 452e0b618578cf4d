import DeviceBridge
import DeviceSimulator
import Foundation
import HTTPClient
import HTTPServer
import PushModel
import Synchronization
import YAMLSource

/// The web engine hosted devices use for `load_page` / `follow_link` (pages fetched for real through
/// libcurl), created on first use: it trusts the system roots plus `serve`'s own CA, if it made one.
final class DeviceWebView: Sendable {
    private let caPath: String?
    private let engine = Mutex<WebView?>(nil)

    init(caPath: String?) { self.caPath = caPath }

    func get() throws(HTTPClientError) -> WebView {
        try engine.withLock { (w: inout WebView?) throws(HTTPClientError) -> WebView in
            if let w { return w }
            let roots = try TrustRoots.files(caPath.map { [$0] } ?? [], includingSystemRoots: true)
            let made = try WebView(trustRoots: roots)
            w = made
            return made
        }
    }

    /// Stops the engine's transfer thread, if it was started.
    func shutdown() { engine.withLock { $0?.client.shutdown() } }
}

extension ControlAPI {
    static let webActionKeys = ["load_page", "follow_link"]

    /// A `POST /devices/{name}/actions` whose body is a web step (`{"load_page": true}`,
    /// `{"follow_link": "Details", "app": …}`): answered later, after the page was fetched.
    /// Nil for every other request (`route(_:)` answers those at once).
    func webAction(_ request: HTTPRequest) -> (@Sendable () async -> HTTPResponse)? {
        let parts = Self.split(request.path).0.split(separator: "/").map(String.init)
        guard request.method == "POST", parts.count == 3, parts[0] == "devices", parts[2] == "actions",
            let text = String(bytes: request.body, encoding: .utf8),
            let node = try? YAMLLoader.load(string: text, file: "request body"), let m = try? YAMLMapping(node),
            Self.webActionKeys.contains(where: { m.contains($0) })
        else { return nil }
        let name = parts[1].removingPercentEncoding ?? parts[1]
        return { [fleet, web] in
            guard let device = fleet?.device(named: name) else { return Self.problem(404, "no device named '\(name)'") }
            let step: (app: String?, link: String?)
            do throws(SourceError) {
                try m.checkKeys(allowed: Self.webActionKeys + ["app"])
                let key = try m.exactlyOne(of: Self.webActionKeys)
                let value = m[key]!
                var app: String? = try m.optional("app")
                if key == "load_page", !value.isNull, value.scalar?.value != "true" {
                    app = try String.decode(from: value)
                }
                step = (app, key == "follow_link" ? try String.decode(from: value) : nil)
            } catch {
                return Self.problem(400, error.message, extra: Self.position(error))
            }
            let installed = device.device.snapshot.apps.keys.sorted()
            guard let bundleID = step.app ?? (installed.count == 1 ? installed[0] : nil), installed.contains(bundleID)
            else {
                return Self.problem(
                    422, "name an installed app with app:; installed: \(installed.joined(separator: ", "))")
            }
            guard let web else { return Self.problem(500, "no web view configured") }
            let before = device.device.events.last?.sequence ?? 0
            do {
                let engine = try web.get()
                if let link = step.link {
                    try await device.device.followLink(bundleID, link, with: engine)
                } else {
                    try await device.device.loadWebView(bundleID, with: engine)
                }
            } catch let error as WebViewStepError {
                return Self.problem(422, error.description)
            } catch {
                return Self.problem(500, "cannot start the web view: \(error)")
            }
            return Self.json(200, device.eventsJSON(since: before).objectValue ?? [:])
        }
    }
}
