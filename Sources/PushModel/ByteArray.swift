/// A byte array of an exact size, written in place.
///
/// `[UInt8](unsafeUninitializedCapacity:initializingWith:)` and `[UInt8](repeating:count:)` compile, in a release
/// build of this package, to calls of the unspecialized `_allocateBufferUninitialized`, which looks up the array's
/// generic metadata on every call (`__swift_instantiateCanonicalPrespecializedGenericMetadata` and
/// `_ContiguousArrayBuffer(_uninitializedCount:minimumCapacity:)` were 2.8 % of an FCM send's samples, issue 21).
/// An empty array that reserves, then appends, takes the specialized paths with cached metadata. The append takes
/// `count` bytes from `ByteClaim`, which writes none of them (no zero fill: appending `repeatElement(0, count:)`
/// cost 1.0 % of the samples, a byte at a time), and `body` then writes them all through
/// `withUnsafeMutableBufferPointer`. A first version handed `body` to the sequence itself: storing it needed
/// `withoutActuallyEscaping`, which allocated a closure context per array (one more allocation and free per call,
/// counted with `Tests/bench/count-bench.sh`).
extension Array where Element == UInt8 {
    /// `count` bytes that `body` initializes, all of them, through a buffer of exactly that size.
    @inlinable
    package init(exactCount count: Int, writing body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        self.init()
        reserveCapacity(count)
        append(contentsOf: ByteClaim(count: count))
        precondition(self.count == count, "Array(exactCount:): the claim took another count")
        withUnsafeMutableBufferPointer { body($0) }
    }
}

/// The sequence `Array(exactCount:writing:)` appends: `count` elements of the array's spare capacity, claimed as
/// they are (`append(contentsOf:)` calls `_copyContents(initializing:)` with that capacity). `UInt8` is a trivial
/// type, so bytes the writer then assigns need no initialization first.
@usableFromInline
package struct ByteClaim: Sequence {
    @usableFromInline let count: Int

    @inlinable
    init(count: Int) { self.count = count }

    @inlinable
    package var underestimatedCount: Int { count }

    @inlinable
    package func makeIterator() -> EmptyCollection<UInt8>.Iterator { EmptyCollection.Iterator() }

    @inlinable
    package func _copyContents(
        initializing buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> (EmptyCollection<UInt8>.Iterator, Int) {
        precondition(buffer.count >= count, "ByteClaim: less room than reserved")
        return (EmptyCollection.Iterator(), count)
    }
}
