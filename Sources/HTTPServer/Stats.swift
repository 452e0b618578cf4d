import Synchronization

/// Server-wide counters, updated from every loop.
final class StatsBox: Sendable {
    private let counters = Mutex(HTTPServerStats())
    /// Counted once per request by every loop: an atomic, not the lock the loops would contend for.
    private let served = Atomic<Int>(0)

    var snapshot: HTTPServerStats {
        var s = counters.withLock { $0 }
        s.requestsServed = served.load(ordering: .relaxed)
        return s
    }

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

    func requestServed() { served.wrappingAdd(1, ordering: .relaxed) }
}
