/// A fixed-capacity FIFO that overwrites its oldest element when full (O(1) append).
public struct RingBuffer<Element: Sendable>: Sendable {
    public let capacity: Int
    private var storage: [Element] = []
    private var head = 0
    /// Elements overwritten because the buffer was full.
    public private(set) var evicted: UInt64 = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Appends; returns the element overwritten when full (drop it outside any lock: freeing costs).
    @discardableResult
    public mutating func append(_ element: Element) -> Element? {
        if storage.count < capacity {
            storage.append(element)
            return nil
        }
        var old = element
        swap(&old, &storage[head])  // moves, no copy of the old element
        head = (head + 1) % capacity
        evicted += 1
        return old
    }

    /// Oldest first.
    public var elements: [Element] { Array(storage[head...] + storage[..<head]) }
    public var count: Int { storage.count }

    public mutating func removeAll() {
        storage = []
        head = 0
    }
}
