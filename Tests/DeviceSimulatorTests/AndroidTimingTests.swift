import Foundation
@testable import PushModel
import Testing

@testable import DeviceSimulator

/// Tests/reference/android.md §3–4 and §10: Doze and priority, TTL, FCM's offline store (collapse keys, the 100-message
/// limit), direct boot, standby buckets and deprioritization. Time moves with the world clock.
@Suite struct AndroidTimingTests {
    struct DozeRow: Sendable, CustomStringConvertible {
        var kind: AndroidMessageKind
        var priority: AndroidMessagePriority?
        var ttl: Int64 = 3600
        var charging = false
        /// What `deliver` answers at once.
        var now: AndroidDeliveryResult
        /// Callbacks after the first maintenance window (60 min) opened.
        var afterWindow: [String]
        var source: String
        var description: String { "\(kind.rawValue) \(priority?.rawValue ?? "default") ttl=\(ttl) [\(source)]" }
    }

    static let dozeRows: [DozeRow] = [
        DozeRow(
            kind: .data, priority: nil, now: .held(.doze(until: AndroidFixture.start.addingTimeInterval(3600))),
            afterWindow: ["onMessageReceived"], source: "AND-PWR: normal deferred to window; AOSP-DIC idle_to 60 min"),
        DozeRow(kind: .data, priority: .high, now: .delivered, afterWindow: [], source: "AND-PWR: high no restriction"),
        DozeRow(
            kind: .notification, priority: nil, now: .delivered, afterWindow: [],
            source: "G-API: notification messages default to HIGH"),
        DozeRow(
            kind: .notification, priority: .normal,
            now: .held(.doze(until: AndroidFixture.start.addingTimeInterval(3600))), afterWindow: [],
            source: "AND-PWR (shown at the window, no callback)"),
        DozeRow(
            kind: .data, priority: .normal, ttl: 0, now: .dropped(.ttlZeroNotDeliverable), afterWindow: [],
            source: "F-LIFE: ttl 0 = now or never"),
        DozeRow(
            kind: .data, priority: .normal, ttl: 1800,
            now: .held(.doze(until: AndroidFixture.start.addingTimeInterval(3600))), afterWindow: [],
            source: "F-LIFE: expired before the window"),
        DozeRow(
            kind: .data, priority: .normal, charging: true, now: .delivered, afterWindow: [],
            source: "AND-PWR: no restrictions while charging"),
    ]

