import APNsGateway
import Foundation
import HTTPServer
import HTTPTypes
import PushModel
import Synchronization

/// One server shared by many worlds: a listener per endpoint, each world reached under its own path prefix,
/// `https://127.0.0.1:PORT/w/<id>`, so providers and scripts simply append `/3/device/<token>`. Starting
/// listeners per world costs more than the rest of a send (OpenSSL 3 decodes the certificate and key for every
/// TLS context); each world still has its own gateways, log, faults and devices, and its own view of each
/// connection (`WorldRoutes`), so a client may carry one world's requests after another's on one connection. The runner mounts every scenario's world on one of these.
package final class WorldServer: Sendable {
    let server: HTTPServer
    /// Listener URLs without a world prefix.
    let baseURLs: [WorldEndpoint: String]
    let routes: WorldRoutes

    /// Starts one listener per endpoint (named as the endpoint), all with `tls`.
    package init(tls: TLSConfiguration, endpoints: [WorldEndpoint], host: String = "127.0.0.1", loops: Int) throws {
        let routes = WorldRoutes()
        let listeners = endpoints.map { endpoint in
            ListenerConfiguration(
                name: endpoint.rawValue, host: host, tls: tls,
                handler: WorldRoutingHandler(endpoint: endpoint, routes: routes))
        }
        let server = HTTPServer(listeners: listeners, loops: loops)
        let bound = try server.start()
        var urls: [WorldEndpoint: String] = [:]
        for b in bound { if let endpoint = WorldEndpoint(rawValue: b.name) { urls[endpoint] = b.url } }
        self.server = server
        self.baseURLs = urls
        self.routes = routes
    }

    /// Mounts `world`; returns its id (the `/w/<id>` prefix).
    package func mount(_ world: WorldHost) -> UInt64 { routes.add(world) }

    /// Unmounts a world (requests to its prefix then get 404).
    package func unmount(_ id: UInt64) { routes.remove(id) }

    /// The URL a mounted world's clients use for `endpoint`.
    package func url(_ endpoint: WorldEndpoint, world id: UInt64) -> String {
        (baseURLs[endpoint] ?? "") + "/w/\(id)"
    }

    /// Stops the listeners.
    package func shutdown(grace: Duration = .zero) { server.shutdown(grace: grace) }
}

/// World id → world, and each world's view of the connections that reached it.
package final class WorldRoutes: Sendable {
    /// A mounted world and, per connection id, the context its handlers see: the same facts as the socket's, with
    /// storage of the world's own. A connection that carries requests for several worlds in turn (the runner hands
    /// a finished scenario's provider connection to the next one) then never shows one world the provider-token
    /// binding, certificate facts or 20-minute rule of another: each world sees a connection as if it had opened it.
    private struct Mounted {
        var world: WorldHost
        var contexts: [UInt64: ConnectionContext] = [:]
    }

    private struct State {
        var next: UInt64 = 1
        var worlds: [UInt64: Mounted] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    package func add(_ world: WorldHost) -> UInt64 {
        state.withLock { s in
            let id = s.next
            s.next += 1
            s.worlds[id] = Mounted(world: world)
            return id
        }
    }

    package func remove(_ id: UInt64) { _ = state.withLock { $0.worlds.removeValue(forKey: id) } }

    package func world(_ id: UInt64) -> WorldHost? { state.withLock { $0.worlds[id]?.world } }

    /// World `id` and its context for `connection` (made on the world's first request on it).
    func world(_ id: UInt64, on connection: ConnectionContext) -> (WorldHost, ConnectionContext)? {
        state.withLock { s in
            guard let index = s.worlds.index(forKey: id) else { return nil }
            if let context = s.worlds.values[index].contexts[connection.id] {
                return (s.worlds.values[index].world, context)
            }
            let context = ConnectionContext(
                id: connection.id, listenerName: connection.listenerName, remoteAddress: connection.remoteAddress,
                localPort: connection.localPort, security: connection.security, version: connection.version,
                clientCertificateTrusted: connection.clientCertificateTrusted)
            s.worlds.values[index].contexts[connection.id] = context
            return (s.worlds.values[index].world, context)
        }
    }

    /// A connection closed: the worlds forget their contexts for it.
    func connectionClosed(_ connection: ConnectionContext) {
        state.withLock { s in
            for index in s.worlds.indices where !s.worlds.values[index].contexts.isEmpty {
                s.worlds.values[index].contexts[connection.id] = nil
            }
        }
    }
}

/// Strips `/w/<id>` and hands the request to that world's handler for the listener's endpoint.
package struct WorldRoutingHandler: HTTPHandler {
    let endpoint: WorldEndpoint
    let routes: WorldRoutes

    package init(endpoint: WorldEndpoint, routes: WorldRoutes) {
        self.endpoint = endpoint
        self.routes = routes
    }

    /// Over-limit bodies reach the world's handler for the endpoint, which answers them in its service's words
    /// (APNs `PayloadTooLarge`, FCM's `INVALID_ARGUMENT`) or, if it does not take them, gets the transport's 413.
    package var answersOversizedRequests: Bool { true }

    package func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        guard let (id, rest) = Self.split(request.path), let (world, worldContext) = routes.world(id, on: context)
        else {
            let body = JSONValue.object(["reason": .string("pushcheck: no scenario world at \(request.path)")])
            responder.respond(
                HTTPResponse(
                    status: 404, headers: [HTTPField("content-type", "application/json")],
                    body: body.serializedBytes()))
            return
        }
        var routed = request
        routed.path = rest
        let handler = world.handler(for: endpoint)
        if request.bodyOverLimit != nil, !handler.answersOversizedRequests {
            responder.respond(HTTPResponse(status: 413))
            return
        }
        handler.handle(routed, context: worldContext, responder: responder)
    }

    package func connectionClosed(_ context: ConnectionContext) { routes.connectionClosed(context) }

    /// `/w/17/3/device/abc` → (17, `/3/device/abc`).
    package static func split(_ path: String) -> (UInt64, String)? {
        guard path.hasPrefix("/w/") else { return nil }
        let afterPrefix = path.dropFirst(3)
        let digits = afterPrefix.prefix { $0.isASCII && $0.isNumber }
        guard let id = UInt64(digits) else { return nil }
        let rest = afterPrefix.dropFirst(digits.count)
        return (id, rest.isEmpty ? "/" : String(rest))
    }
}
