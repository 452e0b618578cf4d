import Foundation
@testable import HTTPServer
import HTTPTypes
@testable import PushModel
import Testing

@testable import APNsGateway

/// The log's byte budget and cut bodies, in-process (the socket-level cases are in ServeLimitsTests).
@Suite struct LogBudgetTests {
    private func entry(payload: Int) -> APNsLogEntry {
        APNsLogEntry(
            sequence: 0, endpoint: .sandbox, connectionID: 1, method: "POST", path: "/3/device/ab",
            headers: [HTTPField("apns-topic", "t")], payload: Array(repeating: 0x61, count: payload), token: nil,
            topic: "t", pushType: nil, status: 403, reason: "MissingProviderToken", apnsID: "id", apnsUniqueID: nil,
            auth: .none, receivedAt: Date(timeIntervalSince1970: 0), answeredAt: Date(timeIntervalSince1970: 0),
            faultApplied: false)
    }

    @Test func bodiesAreCutAndTheEntrySaysSo() {
        var log = APNsDeliveryLog(limits: APNsLogLimits(capacity: 10, maxBytes: 1 << 20, maxStoredPayload: 100))
        let stored = log.append(entry(payload: 1000))
        #expect(stored.payload.count == 100 && stored.payloadSize == 1000)
        #expect(log.entries[0] == stored)
        #expect(log.entries[0].json["payload_truncated"] == true && log.entries[0].json["payload_size"] == 1000)
        let small = log.append(entry(payload: 100))
        #expect(small.payloadSize == nil && log.entries[1].json["payload_truncated"] == nil)
    }

    @Test func theOldestGoWhenTheBytesRunOutWhateverTheCount() {
        var log = APNsDeliveryLog(limits: APNsLogLimits(capacity: 1000, maxBytes: 50_000, maxStoredPayload: 10_000))
        for _ in 0..<20 { log.append(entry(payload: 10_000)) }
        #expect(log.bytes <= 50_000)
        #expect((3...5).contains(log.count), "\(log.count) kept")
        #expect(log.entries.map(\.sequence) == Array(UInt64(21 - log.count)...20))
        #expect(log.evicted == UInt64(20 - log.count))
        // Small entries fit many to the budget: all 100 are kept, with the big ones that still fit.
        for _ in 0..<100 { log.append(entry(payload: 10)) }
        #expect(log.bytes <= 50_000)
        #expect(Array(log.entries.map(\.sequence).suffix(100)) == Array(21...120))
        log.removeAll()
        #expect(log.bytes == 0 && log.count == 0)
    }

    @Test func theRingWrapsAfterRemovalsFromTheFront() {
        var ring = RingBuffer<Int>(capacity: 4)
        for i in 1...3 { ring.append(i) }
        #expect(ring.removeFirst() == 1)
        for i in 4...6 { ring.append(i) }  // 2 3 4 5, then 6 pushes 2 out
        #expect(ring.elements == [3, 4, 5, 6])
        #expect(ring.evicted == 2 && ring.count == 4 && ring.first == 3)
        #expect(ring.removeFirst() == 3 && ring.removeFirst() == 4)
        ring.append(7)
        #expect(ring.elements == [5, 6, 7])
    }

    /// Prefetching what the next appends drop reads the slots' words and the arrays' counts only: a ring of
    /// elements with empty, small and large byte arrays, below capacity (where it does nothing) and full, keeps
    /// every element as appended, whatever its position relative to the head.
    @Test func prefetchingTheUpcomingDropsLeavesTheRingAsItWas() {
        struct Record: Sendable, Equatable {
            var id: Int
            var bytes: [UInt8]
            var note: String?
        }
        let offset = MemoryLayout<Record>.offset(of: \.bytes)!
        let sizes = [0, 1, 63, 64, 65, 700, 5000]
        func record(_ i: Int) -> Record {
            Record(
                id: i, bytes: Array(repeating: UInt8(truncatingIfNeeded: i), count: sizes[i % sizes.count]),
                note: i % 2 == 0 ? "note \(i) of a long enough string" : nil)
        }
        var ring = RingBuffer<Record>(capacity: 6)
        for i in 0..<40 {
            ring.append(record(i))
            ring.prefetchUpcomingDrops(bytesOffset: offset)
            let first = max(0, i - 5)
            #expect(ring.elements == (first...i).map(record))
        }
    }
}
