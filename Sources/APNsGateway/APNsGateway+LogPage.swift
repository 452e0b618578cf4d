import PushModel

/// One page of the delivery log (`APNsGateway.logPage`).
public struct APNsLogPage: Sendable, Equatable {
    /// Oldest first.
    public var entries: [APNsLogEntry]
    /// More matching entries follow the last one (ask again with `after:` its sequence).
    public var hasMore: Bool
    /// The newest sequence number given so far (0 before the first request): where a poller that got an empty
    /// page continues from.
    public var latestSequence: UInt64
    /// Entries the log has dropped (capacity or byte budget) since the start.
    public var evicted: UInt64
}

extension APNsGateway {
    /// A page of log entries matching `query`: with `after`, the first `limit` entries whose sequence is greater,
    /// oldest first (walk the log by passing the last sequence back); without it, the newest `limit`.
    ///
    /// The lock every push takes is held only to copy the packed entries out (a retain each); unpacking and
    /// matching run on the caller's thread, so a large read never stalls the gateway.
    public func logPage(matching query: APNsLogQuery = APNsLogQuery(), after: UInt64? = nil, limit: Int) -> APNsLogPage {
        let (packed, latest, evicted) = state.withLock { s in
            (s.log.packedEntries, s.log.nextSequence - 1, s.log.evicted)
        }
        let limit = max(1, limit)
        var entries: [APNsLogEntry] = []
        var hasMore = false
        if let after {
            // Sequences increase along the ring: binary search for the first one past `after`.
            var low = 0
            var high = packed.count
            while low < high {
                let mid = (low + high) / 2
                if packed[mid].sequence <= after { low = mid + 1 } else { high = mid }
            }
            for p in packed[low...] where query.couldMatch(p) {
                let e = p.entry
                guard query.matches(e) else { continue }
                if entries.count == limit {
                    hasMore = true
                    break
                }
                entries.append(e)
            }
        } else {
            for p in packed.reversed() where query.couldMatch(p) {
                let e = p.entry
                guard query.matches(e) else { continue }
                if entries.count == limit {
                    hasMore = true
                    break
                }
                entries.append(e)
            }
            entries.reverse()
        }
        return APNsLogPage(entries: entries, hasMore: hasMore, latestSequence: latest, evicted: evicted)
    }
}

extension APNsLogQuery {
    /// The checks that need no unpacking (endpoint, status): skips most entries of a filtered read cheaply.
    func couldMatch(_ p: PackedLogEntry) -> Bool {
        (endpoint == nil || p.endpoint == endpoint) && (status == nil || p.status == status)
    }
}
