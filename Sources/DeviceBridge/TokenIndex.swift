import Foundation
import PushModel
import Synchronization

/// One address in the index: its kind and canonical text.
package struct IndexedAddress: Sendable, Hashable {
    package var kind: PushTokenKind
    package var value: String

    package init(kind: PushTokenKind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// An APNs device token.
    package static func apns(_ token: DeviceToken) -> IndexedAddress { IndexedAddress(kind: .apns, value: token.hex) }

    /// A token of `kind` (every iPhone token kind's value is its lowercase hex).
    package static func token(_ token: DeviceToken, kind: PushTokenKind) -> IndexedAddress {
        IndexedAddress(kind: kind, value: token.hex)
    }

    /// An Android app's FCM registration token.
    package static func fcm(_ token: String) -> IndexedAddress { IndexedAddress(kind: .fcm, value: token) }
}

/// Who holds an address: the device (its declared name), the app, and the address's kind.
package struct TokenHolder: Sendable, Hashable {
    package var device: String
    package var bundleID: String
    package var kind: PushTokenKind
    /// Which of the app's addresses of that kind, for kinds an app holds several of (an activity id, an attributes
    /// type); empty for the APNs token.
    package var slot: String

    package init(device: String, bundleID: String, kind: PushTokenKind, slot: String = "") {
        self.device = device
        self.bundleID = bundleID
        self.kind = kind
        self.slot = slot
    }
}

/// Which device and app hold each push address, fed by the devices' registration sinks as apps register, get new
/// tokens and are uninstalled: the one answer to "whose token is this" that delivery and the read API use.
/// An app holds at most one address of each kind (a new token replaces the old one, as on iOS).
///
/// Thread-safety: both tables sit behind one `Mutex`; `count` is readable without it (the delivery fast path).
package final class TokenIndex: Sendable {
    struct Tables {
        var holders: [IndexedAddress: TokenHolder] = [:]
        /// Each holder's current address (what a new registration replaces).
        var current: [TokenHolder: IndexedAddress] = [:]
    }
    private let tables = Mutex(Tables())
    private let entries = Atomic<Int>(0)

    package init() {}

    /// `holder` holds `address` from now on, in place of the address it held of that kind.
    package func register(_ address: IndexedAddress, holder: TokenHolder) {
        tables.withLock { t in
            if let old = t.current[holder], old != address { t.holders[old] = nil }
            if let previous = t.holders[address], previous != holder { t.current[previous] = nil }
            t.holders[address] = holder
            t.current[holder] = address
            entries.store(t.holders.count, ordering: .releasing)
        }
    }

    /// Forgets every address `device` holds (before registering its current ones again).
    package func removeAll(device: String) {
        tables.withLock { t in
            for (holder, address) in t.current where holder.device == device {
                t.current[holder] = nil
                t.holders[address] = nil
            }
            entries.store(t.holders.count, ordering: .releasing)
        }
    }

    /// Nobody holds `address` any more (its app was uninstalled).
    package func remove(_ address: IndexedAddress) {
        tables.withLock { t in
            guard let holder = t.holders.removeValue(forKey: address) else { return }
            if t.current[holder] == address { t.current[holder] = nil }
            entries.store(t.holders.count, ordering: .releasing)
        }
    }

    /// Who holds `address`, if anyone.
    package func holder(of address: IndexedAddress) -> TokenHolder? {
        guard entries.load(ordering: .acquiring) > 0 else { return nil }
        return tables.withLock { $0.holders[address] }
    }

    /// Who holds `token`, whatever its kind (the `/3/device/<token>` route takes every kind; the holder's `kind`
    /// says which it is, for `PushTokenKind.outcome(of:at:)`).
    package func holder(ofToken token: DeviceToken) -> TokenHolder? {
        guard entries.load(ordering: .acquiring) > 0 else { return nil }
        let hex = token.hex
        return tables.withLock { t in
            for kind in PushTokenKind.allCases {
                if let h = t.holders[IndexedAddress(kind: kind, value: hex)] { return h }
            }
            return nil
        }
    }

    /// The address `holder` holds now, if any.
    package func address(of holder: TokenHolder) -> IndexedAddress? { tables.withLock { $0.current[holder] } }

    /// How many addresses are held.
    package var count: Int { entries.load(ordering: .acquiring) }
}
