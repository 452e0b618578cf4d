import PushModel

/// One page of the delivery log (`APNsGateway.logPage`).
package struct APNsLogPage: Sendable, Equatable {
    /// Oldest first.
    package var entries: [APNsLogEntry]
    /// More matching entries follow the last one (ask again with `after:` its sequence).
    package var hasMore: Bool
    /// The newest sequence number given so far (0 before the first request): where a poller that got an empty
    /// page continues from.
    package var latestSequence: UInt64
    /// Entries the log has dropped (capacity or byte budget) since the start.
    package var evicted: UInt64
}

extension APNsGateway {
    /// A page of log entries matching `query`: with `after`, the first `limit` entries whose sequence is greater,
    /// oldest first (walk the log by passing the last sequence back); without it, the newest `limit`.
    ///
    /// The lock every push takes is held only to copy the packed entries out (a retain each); unpacking and
    /// matching run on the caller's thread, so a large read never stalls the gateway.
    package func logPage(matching query: APNsLogQuery = APNsLogQuery(), after: UInt64? = nil, limit: Int) -> APNsLogPage
    {
        let (packed, latest, evicted) = state.withLock { s in
            (s.log.packedEntries, s.log.nextSequence - 1, s.log.evicted)
        }
        let (entries, hasMore) = SequencePaging.page(packed, sequence: \.sequence, after: after, limit: limit) {
            (p: PackedLogEntry) -> APNsLogEntry? in
            guard query.couldMatch(p) else { return nil }
            let e = p.entry
            return query.matches(e) ? e : nil
        }
        return APNsLogPage(entries: entries, hasMore: hasMore, latestSequence: latest, evicted: evicted)
    }
}

/// One page of the store-and-forward history (`APNsGateway.deliveryPage`), paged like the log.
package struct APNsDeliveryPage: Sendable, Equatable {
    /// Oldest first.
    package var events: [DeliveryEvent]
    /// More matching events follow the last one (ask again with `after:` its sequence).
    package var hasMore: Bool
    /// The newest sequence number given so far (0 before the first event).
    package var latestSequence: UInt64
    /// Events the bounded history has dropped since the start.
    package var evicted: UInt64
}

extension APNsGateway {
    /// A page of the delivery history, for `token` only when given: paged exactly as `logPage`.
    package func deliveryPage(token: DeviceToken? = nil, after: UInt64? = nil, limit: Int) -> APNsDeliveryPage {
        let (packed, latest, evicted) = state.withLock { s in
            (s.store.events.elements, s.store.nextSequence - 1, s.store.evicted)
        }
        let (events, hasMore) = SequencePaging.page(packed, sequence: \.sequence, after: after, limit: limit) {
            (p: PackedDeliveryEvent) -> DeliveryEvent? in
            let e = p.event
            return token == nil || e.push.token == token ? e : nil
        }
        return APNsDeliveryPage(events: events, hasMore: hasMore, latestSequence: latest, evicted: evicted)
    }
}

/// Paging over a ring whose sequence numbers increase: the log's and the delivery history's.
enum SequencePaging {
    /// With `after`, the first `limit` matches whose sequence is greater, oldest first; without it, the newest
    /// `limit`. `match` unpacks and filters one element (nil: not wanted), on the caller's thread.
    static func page<Packed, Entry>(
        _ packed: [Packed], sequence: (Packed) -> UInt64, after: UInt64?, limit: Int, match: (Packed) -> Entry?
    ) -> (entries: [Entry], hasMore: Bool) {
        let limit = max(1, limit)
        var entries: [Entry] = []
        var hasMore = false
        /// Up to `limit` matches in `candidates`' order; `hasMore` when one more matches.
        func collect<Candidates: Sequence<Packed>>(_ candidates: Candidates) {
            for p in candidates {
                guard let e = match(p) else { continue }
                if entries.count == limit {
                    hasMore = true
                    return
                }
                entries.append(e)
            }
        }
        if let after {
            // Sequences increase along the ring: binary search for the first one past `after`.
            var low = 0
            var high = packed.count
            while low < high {
                let mid = (low + high) / 2
                if sequence(packed[mid]) <= after { low = mid + 1 } else { high = mid }
            }
            collect(packed[low...])
        } else {
            collect(packed.reversed())
            entries.reverse()
        }
        return (entries, hasMore)
    }
}

extension APNsLogQuery {
    /// The checks that need no unpacking (endpoint, status): skips most entries of a filtered read cheaply.
    func couldMatch(_ p: PackedLogEntry) -> Bool {
        (endpoint == nil || p.endpoint == endpoint) && (status == nil || p.status == status)
    }
}
