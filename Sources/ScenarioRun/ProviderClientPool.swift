import HTTPClient
import Synchronization

/// Idle provider connections to the runner's shared server (`SharedGatewayServer`), handed from a finished scenario
/// to the next: a new `HTTPClient` per scenario cost a thread, a TLS context loaded with the CA and a TLS handshake
/// on both ends, more than the rest of a one-send scenario. A client is checked out by one world at a time (its
/// sends never share a connection with another running scenario) and returned by `ScenarioWorld.shutdown()`.
/// The server keeps each world's connection state apart (`WorldRoutes`), so a reused connection looks new to the
/// next world's gateway.
final class ProviderClientPool: Sendable {
    /// Idle clients kept per key (more are shut down): one per concurrent scenario is all a run reuses.
    static let maxIdlePerKey = 8

    private let idle = Mutex<[String: [HTTPClient]]>([:])

    static let shared = ProviderClientPool()

    /// An idle client made for `key`, or a new one from `make`.
    func checkOut(_ key: String, make: () throws -> HTTPClient) rethrows -> HTTPClient {
        if let client = idle.withLock({ $0[key]?.popLast() }) { return client }
        return try make()
    }

    /// Hands `client` back for the next world that asks for `key`.
    func checkIn(_ key: String, _ client: HTTPClient) {
        let kept = idle.withLock { idle -> Bool in
            guard idle[key, default: []].count < Self.maxIdlePerKey else { return false }
            idle[key, default: []].append(client)
            return true
        }
        if !kept { client.shutdown() }
    }
}
