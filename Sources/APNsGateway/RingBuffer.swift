import CLinux

/// A bounded FIFO that drops its oldest element when full (O(1) append and removal at the front).
package struct RingBuffer<Element: Sendable>: Sendable {
    package let capacity: Int
    /// Grows up to `capacity` as elements arrive (a large capacity costs nothing until used).
    private var storage: [Element?] = []
    private var head = 0
    package private(set) var count = 0
    /// Elements dropped because the buffer was full, or removed from the front by `removeFirst`.
    package private(set) var evicted: UInt64 = 0

    package init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Appends; returns the element dropped when full (drop it outside any lock: freeing costs).
    @discardableResult
    /// `consuming`: the element is moved into its slot (borrowed, it was copied there).
    package mutating func append(_ element: consuming Element) -> Element? {
        if count == capacity && count == storage.count {
            // Full (the steady state of the gateway's rings): the new element takes the oldest one's slot, one
            // swap instead of a removal and then a store (two accesses to the storage, an optional moved twice).
            var slot: Element? = element
            swap(&slot, &storage[head])
            head = head + 1 == storage.count ? 0 : head + 1
            evicted += 1
            return slot
        }
        var dropped: Element?
        if count == capacity { dropped = removeFirst() }
        if count == storage.count {
            // Physically full but below capacity: lay the elements out from 0 again, then grow.
            if head != 0 {
                storage = Array(storage[head...] + storage[..<head])
                head = 0
            }
            storage.append(element)
        } else {
            // A compare instead of `%` (a division per append and per removal).
            let slot = head + count
            storage[slot < storage.count ? slot : slot - storage.count] = element
        }
        count += 1
        return dropped
    }

    /// When full (its steady state), hints the cache to load what the next appends drop, so that dropping an
    /// element and writing its successor do not wait on memory last touched `capacity` appends ago (with the
    /// gateway's 10,000-entry logs, a cache miss per line). For an `Element` holding one `[UInt8]` stored property
    /// at byte offset `bytesOffset` (`MemoryLayout<Element>.offset(of: \.bytes)`). In three stages, each needing
    /// what the one before brought in: the slot three appends ahead; the first line of the array in the slot two
    /// ahead; the rest of the array (its count is in that first line) in the slot one ahead. Reads only words of
    /// full slots and the count of the arrays they hold; prefetching itself never faults.
    package func prefetchUpcomingDrops(bytesOffset bufferOffset: Int) {
        guard count == capacity, count == storage.count, count > 3 else { return }
        storage.withUnsafeBufferPointer { slots in
            let base = UnsafeRawPointer(slots.baseAddress!)
            let stride = MemoryLayout<Element?>.stride
            func slot(_ k: Int) -> UnsafeRawPointer {
                let i = head + k
                return base + (i < slots.count ? i : i - slots.count) * stride
            }
            pc_prefetch_lines(slot(3), stride)
            let next = slot(2).load(fromByteOffset: bufferOffset, as: UnsafeRawPointer.self)
            pc_prefetch_lines(next, 1)
            // Swift array storage: metadata, reference counts, count at +16, elements from +32.
            let array = slot(1).load(fromByteOffset: bufferOffset, as: UnsafeRawPointer.self)
            let size = 32 + array.load(fromByteOffset: 16, as: Int.self) * MemoryLayout<UInt8>.stride
            if size > 64 { pc_prefetch_lines(array + 64, size - 64) }
        }
    }

    /// Removes and returns the oldest element (counted in `evicted`).
    @discardableResult
    package mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        var old: Element?
        swap(&old, &storage[head])  // moves, no copy of the old element
        head = head + 1 == storage.count ? 0 : head + 1
        count -= 1
        evicted += 1
        return old
    }

    /// The oldest element.
    package var first: Element? { count > 0 ? storage[head] : nil }

    /// Oldest first.
    package var elements: [Element] {
        var out: [Element] = []
        out.reserveCapacity(count)
        for i in 0..<count { out.append(storage[(head + i) % storage.count]!) }
        return out
    }

    package mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }
}
