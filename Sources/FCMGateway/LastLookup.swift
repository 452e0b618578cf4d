/// A dictionary look-up that remembers its last key and answer. A sender repeats the same key on every send (its
/// registration token, its `authorization` value), and comparing it — often the very same string, which compares by
/// identity — costs less than hashing its 100-odd bytes again.
struct LastLookup<Value> {
    private var key = ""
    private var value: Value?

    /// `table[key]`, through the last look-up when `key` is the same.
    mutating func find(_ key: String, in table: [String: Value]) -> Value? {
        if let value, self.key == key { return value }
        guard let found = table[key] else { return nil }
        self.key = key
        value = found
        return found
    }

    /// Forgets the last answer (the table changed).
    mutating func forget() { value = nil }
}

extension LastLookup: Sendable where Value: Sendable {}
