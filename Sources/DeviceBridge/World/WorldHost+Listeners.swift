import APNsGateway
import Foundation
import HTTPServer
import PushCrypto
import PushModel
import Synchronization

/// Which listeners a world opens of its own (`WorldHost.start(_:)`): `serve` opens them all, a scenario world
/// only the APNs environment a backend script needs at the root. A nil port is no listener; 0 is ephemeral.
package struct WorldListenPlan: Sendable {
    package var host = "127.0.0.1"
    /// The TLS identity of the secure listeners (APNs, FCM).
    package var tls: TLSConfiguration
    package var sandboxPort: Int? = 0
    package var productionPort: Int? = 0
    /// The control endpoint (cleartext HTTP/1.1 and h2c).
    package var controlPort: Int?
    /// Cleartext HTTP/2 (prior knowledge) twins of the APNs listeners (`sandbox_h2c`, `production_h2c`).
    package var h2cSandboxPort: Int?
    package var h2cProductionPort: Int?
    /// The FCM listener (TLS, h2 and HTTP/1.1) and its cleartext twin; only when the world declares `fcm:`.
    package var fcmPort: Int?
    package var fcmH2CPort: Int?
    /// The channel-management listeners (TLS; Apple's `api-manage-broadcast.sandbox.push.apple.com:2195` and
    /// `api-manage-broadcast.push.apple.com:2196`), named `broadcast_sandbox` and `broadcast_production`.
    package var broadcastSandboxPort: Int?
    package var broadcastProductionPort: Int?
    package var idleTimeout: Duration = .seconds(300)
    package var handshakeTimeout: Duration = .seconds(10)
    /// Event-loop threads.
    package var loops = 1

    package init(tls: TLSConfiguration) { self.tls = tls }
}

/// What `WorldHost.start(_:)` and `startProxy` started (stopped together by `stop(grace:)`).
struct RunningListeners {
    var servers: [HTTPServer] = []
    var bound: [BoundListener] = []
    var proxies: [ConnectProxy] = []
    /// The service-account files `start(_:)` wrote (each holds a private key): removed by `stop(grace:)`.
    var credentialFiles: [String] = []
}

/// A world's started listeners: where each listens, and the credentials files written for them.
package struct WorldListeners: Sendable {
    package var bound: [BoundListener]
    /// FCM project id → Google service-account JSON whose `token_uri` is this world's FCM listener.
    package var fcmCredentials: [String: String] = [:]

    /// The URL of the listener named `name` (`sandbox`, `control`, `fcm_h2c`, …).
    package func url(_ name: String) -> String? { bound.first { $0.name == name }?.url }
    package func port(_ name: String) -> Int? { bound.first { $0.name == name }?.port }
}

extension WorldHost {
    /// Starts the listeners `plan` asks for, each serving its endpoint's handler, on one server of their own
    /// (call it again for more; `stop(grace:)` stops them all). With an FCM listener, writes one credentials file
    /// per service account with a private key (`fcmCredentials`), `token_uri` at the mock.
    package func start(_ plan: WorldListenPlan) throws -> WorldListeners {
        stopping.store(false, ordering: .relaxed)
        func listener(_ name: String, _ port: Int, secure: Bool, _ endpoint: WorldEndpoint) -> ListenerConfiguration {
            ListenerConfiguration(
                name: name, host: plan.host, port: port, tls: secure ? plan.tls : nil,
                maxConcurrentStreams: declaration.apns.maxConcurrentStreams, idleTimeout: plan.idleTimeout,
                handshakeTimeout: plan.handshakeTimeout, handler: handler(for: endpoint))
        }
        var listeners: [ListenerConfiguration] = []
        if let p = plan.sandboxPort { listeners.append(listener("sandbox", p, secure: true, .sandbox)) }
        if let p = plan.productionPort { listeners.append(listener("production", p, secure: true, .production)) }
        if let p = plan.controlPort { listeners.append(listener("control", p, secure: false, .control)) }
        if let p = plan.h2cSandboxPort { listeners.append(listener("sandbox_h2c", p, secure: false, .sandbox)) }
        if let p = plan.h2cProductionPort {
            listeners.append(listener("production_h2c", p, secure: false, .production))
        }
        if let p = plan.broadcastSandboxPort {
            listeners.append(listener("broadcast_sandbox", p, secure: true, .broadcastSandbox))
        }
        if let p = plan.broadcastProductionPort {
            listeners.append(listener("broadcast_production", p, secure: true, .broadcastProduction))
        }
        if fcm != nil {
            if let p = plan.fcmPort { listeners.append(listener("fcm", p, secure: true, .fcm)) }
            if let p = plan.fcmH2CPort { listeners.append(listener("fcm_h2c", p, secure: false, .fcm)) }
        }
        let server = HTTPServer(listeners: listeners, loops: plan.loops)
        let bound = try server.start()
        running.withLock {
            $0.servers.append(server)
            $0.bound += bound
        }
        var started = WorldListeners(bound: bound)
        if let url = started.url("fcm") {
            do { started.fcmCredentials = try writeFCMCredentials(baseURL: url) } catch {
                server.shutdown(grace: .zero)
                throw error
            }
            let files = Set(started.fcmCredentials.values)
            running.withLock { $0.credentialFiles += files.sorted() }
        }
        return started
    }

