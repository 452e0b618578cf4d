import Testing

@testable import HTTPServer

/// `StreamMap` against `Dictionary` as the reference: inserts, replacements, look-ups and removals (backward-shift
/// deletion inside long probe runs included) leave the same contents.
@Suite struct StreamMapTests {
    @Test func matchesADictionaryThroughRandomInsertsAndRemovals() {
        var map = StreamMap<Int>(capacity: 2)
        var reference: [UInt32: Int] = [:]
        var rng = SystemRandomNumberGenerator()
        for step in 0..<20_000 {
            // A narrow key range makes collisions, replacements and removals of present keys frequent.
            let key = UInt32.random(in: 1...300, using: &rng)
            if Bool.random(using: &rng) {
                map.set(key, step)
                reference[key] = step
            } else {
                #expect(map.remove(key) == reference.removeValue(forKey: key))
            }
            #expect(map.count == reference.count)
        }
        for key in UInt32(0)...301 {
            #expect(map.slot(of: key).map { slot in map.modify(slot: slot) { $0 } } == reference[key])
            #expect(map.contains(key) == (reference[key] != nil))
        }
    }

    @Test func clientStreamIdentifiersInOrderAndModifiedInPlace() {
        var map = StreamMap<[UInt8]>()
        for id in stride(from: UInt32(1), through: 401, by: 2) { map.set(id, []) }
        #expect(map.count == 201)
        let slot = map.slot(of: 201)!
        map.modify(slot: slot) { $0.append(7) }
        #expect(map.remove(201) == [7])
        #expect(map.remove(201) == nil)
        #expect(!map.contains(0))
        for id in stride(from: UInt32(1), through: 401, by: 2) where id != 201 { #expect(map.remove(id) == []) }
        #expect(map.isEmpty)
    }
}
