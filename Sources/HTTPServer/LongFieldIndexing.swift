/// Which response fields with a long value (over `HTTP2Session.maxIndexedValueLength` bytes) a connection adds to
/// its HPACK table (RFC 7541 §2.3.2, §6.2).
///
/// Such a value is mostly fresh in every response (`apns-id`, `apns-unique-id`): indexing each one would cost an
/// insertion and an eviction per field and push out entries worth keeping. Never indexing any of them (as before)
/// sent the name as a literal on every response too, Huffman-coded: 21 of the 93 characters nghttp2 coded per
/// APNs answer. So the first long-valued field of each name on a connection is indexed, which puts the name in
/// the table; later fields with that name are never-indexed literals that refer to the name by its index; and a
/// field that repeats that first value (FCM's `content-type: application/json; charset=UTF-8`) is indexed again,
/// which nghttp2 sends as a reference to the whole entry, until a field with that name comes with another value.
///
/// Only the size of the encoding depends on this: once an entry is evicted, nghttp2 writes the name out or adds
/// the field anew, and a client decodes the same fields either way.
struct LongFieldIndexing {
    /// Names remembered per connection; fields of other names are never indexed.
    static let capacity = 8

    /// The first long-valued field sent with a name (its entry was added to the table then).
    private struct Remembered {
        var name: String
        var firstValue: String
        /// A later field with this name had another value: its values are not compared again (an id is fresh in
        /// every answer; comparing it each time cost a retain and a release of both strings).
        var varies = false
    }

    private var remembered: [Remembered] = []

    /// Whether to index the field `name: value` (a response field with a long value), remembering it if its name
    /// is new.
    @inline(__always)
    mutating func index(name: String, value: String) -> Bool {
        for i in remembered.indices where remembered[i].name == name {
            if remembered[i].varies { return false }
            if remembered[i].firstValue == value { return true }
            remembered[i].varies = true
            return false
        }
        guard remembered.count < Self.capacity else { return false }
        remembered.append(Remembered(name: name, firstValue: value))
        return true
    }
}
