/// A byte array of an exact size, written in place.
///
/// `[UInt8](unsafeUninitializedCapacity:initializingWith:)` and `[UInt8](repeating:count:)` compile, in a release
/// build of this package, to calls of the unspecialized `_allocateBufferUninitialized`, which looks up the array's
/// generic metadata on every call (`__swift_instantiateCanonicalPrespecializedGenericMetadata` and
/// `_ContiguousArrayBuffer(_uninitializedCount:minimumCapacity:)` were 2.8 % of an FCM send's samples, issue 21).
/// An empty array that reserves, then appends, takes the specialized paths with cached metadata; the append
/// hands its spare capacity to `ByteFiller._copyContents`, so the bytes are written once, with no zero fill first
/// (appending `repeatElement(0, count:)` then overwriting cost 1.0 % of the samples in a loop a byte at a time).
extension Array where Element == UInt8 {
    /// `count` bytes that `body` initializes, all of them, through a buffer of exactly that size.
    @inlinable
    package init(exactCount count: Int, writing body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        self.init()
        reserveCapacity(count)
        withoutActuallyEscaping(body) { body in append(contentsOf: ByteFiller(count: count, body: body)) }
        precondition(self.count == count, "Array(exactCount:): the filler wrote another count")
    }
}

/// The sequence `Array(exactCount:writing:)` appends: its `count` elements are whatever `body` writes into the
/// array's spare capacity (`append(contentsOf:)` calls `_copyContents(initializing:)` with it).
@usableFromInline
package struct ByteFiller: Sequence {
    @usableFromInline let count: Int
    @usableFromInline let body: (UnsafeMutableBufferPointer<UInt8>) -> Void

    @inlinable
    init(count: Int, body: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        self.count = count
        self.body = body
    }

    @inlinable
    package var underestimatedCount: Int { count }

    @inlinable
    package func makeIterator() -> EmptyCollection<UInt8>.Iterator { EmptyCollection.Iterator() }

    @inlinable
    package func _copyContents(
        initializing buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> (EmptyCollection<UInt8>.Iterator, Int) {
        precondition(buffer.count >= count, "ByteFiller: less room than reserved")
        body(UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
        return (EmptyCollection.Iterator(), count)
    }
}
