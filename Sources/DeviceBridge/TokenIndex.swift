import Foundation
import PushModel
import Synchronization

/// A kind of push address a simulated device's app holds. Each kind is reached through its own gateway route and
/// indexed separately (the same bytes may be two kinds' addresses).
///
/// Extension point: a new kind (a PushKit VoIP token, a Live Activity's update token, a push-to-start token, a
/// broadcast channel) is
/// 1. a case here, with the canonical text of its address (`IndexedAddress.value`);
/// 2. a `DeviceRegistrationSink` callback the device calls when its app gets or loses one, which the fleet's sink
///    (`GatewayRegistrationSink`) turns into `TokenIndex.register` / `remove` with that kind;
/// 3. the route that delivers to it asking `TokenIndex.holder(of:)` with that kind (as `DeviceFleet.deliver` does
///    for `.apns`), then handing the push to `HostedDevice`.
/// A kind addressing many devices at once (a broadcast channel: one channel id, every subscribed device) keeps a
/// set of holders per address in a table of its own beside `holders`, keyed the same way.
package enum PushTokenKind: String, Sendable, Hashable, CaseIterable {
    /// An app's APNs device token (`didRegisterForRemoteNotificationsWithDeviceToken`), pushed to at
    /// `POST /3/device/<token>`; its value is the token's lowercase hex.
    case apns
    // Live Activities (TokenIndex+LiveActivity.swift): reached at `POST /3/device/<token>` with
    // `apns-push-type: liveactivity`; their values are the tokens' lowercase hex.
    /// An activity's push token (`pushTokenUpdates`); the holder's `slot` is the activity id.
    case activity
    /// A push-to-start token (`pushToStartTokenUpdates`, iOS 17.2+); the holder's `slot` is the attributes type.
    case pushToStart = "push-to-start"
}

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

    /// The address `holder` holds now, if any.
    package func address(of holder: TokenHolder) -> IndexedAddress? { tables.withLock { $0.current[holder] } }

    /// How many addresses are held.
    package var count: Int { entries.load(ordering: .acquiring) }
}
