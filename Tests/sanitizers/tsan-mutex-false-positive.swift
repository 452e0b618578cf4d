import Synchronization
import Foundation
final class Box: Sendable { let m = Mutex<Int>(0) }
let b = Box()
let g = DispatchGroup()
for t in 0..<2 {
    g.enter()
    Thread.detachNewThread {
        if t == 1 { usleep(20_000) }
        b.m.withLock { v in if v == 0 { usleep(200_000); v = 42 } else { v += 1 } }
        g.leave()
    }
}
g.wait()
print(b.m.withLock { $0 })
