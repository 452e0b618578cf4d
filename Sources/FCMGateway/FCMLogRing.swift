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
