/// A map from HTTP/2 stream identifier to a value, for the per-stream state touched several times per request.
///
/// `Dictionary` and `Set` hash every key with SipHash through `Hasher` (about 2 % of a request's CPU for the four
/// look-ups, inserts and removes a request makes); stream identifiers need no keyed hash: the small, densely
/// increasing odd integers a client uses are spread by one multiplication. Open addressing with linear probing
/// and backward-shift deletion (no tombstones), grown at half full. Identifier 0 is never a key (it marks an empty
/// slot): no stream is numbered 0 (RFC 9113 §5.1.1).
struct StreamMap<Value> {
    private var keys: [UInt32]
    private var values: [Value?]
    private var mask: Int
    private var shift: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        var size = 8
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: nil, count: size)
        mask = size - 1
        shift = 64 - size.trailingZeroBitCount
    }

    var isEmpty: Bool { count == 0 }

    /// Fibonacci hashing: the top bits of the identifier times 2^64 / φ.
    private func home(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The slot holding `key`, or nil.
    func slot(of key: UInt32) -> Int? {
        guard key != 0, count > 0 else { return nil }
        var i = home(key)
        while true {
            let k = keys[i]
            if k == key { return i }
            if k == 0 { return nil }
            i = (i + 1) & mask
        }
    }

    func contains(_ key: UInt32) -> Bool { slot(of: key) != nil }

    /// The value in `slot` (from `slot(of:)`, valid until the next insert or remove), mutated in place.
    mutating func modify<R>(slot: Int, _ body: (inout Value) -> R) -> R {
        body(&values[slot]!)
    }

    /// The value in `slot`, mutated in place like `modify(slot:_:)`. For a mutation given values the caller owns:
    /// they move into it (a closure captures them borrowed, so each was retained for the mutation and released
    /// after, as `HTTP2Session.header` did for every field's name and value). Read through `modify(slot:_:)`: the
    /// getter (and a `_read` yielding `values[slot]!`) copies the whole value, which for a stream's entry was six
    /// retains and releases per read (counted with `Tests/bench/count-bench.sh`).
    subscript(slot slot: Int) -> Value {
        get { values[slot]! }
        _modify { yield &values[slot]! }
    }

    /// Inserts or replaces the value for `key`.
    mutating func set(_ key: UInt32, _ value: consuming Value) {
        precondition(key != 0)
        if (count + 1) * 2 > keys.count { grow() }
        var i = home(key)
        while true {
            let k = keys[i]
            if k == key {
                values[i] = value
                return
            }
            if k == 0 {
                keys[i] = key
                values[i] = value
                count += 1
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Removes `key`; returns its value, or nil when it was absent.
    @discardableResult
    mutating func remove(_ key: UInt32) -> Value? {
        guard var hole = slot(of: key) else { return nil }
        let removed = values[hole].take()
        keys[hole] = 0
        count -= 1
        // Backward shift: move later entries of the probe run into the hole when their home allows it.
        var i = (hole + 1) & mask
        while keys[i] != 0 {
            let h = home(keys[i])
            // `i`'s entry may move to `hole` when `hole` lies cyclically in [h, i).
            if (i - h) & mask >= (i - hole) & mask {
                keys[hole] = keys[i]
                values[hole] = values[i].take()
                keys[i] = 0
                hole = i
            }
            i = (i + 1) & mask
        }
        return removed
    }

    private mutating func grow() {
        var bigger = StreamMap(capacity: keys.count)
        for i in keys.indices where keys[i] != 0 {
            bigger.set(keys[i], values[i].take()!)
        }
        self = bigger
    }
}
