import Foundation
import PushModel

/// What FCM keeps for one offline device ([F-COLL], [F-LIFE]): per collapse key the latest message, at most four keys
/// ("FCM only keeps four collapse keys, with no determining factor on which keys are kept": choice, the key whose latest
/// message is the oldest goes), and up to 100 non-collapsible messages ("If the limit is reached, all stored messages are
/// discarded": choice, everything stored goes, the message that did not fit with it, and the device gets
/// `onDeletedMessages` when it is back). Messages with `ttl: 0` are never stored. It lives with the device because
/// the mock has one FCM per world and the store is per device; the fleet hands every message to the device.
package struct AndroidMessageStore: Sendable, Equatable {
    static let maxCollapseKeys = 4
    static let maxNonCollapsible = 100

    /// Collapsible messages by key, the key whose latest message is the oldest first.
    private(set) var collapsible: [(key: String, message: AndroidMessage)] = []
    private(set) var nonCollapsible: [AndroidMessage] = []
    /// Packages whose messages were discarded by the overflow (each gets one `onDeletedMessages`).
    private(set) var overflowed: Set<String> = []

    package init() {}

    package static func == (a: AndroidMessageStore, b: AndroidMessageStore) -> Bool {
        a.collapsible.map(\.message) == b.collapsible.map(\.message) && a.nonCollapsible == b.nonCollapsible
            && a.overflowed == b.overflowed
    }

    package var count: Int { collapsible.count + nonCollapsible.count }

    /// Whether the message with this id is stored now.
    package func contains(messageID: String) -> Bool {
        collapsible.contains { $0.message.messageID == messageID }
            || nonCollapsible.contains { $0.messageID == messageID }
    }

    /// What storing `m` did to what was there (for the event log).
    package enum Effect: Sendable, Equatable {
        case stored
        case replaced(messageID: String)
        case evictedKey(String, messageID: String)
        case overflowed(discarded: [String])
    }

    /// Stores `m` (ttl > 0). A notification message is collapsible even without a `collapse_key` ("Always
    /// collapsible", About FCM messages), under the default key, the package name [F-COLL][F-TYPES].
    package mutating func add(_ m: AndroidMessage) -> Effect {
        if let key = m.collapseKey ?? (m.isNotificationMessage ? m.effectiveCollapseKey : nil) {
            let scoped = m.packageName + "\u{0}" + key
            if let i = collapsible.firstIndex(where: { $0.key == scoped }) {
                let old = collapsible.remove(at: i).message.messageID
                collapsible.append((scoped, m))
                return .replaced(messageID: old)
            }
            collapsible.append((scoped, m))
            if collapsible.count > Self.maxCollapseKeys {
                let evicted = collapsible.removeFirst()
                return .evictedKey(evicted.message.collapseKey ?? "", messageID: evicted.message.messageID)
            }
            return .stored
        }
        guard nonCollapsible.count < Self.maxNonCollapsible else {
            let discarded = collapsible.map(\.message.messageID) + nonCollapsible.map(\.messageID) + [m.messageID]
            for s in collapsible { overflowed.insert(s.message.packageName) }
            for s in nonCollapsible { overflowed.insert(s.packageName) }
            overflowed.insert(m.packageName)
            collapsible = []
            nonCollapsible = []
            return .overflowed(discarded: discarded)
        }
        nonCollapsible.append(m)
        return .stored
    }

    /// Empties the store: the messages in the order they were sent, and the packages owed `onDeletedMessages`.
    package mutating func drain() -> (messages: [AndroidMessage], overflowed: Set<String>) {
        let all = (collapsible.map(\.message) + nonCollapsible).enumerated().sorted {
            ($0.element.sentAt, $0.offset) < ($1.element.sentAt, $1.offset)
        }.map(\.element)
        let o = overflowed
        self = AndroidMessageStore()
        return (all, o)
    }
}
