/// A value kept behind one reference: a large field that most values of its struct leave empty, or never change,
/// costs the struct 8 bytes and one retain per copy instead of its whole size and a retain per reference in it.
/// `TraceEvent`'s pictures were 376 of its 576 bytes and a `Step`'s expectation 232 of 808 (a scenario's trace
/// is kept until the run's reports are written, its steps for the whole run); an installed app's declaration is
/// 512 of its 1,032 bytes, copied with the app. Immutable, so sharing it is safe; compared by value. Inlinable, so
/// that reading one member of the value reads that member, not a copy of the whole value.
package struct Boxed<Value: Sendable>: Sendable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let value: Value

        @inlinable init(_ value: Value) { self.value = value }
    }

    @usableFromInline let storage: Storage

    @inlinable
    package init(_ value: Value) {
        storage = Storage(value)
    }

    @inlinable
    package var value: Value { storage.value }
}

extension Boxed: Equatable where Value: Equatable {
    @inlinable
    package static func == (lhs: Boxed, rhs: Boxed) -> Bool {
        lhs.storage === rhs.storage || lhs.value == rhs.value
    }
}

extension Boxed: Hashable where Value: Hashable {
    @inlinable
    package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