    /// Starts an HTTP CONNECT proxy (`HTTPS_PROXY`) tunnelling api.sandbox/development.push.apple.com to this
    /// world's own `sandbox` listener, api.push.apple.com to its `production` one, and
    /// api-manage-broadcast(.sandbox).push.apple.com to its `broadcast_*` ones (start them first; a host whose
    /// listener is not started gets 502), for client libraries that cannot be pointed at another host. Stopped by
    /// `stop(grace:)`.
    package func startProxy(host: String = "127.0.0.1", port: Int = 0) throws -> ConnectProxy {
        let ports = running.withLock { r in
            var out: [ConnectRequest.Target: Int] = [:]
            for (target, name) in Self.proxyListeners {
                if let p = r.bound.first(where: { $0.name == name })?.port { out[target] = p }
            }
            return out
        }
        let proxy = try ConnectProxy(host: host, port: port, targets: ports)
        running.withLock { $0.proxies.append(proxy) }
        return proxy
    }

    /// The listener each proxy target tunnels to.
    static let proxyListeners: [(ConnectRequest.Target, String)] = [
        (.sandbox, "sandbox"), (.production, "production"), (.broadcastSandbox, "broadcast_sandbox"),
        (.broadcastProduction, "broadcast_production"),
    ]

    /// The URL of a listener this world started itself (`start(_:)`), by name (`sandbox`, `broadcast_sandbox`, …).
    package func ownListenerURL(_ name: String) -> String? {
        running.withLock { r in r.bound.first { $0.name == name }?.url }
    }

    /// Stops the proxies and every server `start(_:)` started: no new connections, then in-flight streams get
    /// `grace`.
    package func stop(grace: Duration) {
        stopping.store(true, ordering: .relaxed)
        let started = running.withLock { r in
            defer { r = RunningListeners() }
            return r
        }
        for p in started.proxies { p.shutdown() }
        for s in started.servers { s.beginShutdown(grace: grace) }
        for s in started.servers { s.waitUntilStopped() }
        for f in started.credentialFiles { try? FileManager.default.removeItem(atPath: f) }
    }

    /// Writes one Google service-account JSON per account with a private key, `token_uri` at the mock; returns
    /// project id → file (what `GOOGLE_APPLICATION_CREDENTIALS` should name). Each file holds the account's private
    /// key, so only its owner may read it (0600, like the key a user gave), and `stop(grace:)` removes it.
    func writeFCMCredentials(baseURL: String) throws -> [String: String] {
        guard let configuration = fcm?.configuration else { return [:] }
        var out: [String: String] = [:]
        for (i, account) in configuration.serviceAccounts.enumerated() {
            guard let key = account.privateKey else { continue }
            let projects = configuration.projects.filter {
                account.projects.isEmpty || account.projects.contains($0.id) || account.projects.contains($0.number)
            }
            let json: JSONValue = [
                "type": "service_account", "project_id": .string(projects.first?.id ?? ""),
                "private_key_id": .string(account.privateKeyID ?? "pushcheck-\(i)"),
                "private_key": .string(key.pkcs8PEM),
                "client_email": .string(account.clientEmail), "client_id": "100000000000000000000",
                "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": .string(baseURL + "/token"),
                "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
                "universe_domain": "googleapis.com",
            ]
            let path = NSTemporaryDirectory() + "pushcheck-\(getpid())-\(serial)-fcm-\(i).json"
            try PEMFiles.write(json.serialized(), to: path, mode: 0o600)
            for p in projects where out[p.id] == nil { out[p.id] = path }
        }
        return out
    }
}
