import Synchronization

/// Server-wide counters, updated from every loop.
final class StatsBox: Sendable {
    private let counters = Mutex(HTTPServerStats())

    var snapshot: HTTPServerStats { counters.withLock { $0 } }

    func accepted() {
        counters.withLock {
            $0.acceptedConnections += 1
            $0.openConnections += 1
        }
    }

    func closed() { counters.withLock { $0.openConnections -= 1 } }

    func protocolSelected(_ version: HTTPVersion) {
        counters.withLock {
            switch version {
            case .http2: $0.http2Connections += 1
            case .http1_1: $0.http1Connections += 1
            }
        }
    }

    func backpressurePaused() { counters.withLock { $0.backpressurePauses += 1 } }

    func requestServed() { counters.withLock { $0.requestsServed += 1 } }
}
