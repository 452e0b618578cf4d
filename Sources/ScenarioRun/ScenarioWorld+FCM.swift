import DeviceBridge
import FCMGateway
import Foundation
import HTTPClient
import HTTPServer
import ScenarioChecks
import SuiteFormat

extension ScenarioWorld {
    /// The world's mock FCM service (`gateway: { fcm: … }`), nil when it declares none.
    var fcm: FCMGateway? { host.fcm }

    /// The Firebase project a send or a backend addresses by default: the world's first.
    var defaultFCMProject: String? { fcm?.configuration.projects.first?.id }

    /// The runner's FCM sender (`send: { via: fcm }`): the runner's service account, trusting pushcheck's CA, on
    /// the world's prefix of the process-wide server's FCM listener (HTTP/2 over TLS), stamping its OAuth
    /// assertions with the world's simulated clock (the mock checks `iat` and token expiry against it).
    func fcmClient() throws -> FCMClient {
        if let fcmSender { return fcmSender }
        let clock = self.clock
        let client = try FCMClient(
            baseURL: try sharedURL(.fcm), account: try credentials.fcmServiceAccount(),
            trustRoots: TrustRoots.pem([Array(credentials.ca.certificatePEM.utf8)]), timeout: stepTimeout,
            now: { clock.now() })
        fcmSender = client
        return client
    }

    /// The world's own FCM listener at the root (no `/w/<id>` prefix, as `https://fcm.googleapis.com` has
    /// none) and the credentials files `token_uri`-pointing at it, for backend scripts in `run:` steps.
    func fcmRootListener() throws -> (url: String, credentials: [String: String]) {
        if let fcmRoot { return fcmRoot }
        var plan = WorldListenPlan(
            tls: TLSConfiguration(
                certificateChainPEM: credentials.server.pem, privateKeyPEM: credentials.server.privateKeyPEM))
        plan.sandboxPort = nil
        plan.productionPort = nil
        plan.fcmPort = 0
        let started = try host.start(plan)
        let root = (url: started.url("fcm") ?? "", credentials: started.fcmCredentials)
        fcmRoot = root
        return root
    }

    /// `run:` steps' FCM variables: `PUSHCHECK_FCM_URL` (the root listener), `PUSHCHECK_FCM_PROJECT`,
    /// `GOOGLE_APPLICATION_CREDENTIALS` (a service-account JSON whose `token_uri` is the mock). Empty without FCM.
    func fcmEnvironment() -> [String: String] {
        guard let project = defaultFCMProject, let root = try? fcmRootListener() else { return [:] }
        var env = ["PUSHCHECK_FCM_URL": root.url, "PUSHCHECK_FCM_PROJECT": project]
        if let file = root.credentials[project] ?? root.credentials.values.sorted().first {
            env["GOOGLE_APPLICATION_CREDENTIALS"] = file
        }
        return env
    }
}
