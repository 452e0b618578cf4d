/// A fixed-capacity FIFO that overwrites its oldest element when full (O(1) append).
public struct RingBuffer<Element: Sendable>: Sendable {
    public let capacity: Int
    private var storage: [Element] = []
    private var head = 0
    /// Elements overwritten because the buffer was full.
    public private(set) var evicted: UInt64 = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
            evicted += 1
        }
    }

    /// Oldest first.
    public var elements: [Element] { Array(storage[head...] + storage[..<head]) }
    public var count: Int { storage.count }

    public mutating func removeAll() {
        storage = []
        head = 0
    }
}
