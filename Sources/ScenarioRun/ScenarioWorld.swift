import APNsGateway
import DeviceBridge
import DeviceSimulator
import FCMGateway
import Foundation
import HTTPClient
import HTTPServer
import PushCrypto
import PushModel
import ScenarioChecks
import SuiteFormat
import Synchronization

/// One scenario's world: a `WorldHost` (gateway, devices, handlers) on the runner's shared server (or, for
/// backend scripts and client-certificate worlds, on listeners of its own, started on first use), plus what only
/// the runner needs: the simulated clock, provider clients and tokens, the proxy and the web view. Used by one
/// task only; `shutdown()` releases the sockets and threads.
final class ScenarioWorld {
    let declaration: WorldDeclaration
    let clock: ManualClock
    /// The world itself; read what happened through its read API (`gatewayLog`, `storedPushes`, …).
    let host: WorldHost
    let credentials: SharedCredentials
    let stepTimeout: Duration
    /// This world's prefix on the process-wide server, once mounted.
    private var sharedID: UInt64?
    private(set) var urls: [APNsEnvironment: String] = [:]
    private var ownURLs: [APNsEnvironment: String] = [:]
    private var clients: [String: APNsClient] = [:]
    /// Clients of `clients` checked out of `ProviderClientPool` (returned to it, not shut down), by pool key.
    private var pooledClients: [String: HTTPClient] = [:]
    private var tokenIssuedAt: [String: Int] = [:]
    private var proxy: ConnectProxy?
    /// The runner's FCM sender and the world's own FCM listener (`ScenarioWorld+FCM.swift`), made on first use.
    var fcmSender: FCMClient?
    var fcmRoot: (url: String, credentials: [String: String])?