    @Test(arguments: dozeRows)
    func dozeDefersNormalPriority(row: DozeRow) {
        let (d, clock) = AndroidFixture.ready(state: .background)
        if row.charging { d.setCharging(true) }
        d.setDoze(true)
        let m = AndroidFixture.message(d, kind: row.kind, priority: row.priority, ttl: row.ttl)
        #expect(d.deliver(m).result == row.now)
        clock.advance(by: 59 * 60)
        #expect(AndroidFixture.callbacks(d.advanceTime()).isEmpty)
        clock.advance(by: 60)
        let later = d.advanceTime()
        #expect(AndroidFixture.callbacks(later) == row.afterWindow)
        if row.ttl == 1800 { #expect(AndroidFixture.drops(later) == ["ttl-expired"]) }
        if row.kind == .notification, row.priority == .normal { #expect(AndroidFixture.posted(later).count == 1) }
        for r in AndroidFixture.received(later) { #expect(r.priority == .normal) }
    }

    /// AOSP defaults: idle 60 min, window 5 min, then idle ×2 up to 6 h and windows up to 10 min.
    @Test func dozeCycle() {
        let t = DozeTiming(), s = AndroidFixture.start
        func at(_ minutes: Double) -> DozePhase { t.phase(since: s, at: s.addingTimeInterval(minutes * 60)) }
        #expect(at(30) == .idle(nextWindow: s.addingTimeInterval(60 * 60)))
        #expect(at(62) == .maintenanceWindow(until: s.addingTimeInterval(65 * 60)))
        #expect(at(66) == .idle(nextWindow: s.addingTimeInterval((65 + 120) * 60)))
        #expect(at(186) == .maintenanceWindow(until: s.addingTimeInterval((185 + 10) * 60)))
        #expect(at(200) == .idle(nextWindow: s.addingTimeInterval((195 + 240) * 60)))
        #expect(at(436) == .maintenanceWindow(until: s.addingTimeInterval((435 + 10) * 60)))
        #expect(at(450) == .idle(nextWindow: s.addingTimeInterval((445 + 360) * 60)))
    }

    /// A clock that jumps past the first window (a suite's `wait: 3h`) still releases what waited for it: the
    /// message went out in that window, not in the one after.
    @Test func aJumpPastTheWindowStillReleases() {
        let (d, clock) = AndroidFixture.ready(state: .background)
        d.setDoze(true)
        d.deliver(AndroidFixture.message(d, kind: .data))
        clock.advance(by: 3 * 3600)  // past the 60–65 min window, inside the next idle period
        #expect(AndroidFixture.callbacks(d.advanceTime()) == ["onMessageReceived"])
    }

    /// Leaving Doze (screen on: a launch) delivers what waited; a message during a window is not deferred.
    @Test func leavingDozeDeliversAtOnce() {
        let (d, clock) = AndroidFixture.ready(state: .background)
        d.setDoze(true)
        d.deliver(AndroidFixture.message(d, kind: .data))
        let events = try! d.launch(AndroidFixture.pkg)
        #expect(AndroidFixture.callbacks(events).contains("onMessageReceived"))
        d.goHome(AndroidFixture.pkg)
        d.setDoze(true)
        clock.advance(by: 61 * 60)
        #expect(d.deliver(AndroidFixture.message(d, kind: .data)).result == .delivered)
    }

    /// Offline: FCM stores; TTL decides what is left when the device is back [F-LIFE].
    @Test(arguments: [(Int64(0), 10.0, "ttl-zero-not-deliverable"), (60, 120, "ttl-expired"), (3600, 60, "")])
    func offlineStoreAndTTL(ttl: Int64, offlineFor: TimeInterval, dropped: String) {
        let (d, clock) = AndroidFixture.ready(state: .background)
        d.setOnline(false)
        d.deliver(AndroidFixture.message(d, ttl: ttl))
        clock.advance(by: offlineFor)
        let events = d.setOnline(true)
        let all = d.events.suffix(6).map(\.kind)
        if dropped.isEmpty {
            #expect(AndroidFixture.callbacks(events) == ["onMessageReceived"])
        } else {
            #expect(AndroidFixture.callbacks(events).isEmpty)
            #expect(all.contains { if case .messageDropped(_, let r) = $0 { r.code == dropped } else { false } })
        }
    }

    /// Four collapse keys at most (the key with the oldest latest message goes: choice), the latest per key [F-COLL].
    @Test func collapseKeys() {
        let (d, _) = AndroidFixture.ready(state: .background)
        d.setOnline(false)
        var events: [AndroidDeviceEvent] = []
        for key in ["a", "b", "a", "c", "d", "e"] {
            events += d.deliver(AndroidFixture.message(d, collapseKey: key, data: ["k": key])).events
        }
        #expect(
            AndroidFixture.drops(events).map { $0.components(separatedBy: "(").first! } == [
                "collapsed", "collapse-key-evicted",
            ])
        let back = AndroidFixture.received(d.setOnline(true))
        #expect(back.map { $0.data["k"]! } == ["a", "c", "d", "e"])
        #expect(back.map(\.collapseKey) == ["a", "c", "d", "e"])
    }

    /// Notification messages are "Always collapsible": without a collapse_key they collapse under the package name,
    /// so an offline phone shows only the newest; data messages without one are all kept [F-TYPES][F-COLL].
    @Test func notificationMessagesCollapseUnderThePackageName() {
        let (d, _) = AndroidFixture.ready(state: .background)
        d.setOnline(false)
        var events: [AndroidDeviceEvent] = []
        for title in ["one", "two", "three"] {
            events +=
                d.deliver(
                    AndroidFixture.message(
                        d, kind: .notification, notification: AndroidNotificationPayload(title: title, body: "b"))
                ).events
        }
        for _ in 0..<2 { events += d.deliver(AndroidFixture.message(d)).events }
        #expect(
            AndroidFixture.drops(events).map { $0.components(separatedBy: "(").first! } == ["collapsed", "collapsed"])
        let back = d.setOnline(true)
        #expect(AndroidFixture.posted(back).map(\.title) == ["three"])
        #expect(AndroidFixture.callbacks(back).filter { $0 == "onMessageReceived" }.count == 2)
    }

    /// 100 non-collapsible messages stored; the next discards everything and the app gets onDeletedMessages [F-COLL].
    @Test func storeOverflow() {
        let (d, _) = AndroidFixture.ready(state: .background)
        d.setOnline(false)
        for _ in 0..<100 { #expect(d.deliver(AndroidFixture.message(d)).result == .held(.storedOffline)) }
        #expect(d.deliver(AndroidFixture.message(d)).result == .dropped(.storeOverflow))
        #expect(AndroidFixture.drops(d.events).filter { $0 == "store-overflow" }.count == 101)
        #expect(AndroidFixture.callbacks(d.setOnline(true)) == ["onDeletedMessages"])
        d.setOnline(false)
        d.deliver(AndroidFixture.message(d))
        #expect(AndroidFixture.callbacks(d.setOnline(true)) == ["onMessageReceived"])
    }

    /// Direct boot: before the first unlock only `direct_boot_ok` messages to a direct-boot-aware service arrive;
    /// the others wait for the unlock (choice) [F-DB].
    @Test(arguments: [(true, true, true), (true, false, false), (false, true, false)])
    func directBoot(ok: Bool, aware: Bool, atOnce: Bool) {
        let (d, _) = AndroidFixture.ready(AndroidFixture.app(directBootAware: aware), state: .background)
        d.reboot()
        let events = d.deliver(AndroidFixture.message(d, priority: .high, directBootOK: ok)).events
        #expect(AndroidFixture.callbacks(events) == (atOnce ? ["applicationOnCreate", "onMessageReceived"] : []))
        let unlocked = d.unlock()
        #expect(AndroidFixture.callbacks(unlocked) == (atOnce ? [] : ["applicationOnCreate", "onMessageReceived"]))
    }

    /// App Standby buckets, the pre-13 table: Rare allows 5 high-priority messages a day, then normal [AND-PWR];
    /// while charging no limit.
    @Test func standbyBucketQuota() {
        let (d, clock) = AndroidFixture.ready(AndroidFixture.app(bucket: .rare), state: .background)
        var priorities: [AndroidMessagePriority] = []
        for _ in 0..<6 {
            priorities += AndroidFixture.received(d.deliver(AndroidFixture.message(d, priority: .high)).events).map(
                \.priority)
        }
        #expect(priorities == [.high, .high, .high, .high, .high, .normal])
        d.setCharging(true)
        #expect(
            AndroidFixture.received(d.deliver(AndroidFixture.message(d, priority: .high)).events).first?.priority
                == .high)
        d.setCharging(false)
        clock.advance(by: 86_401)
        #expect(
            AndroidFixture.received(d.deliver(AndroidFixture.message(d, priority: .high)).events).first?.priority
                == .high)
    }

    /// FCM deprioritizes after high-priority messages that show nothing (threshold: a declared choice) [F-PRIO].
    @Test func deprioritizationOfSilentHighPriority() {
        let rules = AndroidRules(deprioritizeAfterSilentHighPriority: 2)
        let (d, _) = AndroidFixture.ready(state: .background, rules: rules)
        var priorities: [AndroidMessagePriority] = []
        for _ in 0..<3 {
            priorities += AndroidFixture.received(d.deliver(AndroidFixture.message(d, priority: .high)).events).map(
                \.priority)
        }
        #expect(priorities == [.high, .high, .normal])
        #expect(d.events.contains { if case .priorityLowered = $0.kind { true } else { false } })
    }
}
