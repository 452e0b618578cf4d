import APNsGateway
import Foundation
import HTTPServer
import PushModel
import Synchronization

/// One pair of TLS listeners (sandbox, production) for every scenario world in the process. A world's
/// gateway is reached under its own path prefix, `https://127.0.0.1:PORT/w/<id>`, so providers and backend
/// scripts simply append `/3/device/<token>`. Starting listeners per scenario cost more than the rest of a
/// send (OpenSSL 3 decodes the certificate and key for every TLS context); each world still has its own
/// gateway, log, faults and connections (its client opens its own).
///
/// Worlds that need a listener of their own (client certificates from `client_certificate_cas`) do not use it.
final class SharedGatewayServer: Sendable {
    let server: HTTPServer
    /// Listener URLs without a world prefix.
    let baseURLs: [APNsEnvironment: String]
    let routes: WorldRoutes

    private static let made = Mutex<SharedGatewayServer?>(nil)

    /// The process-wide server (started on first use).
    static func shared(_ credentials: SharedCredentials) throws -> SharedGatewayServer {
        try made.withLock { (value: inout SharedGatewayServer?) throws -> SharedGatewayServer in
            if let value { return value }
            let new = try SharedGatewayServer(credentials)
            value = new
            return new
        }
    }

    private init(_ credentials: SharedCredentials) throws {
        let routes = WorldRoutes()
        let tls = TLSConfiguration(
            certificateChainPEM: credentials.server.pem, privateKeyPEM: credentials.server.privateKeyPEM,
            clientCertificates: .request(trustedCAPEMs: [credentials.ca.certificatePEM]))
        let listeners = APNsEnvironment.allCases.map { env in
            ListenerConfiguration(
                name: env.rawValue, tls: tls, handler: WorldRoutingHandler(environment: env, routes: routes))
        }
        let server = HTTPServer(listeners: listeners, loops: min(2, ProcessInfo.processInfo.activeProcessorCount))
        let bound = try server.start()
        var urls: [APNsEnvironment: String] = [:]
        for b in bound { if let env = APNsEnvironment(rawValue: b.name) { urls[env] = b.url } }
        self.server = server
        self.baseURLs = urls
        self.routes = routes
    }

    /// Mounts `gateway`; returns its id (the `/w/<id>` prefix).
    func register(_ gateway: APNsGateway) -> UInt64 { routes.add(gateway) }

    /// Unmounts a world's gateway (requests to it then get 404).
    func unregister(_ id: UInt64) { routes.remove(id) }

    /// The URL a world's providers use for `environment`.
    func url(_ environment: APNsEnvironment, world id: UInt64) -> String {
        (baseURLs[environment] ?? "") + "/w/\(id)"
    }
}

/// World id → gateway.
final class WorldRoutes: Sendable {
    private struct State {
        var next: UInt64 = 1
        var gateways: [UInt64: APNsGateway] = [:]
    }

    private let state = Mutex(State())

    func add(_ gateway: APNsGateway) -> UInt64 {
        state.withLock { s in
            let id = s.next
            s.next += 1
            s.gateways[id] = gateway
            return id
        }
    }

    func remove(_ id: UInt64) { _ = state.withLock { $0.gateways.removeValue(forKey: id) } }

    func gateway(_ id: UInt64) -> APNsGateway? { state.withLock { $0.gateways[id] } }
}

/// Strips `/w/<id>` and hands the request to that world's gateway.
struct WorldRoutingHandler: HTTPHandler {
    let environment: APNsEnvironment
    let routes: WorldRoutes

    func handle(_ request: HTTPRequest, context: ConnectionContext, responder: HTTPResponder) {
        guard let (id, rest) = Self.split(request.path), let gateway = routes.gateway(id) else {
            let body = JSONValue.object(["reason": .string("pushcheck: no scenario world at \(request.path)")])
            responder.respond(
                HTTPResponse(
                    status: 404, headers: [HTTPField("content-type", "application/json")],
                    body: body.serializedBytes()))
            return
        }
        var routed = request
        routed.path = rest
        gateway.handler(for: environment).handle(routed, context: context, responder: responder)
    }

    /// `/w/17/3/device/abc` → (17, `/3/device/abc`).
    static func split(_ path: String) -> (UInt64, String)? {
        guard path.hasPrefix("/w/") else { return nil }
        let afterPrefix = path.dropFirst(3)
        let digits = afterPrefix.prefix { $0.isASCII && $0.isNumber }
        guard let id = UInt64(digits) else { return nil }
        let rest = afterPrefix.dropFirst(digits.count)
        return (id, rest.isEmpty ? "/" : String(rest))
    }
}