    init(_ world: WorldDeclaration, seed: UInt64, stepTimeout: Duration) throws {
        declaration = world
        self.stepTimeout = stepTimeout
        credentials = try SharedCredentials.shared()
        // Unpinned worlds start at the wall clock, whole seconds (a backend's `iat` is whole seconds too).
        let clock = ManualClock(
            start: world.clockStart ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        self.clock = clock
        let shared = credentials
        let sender = try world.fcm.map { _ in try shared.fcmServiceAccount() }
        host = try WorldHost(
            world, clock: clock, seedSalt: seed,
            providerKeys: [
                APNsProviderKey(
                    keyID: world.defaultKeyID, teamID: world.defaultTeamID, publicKey: credentials.providerPublicKey)
            ],
            serviceAccounts: sender.map {
                [
                    FCMServiceAccount(
                        clientEmail: $0.clientEmail, publicKey: $0.privateKey.publicKey, privateKey: $0.privateKey,
                        privateKeyID: $0.privateKeyID)
                ]
            } ?? [])
    }

    /// The devices, in declaration order (each `HostedDevice` keeps the gateway's token registry and
    /// store-and-forward in step with it, and its `declaration`).
    var devices: [HostedDevice] { host.fleet.devices }

    /// The named device, or the first one.
    func device(_ name: String?) -> HostedDevice? {
        guard let name else { return devices.first }
        return host.device(named: name)
    }

    /// The app a step addresses: `app:` or the device's first declared (or installed) app.
    func bundleID(on device: HostedDevice, _ app: String?) -> String? {
        if let app { return app }
        return device.declaration?.apps.first ?? declaration.apps.first?.bundleID
    }

    /// The gateway's URL for `environment`. pushcheck's own sends use the world's prefix on the
    /// process-wide server (`…/w/<id>`). Backend scripts (`run` steps, `${gateway.*}`) get `atRoot`: a
    /// listener of the world's own whose URL has no path, as real APNs, because many provider libraries
    /// take only a host and port. Worlds that trust their own client-certificate CAs always use their own.
    func url(_ environment: APNsEnvironment, atRoot: Bool = false) throws -> String {
        if atRoot || !declaration.clientCertificateCAs.isEmpty { return try ownListenerURL(environment) }
        if let url = urls[environment] { return url }
        let url = try sharedURL(WorldEndpoint(environment))
        urls[environment] = url
        return url
    }

    /// This world's prefix for `endpoint` on the process-wide server (the world is mounted on first use).
    func sharedURL(_ endpoint: WorldEndpoint) throws -> String {
        let shared = try SharedGatewayServer.shared(credentials)
        let id = sharedID ?? shared.mount(host)
        sharedID = id
        return shared.url(endpoint, world: id)
    }

    /// A TLS listener for this world's gateway alone (started on first use, closed by `shutdown()`).
    private func ownListenerURL(_ environment: APNsEnvironment) throws -> String {
        if let url = ownURLs[environment] { return url }
        var plan = ownListenPlan()
        plan.sandboxPort = environment == .sandbox ? 0 : nil
        plan.productionPort = environment == .production ? 0 : nil
        let url = try host.start(plan).url(environment.rawValue) ?? ""
        ownURLs[environment] = url
        return url
    }

    /// A plan for listeners of this world's own, with the runner's TLS identity and no listener chosen yet.
    func ownListenPlan() -> WorldListenPlan {
        var plan = WorldListenPlan(
            tls: TLSConfiguration(
                certificateChainPEM: credentials.server.pem, privateKeyPEM: credentials.server.privateKeyPEM,
                clientCertificates: .request(
                    trustedCAPEMs: [credentials.ca.certificatePEM] + declaration.clientCertificateCAs)))
        plan.sandboxPort = nil
        plan.productionPort = nil
        return plan
    }

    /// An HTTP CONNECT proxy (`PUSHCHECK_APNS_PROXY_URL`) tunnelling api.*.push.apple.com to this world's
    /// own listeners, for client libraries that cannot be pointed at another host (started on first use).
    func proxyURL() throws -> String {
        if let proxy { return proxy.url }
        _ = try ownListenerURL(.sandbox)
        _ = try ownListenerURL(.production)
        _ = try ownBroadcastURL(.sandbox)  // both channel-management listeners start together
        let p = try host.startProxy()  // stopped with the world's listeners
        proxy = p
        return p.url
    }

    /// A provider client for `environment` and `auth` (one connection per distinct credential).
    func client(_ environment: APNsEnvironment, auth: SendAuth, topic: String) throws -> APNsClient {
        let base = try url(environment)
        let key: String
        let authentication: APNsAuthentication
        switch auth {
        case .none, .bearer:
            key = "none"
            authentication = .none
        case .certificate:
            key = "cert|\(topic)"
            let bundle = APNsPushType.bundleID(ofTopic: topic)
            let cert = try credentials.providerCertificate(bundleID: bundle, teamID: declaration.defaultTeamID)
            authentication = .certificate(
                ClientCertificate(
                    certificatePEM: Array(cert.pem.utf8), privateKeyPEM: Array(cert.privateKeyPEM.utf8)))
        case .token(let keyID, let teamID, let keyFile, _):
            // Token sends carry `authorization` themselves (see `providerToken`): one connection per key.
            key = "token|\(keyID ?? "")|\(teamID ?? "")|\(keyFile ?? "")"
            authentication = .none
        }
        let cacheKey = environment.rawValue + "|" + key
        if let c = clients[cacheKey] { return c }
        let make = {
            try APNsClient(
                baseURL: base, authentication: authentication,
                trustRoots: TrustRoots.pem([Array(self.credentials.ca.certificatePEM.utf8)]),
                timeout: self.stepTimeout)
        }
        let c: APNsClient
        if declaration.clientCertificateCAs.isEmpty {
            // The shared server outlives the world: its connection goes to the next world (`ProviderClientPool`).
            let poolKey = "\(cacheKey)|\(declaration.defaultTeamID)|\(stepTimeout)"
            let http = try ProviderClientPool.shared.checkOut(poolKey) { try make().client }
            pooledClients[poolKey] = http
            c = APNsClient(baseURL: base, authentication: authentication, client: http)
        } else {
            c = try make()
        }
        clients[cacheKey] = c
        return c
    }

    /// The provider token to send now, as a well-behaved provider refreshes it: reused until it is 50
    /// minutes old on the simulated clock (Apple: refresh no more than every 20 minutes, no less than
    /// hourly), then re-issued with `iat` = now.
    func providerToken(keyID: String?, teamID: String?, keyFile: String?) throws -> String {
        let team = teamID ?? declaration.defaultTeamID
        let kid = keyID ?? declaration.defaultKeyID
        let slot = "\(team)|\(kid)|\(keyFile ?? "")"
        let now = Int(clock.now().timeIntervalSince1970)
        var issuedAt = tokenIssuedAt[slot] ?? now
        if now - issuedAt >= 50 * 60 || now < issuedAt { issuedAt = now }
        tokenIssuedAt[slot] = issuedAt
        return try credentials.providerToken(teamID: team, keyID: kid, keyFile: keyFile, issuedAt: issuedAt)
    }

    /// A provider token whose `iat` is `age` before the simulated now.
    func agedProviderToken(keyID: String?, teamID: String?, keyFile: String?, age: Duration) throws -> String {
        try credentials.providerToken(
            teamID: teamID ?? declaration.defaultTeamID, keyID: keyID ?? declaration.defaultKeyID, keyFile: keyFile,
            issuedAt: Int(clock.now().timeIntervalSince1970) - Int(age.components.seconds))
    }

    /// The device's web engine: trusts the fixture server's CA, pushcheck's CA and the system roots
    /// (shared by every world, see `SharedCredentials.webView`).
    func web(fixtureCAPath: String) throws -> WebView {
        try credentials.webView(fixtureCAPath: fixtureCAPath, timeout: min(stepTimeout, .seconds(15)))
    }

    func shutdown() {
        fcmSender?.shutdown()
        fcmSender = nil
        let pooled = Set(pooledClients.values.map(ObjectIdentifier.init))
        for c in clients.values where !pooled.contains(ObjectIdentifier(c.client)) { c.client.shutdown() }
        clients = [:]
        for (key, client) in pooledClients { ProviderClientPool.shared.checkIn(key, client) }
        pooledClients = [:]
        if let id = sharedID, let shared = try? SharedGatewayServer.shared(credentials) { shared.unmount(id) }
        sharedID = nil
        proxy = nil
        host.shutdown()
    }
}
