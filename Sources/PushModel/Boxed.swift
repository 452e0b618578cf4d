/// A value kept behind one reference: a large field that most values of its struct leave empty costs the struct
/// 8 bytes instead of its whole size. A scenario's trace is kept until the run's reports are written, its steps
/// for the whole run: `TraceEvent`'s pictures were 376 of its 576 bytes, a `Step`'s expectation 232 of 808.
/// Immutable, so sharing it is safe; compared by value.
package struct Boxed<Value: Sendable>: Sendable {
    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let storage: Storage

    package init(_ value: Value) {
        storage = Storage(value)
    }

    package var value: Value { storage.value }
}

extension Boxed: Equatable where Value: Equatable {
    package static func == (lhs: Boxed, rhs: Boxed) -> Bool {
        lhs.storage === rhs.storage || lhs.value == rhs.value
    }
}
