import DeviceSimulator
import Foundation
import HTTPClient
import HTTPServer
import PushModel
import YAMLSource

/// The web engine hosted devices use for `load_page` / `follow_link` (pages fetched for real through
/// libcurl), created on first use: it trusts the system roots plus `serve`'s own CA, if it made one.
package final class DeviceWebView: Sendable {
    private let caPath: String?
    private let pool = WebViewPool()

    package init(caPath: String?) { self.caPath = caPath }

    /// The CA file besides the system roots (serve's own), which the console also trusts for its sends.
    var trustedCAPath: String? { caPath }

    package func get() throws(HTTPClientError) -> WebView { try pool.engine(trusting: caPath.map { [$0] } ?? []) }

    /// Stops the engine's transfer thread, if it was started.
    package func shutdown() { pool.shutdown() }
}

extension ControlAPI {
    /// A `POST /devices/{name}/actions` whose body is a web step (`{"load_page": true}`,
    /// `{"follow_link": "Details", "app": …}`, see `WebAction`): answered later, after the page was
    /// fetched. Nil for every other request (`route(_:)` answers those at once).
    func webAction(_ request: HTTPRequest) -> (@Sendable () async -> HTTPResponse)? {
        let parts = Self.split(request.path).0.split(separator: "/").map(String.init)
        guard request.method == "POST", parts.count == 3, parts[0] == "devices", parts[2] == "actions",
            let text = String(bytes: request.body, encoding: .utf8),
            let node = try? YAMLLoader.load(string: text, file: "request body"), let m = try? YAMLMapping(node),
            WebAction.yamlKeys.contains(where: { m.contains($0) })
        else { return nil }
        let name = parts[1].removingPercentEncoding ?? parts[1]
        return { [fleet, web] in
            guard let device = fleet?.device(named: name) else { return Self.problem(404, "no device named '\(name)'") }
            let action: WebAction
            do throws(SourceError) { action = try WebAction.decode(m) } catch {
                return Self.problem(400, error.message, extra: Self.position(error))
            }
            guard let web else { return Self.problem(500, "no web view configured") }
            let engine: WebView
            do throws(HTTPClientError) { engine = try web.get() } catch {
                return Self.problem(500, "cannot start the web view: \(error)")
            }
            let before = device.lastEventSequence
            do throws(WebViewStepError) {
                switch device.engine {
                case .iphone(let d): try await d.perform(action, with: engine)
                case .android(let d): try await d.perform(action, with: engine)
                }
            } catch {
                return Self.problem(422, error.description)
            }
            return Self.json(200, device.eventsJSON(since: before).objectValue ?? [:])
        }
    }
}
