import CLinux

/// The FCM log's ring: `RingBuffer`'s behaviour (a bounded FIFO dropping its oldest entry when full), written
/// for `FCMLogEntry` here. `RingBuffer` is generic in another module and not inlinable, so appending through it
/// ran unspecialized and copied each entry's fields into the storage (then released the original); this one
/// swaps the entry in and the dropped one out.
struct FCMLogRing: Sendable {
    let capacity: Int
    /// Grows up to `capacity` as entries arrive (a large capacity costs nothing until used).
    private var storage: [FCMLogEntry?] = []
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Appends the entry in `entry` and leaves there the one dropped when full (else `nil`): both moved by swapping
    /// (drop the old one outside any lock: freeing costs).
    mutating func append(swapping entry: inout FCMLogEntry?) {
        if count == capacity {
            swap(&entry, &storage[head])  // the oldest entry's slot takes the new one
            head = (head + 1) % storage.count
            prefetchUpcomingDrops()
            return
        }
        if count == storage.count {
            // Physically full but below capacity: lay the entries out from 0 again, then grow.
            if head != 0 {
                storage = Array(storage[head...] + storage[..<head])
                head = 0
            }
            storage.append(nil)
        }
        swap(&entry, &storage[(head + count) % storage.count])  // an empty slot: `entry` becomes nil
        count += 1
    }

    /// Where the first hop's header array and payload are in an entry (`prefetchUpcomingDrops`).
    private static let hopFieldsOffset =
        MemoryLayout<FCMLogEntry>.offset(of: \.firstHop)! + MemoryLayout<FCMAPNsHop>.offset(of: \.sentFields)!
    private static let hopPayloadOffset =
        MemoryLayout<FCMLogEntry>.offset(of: \.firstHop)! + MemoryLayout<FCMAPNsHop>.offset(of: \.payloadBytes)!

    /// Full (its steady state): hints the cache to load what the next appends drop, as `RingBuffer` does for the
    /// APNs log — the slot two appends ahead (an entry is 280 bytes), and in the slot one ahead the first hop's
    /// header array and payload, the two largest objects a token send leaves in the log. Their addresses are read
    /// from the slot's words and never dereferenced: an entry without a hop holds other bits there, and
    /// prefetching a stray address does nothing. (Prefetching the request body and the hop's `apns-id` as well,
    /// through enum and string layouts, measured the same.)
    private func prefetchUpcomingDrops() {
        guard storage.count > 2 else { return }
        storage.withUnsafeBufferPointer { slots in
            let base = UnsafeRawPointer(slots.baseAddress!)
            let stride = MemoryLayout<FCMLogEntry?>.stride
            func slot(_ k: Int) -> UnsafeRawPointer {
                let i = head + k
                return base + (i < slots.count ? i : i - slots.count) * stride
            }
            pc_prefetch_lines(slot(2), stride)
            let next = slot(1)
            pc_prefetch_lines(next.load(fromByteOffset: Self.hopFieldsOffset, as: UnsafeRawPointer?.self), 192)
            pc_prefetch_lines(next.load(fromByteOffset: Self.hopPayloadOffset, as: UnsafeRawPointer?.self), 320)
        }
    }

    /// Oldest first.
    var elements: [FCMLogEntry] {
        var out: [FCMLogEntry] = []
        out.reserveCapacity(count)
        for i in 0..<count { out.append(storage[(head + i) % storage.count]!) }
        return out
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }
}
