import Dispatch
import Foundation
import Synchronization

/// `map` over large arrays on every core (suite loading: a file of 1,000 scenarios decodes each one on its own).
/// Small arrays stay on the calling thread.
enum ParallelMap {
    /// Each thread gets at least this many elements.
    static let minimumPerThread = 32

    /// `items.map(transform)`, in order; `transform` runs on several threads at once, each on a contiguous slice.
    static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, items.count / minimumPerThread)
        guard threads > 1 else { return items.map(transform) }
        let slices = Mutex([[R]](repeating: [], count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { slice in
            let range = (items.count * slice / threads)..<(items.count * (slice + 1) / threads)
            let mapped = items[range].map(transform)
            slices.withLock { $0[slice] = mapped }
        }
        return slices.withLock { $0.flatMap { $0 } }
    }
}
