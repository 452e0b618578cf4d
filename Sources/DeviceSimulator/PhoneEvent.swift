import Foundation

/// An entry of a phone's event log (`DeviceEvent`, `AndroidDeviceEvent`): numbered 1, 2, 3, … in the order things
/// happened, stamped with the injected clock, about one app or the whole device.
package protocol PhoneEvent: CustomStringConvertible {
    associatedtype Kind: CustomStringConvertible
    init(sequence: Int, at: Date, app: String?, kind: Kind)
    var sequence: Int { get }
    /// The app concerned (bundle ID, package name); nil: the device.
    var app: String? { get }
    var kind: Kind { get }
}

extension PhoneEvent {
    package var description: String { "#\(sequence) \(app ?? "device"): \(kind)" }
}

extension Array where Element: PhoneEvent {
    /// Appends the next entry of the log: what happened to `app` (nil: the device) at `now`. Numbers go on from the
    /// last entry's, so they stay unique once the oldest entries have been dropped (`PhoneLogLimit`).
    mutating func log(_ kind: Element.Kind, _ app: String?, _ now: Date) {
        append(Element(sequence: (last?.sequence ?? 0) + 1, at: now, app: app, kind: kind))
    }

    /// The entries numbered after `sequence` (a window kept by number stays right when the oldest entries have been
    /// dropped: an index into the log would not). The log's numbers are contiguous from its first entry's (only the
    /// oldest are ever dropped), so this is an index computation, not a search.
    package func entries(after sequence: Int) -> ArraySlice<Element> {
        guard let first = first?.sequence else { return self[...] }
        return self[Swift.min(Swift.max(0, sequence - first + 1), count)...]
    }
}

/// How many entries a phone keeps in a log that grows with every push (its event log, iOS's Notification Center):
/// past `limit + limit / 2` the oldest are dropped down to `limit`, so that a phone receiving pushes for hours stays
/// within a bounded memory, and dropping costs a shift of the array every `limit / 2` entries rather than one per
/// entry (README, Reliability: simulator limits).
package struct PhoneLogLimit: Sendable, Equatable {
    package var limit: Int

    package init(_ limit: Int) { self.limit = Swift.max(1, limit) }

    /// Drops `log`'s oldest entries if it has passed the limit and its slack; returns how many.
    @discardableResult
    func trim<Element>(_ log: inout [Element]) -> Int {
        guard log.count > limit + limit / 2 else { return 0 }
        let dropped = log.count - limit
        log.removeFirst(dropped)
        return dropped
    }
}
